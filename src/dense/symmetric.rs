//! The product with a symmetric matrix of which only the lower triangle is read,
//! in one or two bands of rows (the second natively on a second core).

use super::builds::symmetric_lower_fallback;
#[cfg(target_arch = "x86_64")]
use super::builds::{symmetric_lower_avx2, symmetric_lower_avx512, x86_build, X86Build};
use super::clean_upper_state;

/// Columns of A one sweep down the rows handles: each y_i is loaded and stored
/// once per panel instead of once per column (so the product is bound by
/// reading A, not by the traffic of y), and 8 columns are 8 streams that the
/// prefetchers follow. Measured at m = 2000 against one column at a time
/// (docs/performance.md): 0.39 against 0.75 ms natively; 4 and 16 were slower.
pub(super) const PANEL: usize = 8;

/// Lanes of its inner loops: independent accumulators per column of the panel
/// (one 256-bit vector natively, two 128-bit ones in wasm, four scalars in the
/// portable code: the same lanes, so every build gives the same bits).
pub(super) const LANES: usize = 4;

/// Y (m×b) = A W for a symmetric m×m A of which only the lower triangle (with
/// the diagonal) is read, W m×b; column-major. Each entry below the diagonal is
/// read once and used twice (A_ij w_j into y_i, A_ij w_i into y_j), so a product
/// moves half the memory of a full matrix–vector product.
///
/// From m = [`BAND_MIN_M`] the triangle is cut into two bands of rows with about
/// equal entries ([`band_split`]: the rows below r and the rows from r, r ≈
/// m/√2): each band is read once into its own Y, and the two are added (Y₁ + Y₂
/// on the rows below r). Here both bands run on this thread, in turn;
/// [`symmetric_lower_product_on`] can give the first to a second core. The
/// bands and their sum are the same whichever thread computes them, so the
/// bits never depend on the threads (one or two). wasm runs one band
/// ([`band_split`] says why).
///
/// One kernel ([`symmetric_lower_kernel!`]) in four builds: AVX-512 natively
/// (256-bit vectors, its 32 registers; two columns of W per pass over A, which
/// is what bounds it), AVX2 natively (two columns per pass too: its 16
/// registers do not hold both columns' accumulators, the spills go to L1, and
/// one pass still beats two: 500 products at n = 2000 took 0.30–0.36 s against
/// 0.45–0.46 s on the AMD EPYC Zen 4 with the AVX2 build forced,
/// docs/performance.md), simd128 in wasm (two columns per pass too: see its
/// instantiation), and portable code elsewhere. Natively the build is the
/// widest the CPU has unless `DP_EXPLORER_SIMD` forces a narrower one
/// ([`x86_build`]). Plain multiplies
/// and adds in one fixed order with [`LANES`] lanes: every build and every
/// pairing of columns gives the same bits (tested).
pub fn symmetric_lower_product(y: &mut [f64], a: &[f64], m: usize, w: &[f64], b: usize) {
    symmetric_lower_product_on(y, a, m, w, b, false);
}

/// [`symmetric_lower_product`], with its first band on a second thread when
/// `second_core` and m ≥ [`SECOND_CORE_MIN_M`] (natively; wasm has no threads
/// and computes both bands in turn). If the helper thread has not started the
/// band by the time this thread has finished the other one, this thread
/// computes it too, so a busy machine costs at most the one-thread time. The
/// same bits either way.
pub fn symmetric_lower_product_on(
    y: &mut [f64],
    a: &[f64],
    m: usize,
    w: &[f64],
    b: usize,
    second_core: bool,
) {
    assert!(a.len() >= m * m && y.len() >= m * b && w.len() >= m * b);
    let r = band_split(m);
    let second = Band {
        y: y.as_mut_ptr(),
        ldy: m,
        a: a.as_ptr(),
        lo: r,
        m,
        w: w.as_ptr(),
        b,
    };
    if r == 0 {
        // SAFETY: the slices cover m·m, m·b and m·b values (assert above).
        unsafe { second.run() };
        return;
    }
    // Band 1, the rows below r (the leading r×r triangle), into its own r×b Y₁
    // (A's and W's leading dimension stays m: `run_with_stride(m)`).
    let mut y1 = vec![0.0; r * b];
    let first = Band {
        y: y1.as_mut_ptr(),
        ldy: r,
        lo: 0,
        m: r,
        ..second
    };
    // SAFETY (both): the bands write disjoint buffers (y1 and y) and read A and
    // W within the bounds asserted above; `run_beside` returns only once both
    // are computed.
    #[cfg(not(target_arch = "wasm32"))]
    if second_core && m >= SECOND_CORE_MIN_M {
        unsafe { second_core::run_beside(&first, &second, m) };
    } else {
        unsafe {
            first.run_with_stride(m);
            second.run();
        }
    }
    #[cfg(target_arch = "wasm32")]
    {
        let _ = second_core;
        unsafe {
            first.run_with_stride(m);
            second.run();
        }
    }
    for c in 0..b {
        for (yi, y1i) in y[c * m..c * m + r].iter_mut().zip(&y1[c * r..(c + 1) * r]) {
            *yi += y1i;
        }
    }
}

