//! wasm's Gram tiles (natively: the same order in two scalar lanes, for the tests).

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use super::builds::with_simd128;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use std::arch::wasm32::{f64x2_add, f64x2_mul, f64x2_splat, v128, v128_load, v128_store};

// wasm's [`gram_lower_add`] (`gram_lower_tiles`): C's lower triangle +=
// alpha·A Aᵀ in 4×4 tiles of two-lane vectors, A packed per chunk of GRAM_KC
// columns into panels of 4 rows (each panel's chunk contiguous, k-major), the
// row panels in blocks of GRAM_IB so a block stays in L2 while every column
// panel passes it. faer's product in wasm runs gemm's simd128 microkernel; these
// tiles took the Gram matrix at n = 2000, p = 4000 from about 2.0 to 1.7 s of CPU
// in chromium (docs/performance.md). Each entry sums its chunk's k products in
// order, then C += alpha·sum: not faer's order, so not its last bits (wasm's
// DP-GD already differed from native in them).
/// Rows per panel (two vectors) and columns per tile.
pub(super) const GRAM_MR: usize = 4;
/// Columns of A per packed chunk (the kernel path's blocks of neurons).
pub(super) const GRAM_KC: usize = 256;
/// Row panels per block (32 × 4 rows × 256 columns: 256 KB, in L2).
pub(super) const GRAM_IB: usize = 32;

macro_rules! gram_lower_kernel {
    ($(#[$attr:meta])* $name:ident, $vector:ty,
     zero: $zero:expr, splat: $splat:expr, load: $load:expr, store: $store:expr,
     add: $add:expr, mul: $mul:expr) => {
        $(#[$attr])*
        pub(super) fn $name(c: &mut [f64], m: usize, a: &[f64], k: usize, alpha: f64) {
            /// One 4×4 tile's sums over kc packed columns. A function of its
            /// own, called once per tile: V8 moves a wasm function to its
            /// optimizing tier only between calls, and one call of the whole
            /// product ran in the baseline tier, 2–3× slower.
            #[inline(never)]
            unsafe fn tile(ai: *const f64, bj: *const f64, kc: usize) -> [[$vector; 2]; GRAM_MR] {
                let mut acc: [[$vector; 2]; GRAM_MR] = [[$zero; 2]; GRAM_MR];
                for q in 0..kc {
                    let pa = ai.add(q * GRAM_MR);
                    let a0 = $load(pa);
                    let a1 = $load(pa.add(2));
                    let pb = bj.add(q * GRAM_MR);
                    for (cc, acc_c) in acc.iter_mut().enumerate() {
                        let b = $splat(*pb.add(cc));
                        acc_c[0] = $add(acc_c[0], $mul(a0, b));
                        acc_c[1] = $add(acc_c[1], $mul(a1, b));
                    }
                }
                acc
            }
            assert!(c.len() >= m * m && a.len() >= m * k);
            let panels = m.div_ceil(GRAM_MR);
            let mut packed = vec![0.0f64; panels * GRAM_MR * GRAM_KC.min(k)];
            let mut k0 = 0;
            while k0 < k {
                let kc = GRAM_KC.min(k - k0);
                // packed[(panel·kc + q)·4 + r] = A[panel·4 + r, k0 + q] (0 past m).
                for q in 0..kc {
                    let col = &a[(k0 + q) * m..(k0 + q + 1) * m];
                    for (i, &x) in col.iter().enumerate() {
                        packed[((i / GRAM_MR) * kc + q) * GRAM_MR + i % GRAM_MR] = x;
                    }
                }
                let pk = packed.as_ptr();
                let mut ib = 0;
                while ib < panels {
                    let ie = (ib + GRAM_IB).min(panels);
                    for jp in 0..ie {
                        let bj = unsafe { pk.add(jp * kc * GRAM_MR) };
                        for ip in ib.max(jp)..ie {
                            let ai = unsafe { pk.add(ip * kc * GRAM_MR) };
                            // SAFETY: both panels hold kc·4 packed values.
                            let acc = unsafe { tile(ai, bj, kc) };
                            let (i0, j0) = (ip * GRAM_MR, jp * GRAM_MR);
                            for (cc, acc_c) in acc.iter().enumerate() {
                                let j = j0 + cc;
                                if j >= m {
                                    break;
                                }
                                let mut t = [0.0f64; GRAM_MR];
                                // SAFETY: t holds 4 values.
                                unsafe {
                                    $store(t.as_mut_ptr(), acc_c[0]);
                                    $store(t.as_mut_ptr().add(2), acc_c[1]);
                                }
                                for (r, &x) in t.iter().enumerate() {
                                    let i = i0 + r;
                                    if i < m && i >= j {
                                        c[j * m + i] += alpha * x;
                                    }
                                }
                            }
                        }
                    }
                    ib = ie;
                }
                k0 += kc;
            }
        }
    };
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
with_simd128!(gram_lower_kernel!(gram_lower_tiles, v128,));

// Elsewhere the same tiles with two scalar lanes: never called natively (faer
// runs there), kept so the wasm kernel's order is tested natively.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
gram_lower_kernel!(
    gram_lower_tiles, [f64; 2],
    zero: [0.0; 2], splat: |x: f64| [x; 2],
    load: |p: *const f64| [*p, *p.add(1)],
    store: |p: *mut f64, v: [f64; 2]| { *p = v[0]; *p.add(1) = v[1]; },
    add: |x: [f64; 2], y: [f64; 2]| [x[0] + y[0], x[1] + y[1]],
    mul: |x: [f64; 2], y: [f64; 2]| [x[0] * y[0], x[1] * y[1]]
);
