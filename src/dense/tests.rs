use super::builds::symmetric_lower_fallback;
#[cfg(target_arch = "x86_64")]
use super::builds::{symmetric_lower_avx2, symmetric_lower_avx512};
use super::gram_tiles::{gram_lower_tiles, GRAM_IB, GRAM_KC, GRAM_MR};
use super::symmetric::PANEL;
use super::*;

fn pseudo_random(len: usize, seed: u64) -> Vec<f64> {
    (0..len)
        .map(|i| (((i as u64 + 1) * (seed * 2 + 1) * 2_654_435_761) % 1000) as f64 / 500.0 - 1.0)
        .collect()
}

/// A pseudo-random m×k A (from `seed`) and the full m×m G = alpha·A Aᵀ.
fn random_gram(m: usize, k: usize, seed: u64, alpha: f64) -> (Vec<f64>, Vec<f64>) {
    let a = pseudo_random(m * k, seed);
    let mut g = vec![0.0; m * m];
    gram_lower_add(&mut g, m, &a, k, alpha);
    mirror_lower(&mut g, m);
    (a, g)
}

/// wasm's Gram tiles (here their two-scalar-lane build, the same order):
/// the naive sums on the lower triangle at sizes that leave partial panels,
/// several chunks of k and several row blocks; the strict upper triangle
/// untouched; C added to, not overwritten.
#[test]
fn gram_tiles_match_the_naive_loops() {
    for &(m, k) in &[
        (1, 1),
        (7, 5),
        (13, 300),
        (GRAM_MR * GRAM_IB + 6, GRAM_KC + 3),
    ] {
        let a = pseudo_random(m * k, 5);
        let before = pseudo_random(m * m, 6);
        let mut c = before.clone();
        gram_lower_tiles(&mut c, m, &a, k, 0.5);
        for j in 0..m {
            for i in 0..m {
                let got = c[j * m + i];
                if i < j {
                    assert_eq!(got, before[j * m + i], "upper ({i}, {j}) at m = {m}");
                    continue;
                }
                let want: f64 = before[j * m + i]
                    + (0..k)
                        .map(|q| 0.5 * a[q * m + i] * a[q * m + j])
                        .sum::<f64>();
                assert!(
                    (got - want).abs() < 1e-12 * k as f64,
                    "({i}, {j}) at m = {m}, k = {k}: {got} against {want}"
                );
            }
        }
    }
}

#[test]
fn gram_and_products_match_the_naive_loops() {
    let (m, k) = (7, 5);
    let (a, c) = random_gram(m, k, 3, 2.0);
    for i in 0..m {
        for j in 0..m {
            let want: f64 = (0..k).map(|q| 2.0 * a[q * m + i] * a[q * m + j]).sum();
            assert!((c[j * m + i] - want).abs() < 1e-12);
        }
    }
    let b = pseudo_random(k * 3, 4);
    let mut ab = vec![1.0; m * 3];
    gemm(&mut ab, m, 3, &a, k, &b, 1.0, true);
    let mut atab = vec![0.0; k * 3];
    gemm(&mut atab, k, 3, Left::Transposed(&a), m, &ab, 0.5, false);
    for j in 0..3 {
        for i in 0..m {
            let want: f64 = 1.0 + (0..k).map(|q| a[q * m + i] * b[j * k + q]).sum::<f64>();
            assert!((ab[j * m + i] - want).abs() < 1e-12);
        }
        for i in 0..k {
            let want: f64 = 0.5 * (0..m).map(|q| a[i * m + q] * ab[j * m + q]).sum::<f64>();
            assert!((atab[j * k + i] - want).abs() < 1e-12);
        }
    }
}