/// The order at which [`symmetric_lower_product`] starts to cut A's triangle
/// into two bands of rows. The kernel path of DP-GD runs from n = 256
/// (`KERNEL_MIN_N`); below it a product is too short for a second thread.
pub const BAND_MIN_M: usize = 256;

/// The order from which [`symmetric_lower_product_on`] gives a band to a second
/// core: a product at m = 1000 takes about 0.1 ms, against some 10–50 µs to
/// wake a thread.
pub const SECOND_CORE_MIN_M: usize = 1024;

/// The first row r of [`symmetric_lower_product`]'s second band: 0 (one band)
/// below [`BAND_MIN_M`], else m/√2 rounded to the nearest multiple of [`PANEL`], so
/// each band holds about half of the triangle's m(m+1)/2 entries (r(r+1)/2 in
/// the first). A function of m alone natively: every x86-64 build and thread
/// count cuts alike. wasm (one thread, nothing to gain) keeps one band: the
/// two bands in turn made its kernel ~1.5× slower (`bench-browser.mjs
/// dense-kw-symmetric`: 4.7–4.9 s against 2.9–3.5 s in one band,
/// docs/performance.md), so its last bits differ from the native ones, as
/// faer's products already made them differ.
pub fn band_split(m: usize) -> usize {
    if cfg!(target_arch = "wasm32") || m < BAND_MIN_M {
        return 0;
    }
    ((m as f64 / std::f64::consts::SQRT_2) as usize + PANEL / 2) / PANEL * PANEL
}

/// One band of a lower-triangle product: Y_c (`ldy` apart) = the rows lo..m of
/// the leading m×m triangle of A times W_c (W's columns m apart in
/// [`symmetric_lower_product_on`], A's leading dimension given to `run_with_stride`).
#[derive(Clone, Copy)]
struct Band {
    y: *mut f64,
    ldy: usize,
    a: *const f64,
    lo: usize,
    m: usize,
    w: *const f64,
    b: usize,
}

// SAFETY: a band is handed to the helper thread only while its caller waits
// for it (`second_core::run_beside`), and the two threads' bands write
// disjoint buffers.
unsafe impl Send for Band {}

impl Band {
    /// A band whose A and W have leading dimension m (the whole product's).
    unsafe fn run(&self) {
        self.run_with_stride(self.m);
    }

    /// The band with A's and W's leading dimension `ld`, every column of W, in
    /// pairs where the build takes two columns per pass.
    unsafe fn run_with_stride(&self, ld: usize) {
        let Band {
            y,
            ldy,
            a,
            lo,
            m,
            w,
            b,
        } = *self;
        let col = |c: usize| (y.add(c * ldy), w.add(c * ld));
        // Natively and in wasm, columns of W in pairs through the build's
        // kernel (natively the widest build's).
        #[cfg(any(target_arch = "x86_64", target_arch = "wasm32"))]
        macro_rules! in_pairs {
            ($kernel:ident) => {{
                let mut c = 0;
                while c < b {
                    let (y0, w0) = col(c);
                    if c + 1 < b {
                        let (y1, w1) = col(c + 1);
                        $kernel::<2>([y0, y1], a, ld, lo, m, [w0, w1]);
                        c += 2;
                    } else {
                        $kernel::<1>([y0], a, ld, lo, m, [w0]);
                        c += 1;
                    }
                }
                clean_upper_state();
                return;
            }};
        }
        #[cfg(target_arch = "x86_64")]
        match x86_build() {
            X86Build::Avx512 => in_pairs!(symmetric_lower_avx512),
            X86Build::Avx2 => in_pairs!(symmetric_lower_avx2),
            X86Build::Scalar => {}
        }
        // In wasm, the simd128 build (.cargo/config.toml enables simd128, which
        // the kernel is cfg'd on).
        #[cfg(target_arch = "wasm32")]
        in_pairs!(symmetric_lower_fallback);
        // Elsewhere (and x86-64 without AVX2), one column per pass.
        #[cfg(not(target_arch = "wasm32"))]
        for c in 0..b {
            let (y0, w0) = col(c);
            symmetric_lower_fallback::<1>([y0], a, ld, lo, m, [w0]);
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod second_core;