#[test]
fn the_lower_triangle_product_is_the_symmetric_product() {
    // m = 21 and 64: panels of PANEL columns, whole chunks of LANES rows
    // below them and a remainder (m = 21: a last, narrower panel); b up to
    // 6 columns of W. The upper triangle is garbage on purpose: it must
    // not be read.
    for m in [1, 8, 21, 64, 300] {
        let a = pseudo_random(m * m, 5);
        let mut sym = vec![0.0; m * m];
        for j in 0..m {
            for i in j..m {
                sym[j * m + i] = a[j * m + i];
                sym[i * m + j] = a[j * m + i];
            }
        }
        let mut lower_only = sym.clone();
        for j in 1..m {
            for i in 0..j {
                lower_only[j * m + i] = f64::NAN;
            }
        }
        for b in 1..=6 {
            let w = pseudo_random(m * b, 6 + b as u64);
            let mut want = vec![0.0; m * b];
            gemm(&mut want, m, b, &sym, m, &w, 1.0, false);
            let mut got = vec![7.0; m * b];
            symmetric_lower_product(&mut got, &lower_only, m, &w, b);
            for (x, y) in got.iter().zip(&want) {
                assert!((x - y).abs() < 1e-12, "m = {m}, b = {b}: {x} against {y}");
            }
        }
    }
}

#[test]
fn every_build_of_the_lower_triangle_kernel_gives_the_same_bits() {
    // The portable kernel against each vector build this CPU has, one
    // column per pass and two, on a whole triangle (lo = 0) and on each
    // band of rows (m = 300: rows below r and from r): the lanes and the
    // order are the same, so the bits must be (native and wasm agree on
    // the portable order).
    for (m, lo) in [(9, 0), (21, 0), (21, 8), (64, 40), (203, 0), (300, 208)] {
        let a_values = pseudo_random(m * m, 11);
        let w_values = pseudo_random(2 * m, 12);
        let (a, w) = (
            a_values.as_ptr(),
            [w_values.as_ptr(), w_values[m..].as_ptr()],
        );
        // Both columns through one build, one column per pass or two.
        let columns = |pass: &dyn Fn([*mut f64; 2])| {
            let mut y = vec![7.0; 2 * m];
            let (y0, y1) = y.split_at_mut(m);
            pass([y0.as_mut_ptr(), y1.as_mut_ptr()]);
            bits(&y)
        };
        // SAFETY (every call below): each pointer covers m (or m·m) values,
        // and a vector build runs only where the CPU has its features.
        let portable = columns(&|y| unsafe {
            symmetric_lower_fallback::<1>([y[0]], a, m, lo, m, [w[0]]);
            symmetric_lower_fallback::<1>([y[1]], a, m, lo, m, [w[1]]);
        });
        // One build, one column per pass then two per pass, against the
        // portable single columns. (A macro: each build is a generic of the
        // columns per pass, and unsafe for its target features.)
        macro_rules! same_bits {
            ($kernel:ident, $build:literal) => {
                let single = columns(&|y| unsafe {
                    $kernel::<1>([y[0]], a, m, lo, m, [w[0]]);
                    $kernel::<1>([y[1]], a, m, lo, m, [w[1]]);
                });
                assert_eq!(single, portable, "{}, m = {m}, lo = {lo}", $build);
                let pairs = columns(&|y| unsafe { $kernel::<2>(y, a, m, lo, m, w) });
                assert_eq!(pairs, portable, "{} pairs, m = {m}, lo = {lo}", $build);
            };
        }
        // wasm's pairing (its simd128 build runs two columns per pass) in
        // the portable lanes.
        same_bits!(symmetric_lower_fallback, "portable");
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                same_bits!(symmetric_lower_avx2, "AVX2");
            }
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512vl")
            {
                same_bits!(symmetric_lower_avx512, "AVX-512");
            }
        }
        clean_upper_state();
        if lo == 0 && band_split(m) == 0 {
            // One band: the public product is the portable kernel's.
            let mut public = vec![0.0; 2 * m];
            symmetric_lower_product(&mut public, &a_values, m, &w_values, 2);
            assert_eq!(bits(&public), portable, "m = {m}");
        }
    }
}

#[test]
fn the_bands_are_the_same_bits_on_one_thread_or_two() {
    // From BAND_MIN_M the triangle is cut into two bands of rows; with a
    // second core (from SECOND_CORE_MIN_M) the first runs on the helper
    // thread, or on this one if the helper has not taken it yet. The
    // result must not depend on which: the bands' sums, then Y₁ + Y₂.
    assert_eq!(band_split(BAND_MIN_M - 1), 0);
    for m in [BAND_MIN_M, 2000] {
        let r = band_split(m);
        assert!(r % PANEL == 0 && r > 0 && r < m, "m = {m}: r = {r}");
        // About half of the m(m+1)/2 entries in each band.
        let first = (r * (r + 1) / 2) as f64 / (m * (m + 1) / 2) as f64;
        assert!((first - 0.5).abs() < 0.03, "m = {m}: {first}");
    }
    for m in [SECOND_CORE_MIN_M + 77, 2000] {
        let a = pseudo_random(m * m, 13);
        for b in 1..=3 {
            let w = pseudo_random(m * b, 14 + b as u64);
            let mut one = vec![0.0; m * b];
            symmetric_lower_product(&mut one, &a, m, &w, b);
            // By hand: band 1 (rows below r) and band 2 (rows from r), added.
            let r = band_split(m);
            let (mut y1, mut y2) = (vec![0.0; r], vec![0.0; m]);
            for c in 0..b {
                let wc = w[c * m..].as_ptr();
                // SAFETY: the pointers cover r, m and m·m values.
                unsafe {
                    symmetric_lower_fallback::<1>([y1.as_mut_ptr()], a.as_ptr(), m, 0, r, [wc]);
                    symmetric_lower_fallback::<1>([y2.as_mut_ptr()], a.as_ptr(), m, r, m, [wc]);
                }
                y2.iter_mut().zip(&y1).for_each(|(x, y)| *x += y);
                assert_eq!(
                    bits(&one[c * m..(c + 1) * m]),
                    bits(&y2),
                    "m = {m}, b = {b}"
                );
            }
            for _ in 0..20 {
                let mut two = vec![0.0; m * b];
                symmetric_lower_product_on(&mut two, &a, m, &w, b, true);
                assert_eq!(bits(&two), bits(&one), "m = {m}, b = {b}");
            }
        }
    }
}

fn bits(x: &[f64]) -> Vec<u64> {
    x.iter().map(|v| v.to_bits()).collect()
}

#[test]
fn triangular_and_cholesky_products_agree_with_the_full_ones() {
    let (m, k) = (9, 12);
    let (_, g) = random_gram(m, k, 8, 1.0);
    let w = pseudo_random(m * 3, 9);
    let mut full = vec![0.0; m * 3];
    gemm(&mut full, m, 3, &g, m, &w, 1.0, false);
    let chol = Cholesky::new(&g, m).unwrap();
    let (mut llw, mut lw) = (vec![0.0; m * 3], vec![0.0; m * 3]);
    trmm_lower(&mut lw, m, 3, chol.lower(), &w, 1.0);
    let mut lt = vec![0.0; m * m];
    for j in 0..m {
        for i in 0..m {
            lt[j * m + i] = chol.lower()[i * m + j];
        }
    }
    // L Lᵀ = G: G w = L (Lᵀ w).
    let mut ltw = vec![0.0; m * 3];
    gemm(&mut ltw, m, 3, &lt, m, &w, 1.0, false);
    trmm_lower(&mut llw, m, 3, chol.lower(), &ltw, 1.0);
    assert!(full.iter().zip(&llw).all(|(x, y)| (x - y).abs() < 1e-9));
    // The solve: G x = b to rounding (a residual check, whatever G's condition).
    let b = full[..m].to_vec();
    let mut x = b.clone();
    chol.solve_in_place(&mut x);
    let mut gx = vec![0.0; m];
    gemm(&mut gx, m, 1, &g, m, &x, 1.0, false);
    assert!(gx.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-8));
    assert!(lw.iter().all(|x| x.is_finite()));
}

#[test]
fn eigen_reconstructs_the_matrix() {
    let (m, k) = (6, 9);
    let (_, g) = random_gram(m, k, 5, 1.0);
    let (values, vectors) = symmetric_eigen(&g, m).unwrap();
    assert!(values.windows(2).all(|w| w[0] <= w[1]));
    for i in 0..m {
        for j in 0..m {
            let rebuilt: f64 = (0..m)
                .map(|q| vectors[q * m + i] * values[q] * vectors[q * m + j])
                .sum();
            assert!((rebuilt - g[j * m + i]).abs() < 1e-10);
        }
    }
}
