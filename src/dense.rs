//! Dense kernels at sizes in the thousands (n = 2000–3000): Gram matrices,
//! matrix–matrix products and the symmetric eigendecomposition, through `faer`
//! (pure Rust, cache-blocked, SIMD natively and in wasm), and one hand-written
//! kernel, [`symmetric_lower_product`], for the memory-bound products with a
//! symmetric matrix and one or two columns. nalgebra stays for the small
//! fixed-size algebra everywhere else; docs/performance.md has the measurements that
//! decided which library runs what.
//!
//! Every matrix here is a column-major slice with its dimensions, so callers keep
//! plain `Vec<f64>` storage. faer runs on one thread (`Par::Seq`): the
//! page runs one worker per core and the CLI shares the machine. The one
//! exception is [`symmetric_lower_product_on`], whose caller may give half of
//! a product to a second core when nothing else of its own runs there.

use faer::linalg::matmul::matmul;
use faer::linalg::matmul::triangular::{matmul as triangular_matmul, BlockStructure};
use faer::{Accum, MatMut, MatRef, Par, Side};

/// Clears the upper halves of the vector registers after a faer call.
///
/// faer's x86 kernels (AVX-512, chosen at run time) return with them dirty,
/// and the rest of the crate is built for baseline x86-64 (SSE2): SSE code
/// after a dirty upper state ran about 2× slower on these machines, for as
/// long as the thread lived (a Private FedRep run at n = 10⁶ after a DP-GD
/// sweep in one `dp-explorer bench` process: 18.4 s against 9.7 s alone).
/// VZEROUPPER is what compilers emit at the end of AVX code for this reason.
#[inline]
fn clean_upper_state() {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: the CPU has AVX (checked just above).
        unsafe { std::arch::x86_64::_mm256_zeroupper() };
    }
}

fn view(a: &[f64], rows: usize, cols: usize) -> MatRef<'_, f64> {
    MatRef::from_column_major_slice(&a[..rows * cols], rows, cols)
}

fn view_mut(a: &mut [f64], rows: usize, cols: usize) -> MatMut<'_, f64> {
    MatMut::from_column_major_slice_mut(&mut a[..rows * cols], rows, cols)
}

/// Lower triangle (with the diagonal) of the m×m `c` += alpha·A Aᵀ, A m×k.
/// Half the arithmetic of the full product; the strict upper triangle is left
/// alone (see [`mirror_lower`]). Through faer natively; in wasm through this
/// module's own simd128 tiles (`gram_lower_tiles`, near the end of the file).
pub fn gram_lower_add(c: &mut [f64], m: usize, a: &[f64], k: usize, alpha: f64) {
    if m == 0 || k == 0 {
        return;
    }
    if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
        gram_lower_tiles(c, m, a, k, alpha);
        return;
    }
    let a = view(a, m, k);
    triangular_matmul(
        view_mut(c, m, m),
        BlockStructure::TriangularLower,
        Accum::Add,
        a,
        BlockStructure::Rectangular,
        a.transpose(),
        BlockStructure::Rectangular,
        alpha,
        Par::Seq,
    );
    clean_upper_state();
}

/// Copies the lower triangle of the m×m column-major `c` onto its upper one.
pub fn mirror_lower(c: &mut [f64], m: usize) {
    for j in 0..m {
        for i in 0..j {
            c[j * m + i] = c[i * m + j];
        }
    }
}

/// The left factor A of [`gemm`]: an m×k column-major slice as it is (a
/// `&[f64]` or `&Vec<f64>` converts to this), or the transpose of a stored
/// k×m one.
#[derive(Clone, Copy, Debug)]
pub enum Left<'a> {
    Plain(&'a [f64]),
    Transposed(&'a [f64]),
}

impl<'a> From<&'a [f64]> for Left<'a> {
    fn from(a: &'a [f64]) -> Self {
        Left::Plain(a)
    }
}

impl<'a> From<&'a Vec<f64>> for Left<'a> {
    fn from(a: &'a Vec<f64>) -> Self {
        Left::Plain(a)
    }
}

/// C (m×n) = alpha·A B (+ C if `add`), A m×k (or Aᵀ of a stored k×m A, see
/// [`Left`]), B k×n, on one thread.
#[allow(clippy::too_many_arguments)]
pub fn gemm<'a>(
    c: &mut [f64],
    m: usize,
    n: usize,
    a: impl Into<Left<'a>>,
    k: usize,
    b: &[f64],
    alpha: f64,
    add: bool,
) {
    if m == 0 || n == 0 {
        return;
    }
    let a = match a.into() {
        Left::Plain(a) => view(a, m, k),
        Left::Transposed(a) => view(a, k, m).transpose(),
    };
    matmul(
        view_mut(c, m, n),
        if add { Accum::Add } else { Accum::Replace },
        a,
        view(b, k, n),
        alpha,
        Par::Seq,
    );
    clean_upper_state();
}

/// C (m×n) = alpha·L B with L (m×m) lower triangular (its strict upper triangle
/// is not read): half the arithmetic of a full product.
pub fn trmm_lower(c: &mut [f64], m: usize, n: usize, l: &[f64], b: &[f64], alpha: f64) {
    if m == 0 || n == 0 {
        return;
    }
    triangular_matmul(
        view_mut(c, m, n),
        BlockStructure::Rectangular,
        Accum::Replace,
        view(l, m, m),
        BlockStructure::TriangularLower,
        view(b, m, n),
        BlockStructure::Rectangular,
        alpha,
        Par::Seq,
    );
    clean_upper_state();
}

/// The Cholesky factor of a symmetric positive definite m×m matrix.
pub struct Cholesky {
    llt: faer::linalg::solvers::Llt<f64>,
    /// L, m×m column-major (zeros above the diagonal).
    lower: Vec<f64>,
    m: usize,
}

impl Cholesky {
    /// `None` when `a` (its lower triangle is read) is not numerically positive definite.
    pub fn new(a: &[f64], m: usize) -> Option<Self> {
        let llt = view(a, m, m).llt(Side::Lower).ok();
        clean_upper_state();
        let llt = llt?;
        let l = llt.L();
        let mut lower = vec![0.0; m * m];
        for j in 0..m {
            for i in j..m {
                lower[j * m + i] = l[(i, j)];
            }
        }
        Some(Cholesky { llt, lower, m })
    }

    pub fn lower(&self) -> &[f64] {
        &self.lower
    }

    /// x ← A⁻¹x.
    pub fn solve_in_place(&self, x: &mut [f64]) {
        use faer::linalg::solvers::Solve;
        self.llt.solve_in_place(view_mut(x, self.m, 1));
        clean_upper_state();
    }
}

/// Eigendecomposition of the symmetric m×m `a` (its lower triangle is read):
/// (eigenvalues in increasing order, eigenvectors as the columns of an m×m
/// column-major matrix). `None` if the QR iteration does not converge.
pub fn symmetric_eigen(a: &[f64], m: usize) -> Option<(Vec<f64>, Vec<f64>)> {
    if m == 0 {
        return Some((Vec::new(), Vec::new()));
    }
    let evd = view(a, m, m).self_adjoint_eigen(Side::Lower).ok();
    clean_upper_state();
    let evd = evd?;
    let values: Vec<f64> = (0..m).map(|i| evd.S().column_vector()[i]).collect();
    let u = evd.U();
    let mut vectors = vec![0.0; m * m];
    for j in 0..m {
        for i in 0..m {
            vectors[j * m + i] = u[(i, j)];
        }
    }
    Some((values, vectors))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pseudo_random(len: usize, seed: u64) -> Vec<f64> {
        (0..len)
            .map(|i| {
                (((i as u64 + 1) * (seed * 2 + 1) * 2_654_435_761) % 1000) as f64 / 500.0 - 1.0
            })
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
            // wasm's pairing (its simd128 build runs two columns per pass) in
            // the portable lanes.
            let pairs = columns(&|y| unsafe { symmetric_lower_fallback::<2>(y, a, m, lo, m, w) });
            assert_eq!(pairs, portable, "portable pairs, m = {m}, lo = {lo}");
            #[cfg(target_arch = "x86_64")]
            {
                if std::arch::is_x86_feature_detected!("avx2") {
                    let avx2 = columns(&|y| unsafe {
                        symmetric_lower_avx2::<1>([y[0]], a, m, lo, m, [w[0]]);
                        symmetric_lower_avx2::<1>([y[1]], a, m, lo, m, [w[1]]);
                    });
                    assert_eq!(avx2, portable, "AVX2, m = {m}, lo = {lo}");
                    let pairs =
                        columns(&|y| unsafe { symmetric_lower_avx2::<2>(y, a, m, lo, m, w) });
                    assert_eq!(pairs, portable, "AVX2 pairs, m = {m}, lo = {lo}");
                }
                if std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512vl")
                {
                    let single = columns(&|y| unsafe {
                        symmetric_lower_avx512::<1>([y[0]], a, m, lo, m, [w[0]]);
                        symmetric_lower_avx512::<1>([y[1]], a, m, lo, m, [w[1]]);
                    });
                    assert_eq!(single, portable, "AVX-512, m = {m}, lo = {lo}");
                    let pairs =
                        columns(&|y| unsafe { symmetric_lower_avx512::<2>(y, a, m, lo, m, w) });
                    assert_eq!(pairs, portable, "AVX-512 pairs, m = {m}, lo = {lo}");
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
}

/// Columns of A one sweep down the rows handles: each y_i is loaded and stored
/// once per panel instead of once per column (so the product is bound by
/// reading A, not by the traffic of y), and 8 columns are 8 streams that the
/// prefetchers follow. Measured at m = 2000 against one column at a time
/// (docs/performance.md): 0.39 against 0.75 ms natively; 4 and 16 were slower.
const PANEL: usize = 8;

/// Lanes of its inner loops: independent accumulators per column of the panel
/// (one 256-bit vector natively, two 128-bit ones in wasm, four scalars in the
/// portable code: the same lanes, so every build gives the same bits).
const LANES: usize = 4;

/// The vector build of the hand-written x86-64 kernels: the widest this CPU
/// has, or a narrower one forced by the environment variable
/// `DP_EXPLORER_SIMD` (`avx2` or `scalar`; read once per process). A
/// benchmarking switch, to time the AVX2 path on a machine with AVX-512:
/// every build gives the same bits (tested), so results never depend on it.
/// It does not reach faer's products, which choose AVX-512 or AVX2 at run
/// time through the standard library's detection (docs/performance.md).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum X86Build {
    Avx512,
    Avx2,
    Scalar,
}

/// The x86-64 build [`symmetric_lower_product`] runs (see [`X86Build`]): the
/// one `DP_EXPLORER_SIMD` asks for, or the widest this CPU has when it is
/// unset or refused ([`x86_build_from_env`] says why; the CLI refuses to run
/// with it).
#[cfg(target_arch = "x86_64")]
pub fn x86_build() -> X86Build {
    static BUILD: std::sync::OnceLock<X86Build> = std::sync::OnceLock::new();
    *BUILD.get_or_init(|| x86_build_from_env().unwrap_or_else(|_| widest_x86_build()))
}

/// The widest build this CPU runs.
#[cfg(target_arch = "x86_64")]
fn widest_x86_build() -> X86Build {
    if std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vl")
    {
        X86Build::Avx512
    } else if std::arch::is_x86_feature_detected!("avx2") {
        X86Build::Avx2
    } else {
        X86Build::Scalar
    }
}

/// The build `DP_EXPLORER_SIMD` asks for (`avx2`, `scalar`; unset or empty:
/// the widest), or why it cannot be honoured: an unknown value, or AVX2 on a
/// CPU without it. A benchmarking switch must never fall back silently, or a
/// timing would be labelled with a build that did not run.
#[cfg(target_arch = "x86_64")]
pub fn x86_build_from_env() -> Result<X86Build, String> {
    let forced = std::env::var("DP_EXPLORER_SIMD").unwrap_or_default();
    match forced.as_str() {
        "" => Ok(widest_x86_build()),
        "scalar" => Ok(X86Build::Scalar),
        "avx2" if std::arch::is_x86_feature_detected!("avx2") => Ok(X86Build::Avx2),
        "avx2" => Err("DP_EXPLORER_SIMD=avx2, but this CPU has no AVX2".into()),
        other => Err(format!(
            "DP_EXPLORER_SIMD=\"{other}\" is not a build; use avx2 or scalar (or leave it unset for the widest)"
        )),
    }
}

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

/// The helper thread of [`symmetric_lower_product_on`] (natively): one per
/// process, started at its first use, asleep between products.
#[cfg(not(target_arch = "wasm32"))]
mod second_core {
    use super::Band;
    use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
    use std::sync::{Arc, Condvar, Mutex, OnceLock};
    use std::time::{Duration, Instant};

    const POSTED: u8 = 0;
    const HELPER: u8 = 1;
    const DONE: u8 = 2;
    const CALLER: u8 = 3;

    /// A band handed over, with its stride and who took it.
    struct Posted {
        band: Band,
        ld: usize,
        state: Arc<AtomicU8>,
    }

    struct Helper {
        slot: Mutex<Option<Posted>>,
        wake: Condvar,
        /// Whether the slot holds a band (read while spinning, without the lock).
        posted: AtomicBool,
    }

    /// How long the helper spins for the next band before it sleeps: the
    /// steps' products come every few hundred µs, and a thread woken from
    /// sleep on a machine shared with other work may wait for its core
    /// longer than a product takes.
    const SPIN: Duration = Duration::from_micros(50);

    fn helper() -> Option<&'static Helper> {
        static HELPER: OnceLock<Option<&'static Helper>> = OnceLock::new();
        *HELPER.get_or_init(|| {
            let helper: &'static Helper = Box::leak(Box::new(Helper {
                slot: Mutex::new(None),
                wake: Condvar::new(),
                posted: AtomicBool::new(false),
            }));
            std::thread::Builder::new()
                .name("dp-explorer band".into())
                .spawn(move || helper.serve())
                .ok()
                .map(|_| helper)
        })
    }

    impl Helper {
        fn serve(&self) {
            loop {
                let since = Instant::now();
                while !self.posted.load(Ordering::Acquire) && since.elapsed() < SPIN {
                    std::hint::spin_loop();
                }
                let posted = {
                    let mut slot = self.slot.lock().unwrap_or_else(|e| e.into_inner());
                    loop {
                        if let Some(posted) = slot.take() {
                            self.posted.store(false, Ordering::Release);
                            break posted;
                        }
                        slot = self.wake.wait(slot).unwrap_or_else(|e| e.into_inner());
                    }
                };
                // A band its caller took back is stale: skipped.
                if posted
                    .state
                    .compare_exchange(POSTED, HELPER, Ordering::AcqRel, Ordering::Acquire)
                    .is_ok()
                {
                    // SAFETY: the caller waits for DONE before its buffers go.
                    unsafe { posted.band.run_with_stride(posted.ld) };
                    posted.state.store(DONE, Ordering::Release);
                }
            }
        }
    }

    /// Computes `other` (A's and W's leading dimension `ld`) on the helper
    /// thread and `own` on this one; `other` here too if the helper has not
    /// taken it by the time `own` is done. Returns once both are computed.
    ///
    /// # Safety
    /// Both bands' pointers must be valid for the whole call, their outputs
    /// disjoint.
    pub(super) unsafe fn run_beside(other: &Band, own: &Band, ld: usize) {
        let Some(helper) = helper() else {
            other.run_with_stride(ld);
            own.run();
            return;
        };
        let state = Arc::new(AtomicU8::new(POSTED));
        {
            let mut slot = helper.slot.lock().unwrap_or_else(|e| e.into_inner());
            *slot = Some(Posted {
                band: *other,
                ld,
                state: Arc::clone(&state),
            });
            helper.posted.store(true, Ordering::Release);
        }
        helper.wake.notify_one();
        own.run();
        if state
            .compare_exchange(POSTED, CALLER, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            other.run_with_stride(ld);
            return;
        }
        // The helper has the band: wait for it, yielding soon, since on a busy
        // machine the helper may have been woken on this thread's own core
        // (spinning 16× longer measured no better and costs that core).
        let mut spins = 0u32;
        while state.load(Ordering::Acquire) != DONE {
            if spins < 1 << 10 {
                std::hint::spin_loop();
                spins += 1;
            } else {
                std::thread::yield_now();
            }
        }
    }
}

/// y = A w on the panel's own PANEL×PANEL triangle (rows and columns
/// j0..j0 + width), scalar, in the order every build shares.
#[inline(always)]
unsafe fn symmetric_lower_diagonal_block(
    y: *mut f64,
    a: *const f64,
    lda: usize,
    w: *const f64,
    j0: usize,
    width: usize,
) {
    for j in j0..j0 + width {
        let wj = *w.add(j);
        *y.add(j) += *a.add(j * lda + j) * wj;
        for i in j + 1..j0 + width {
            let k = *a.add(j * lda + i);
            *y.add(i) += k * wj;
            *y.add(j) += k * *w.add(i);
        }
    }
}

/// Writes `unsafe fn $name<const NC: usize>(y, a, m, w)`: y_c = A w_c for NC
/// columns in one pass over A's lower triangle, with a vector type of `$width`
/// lanes and its operations. The order of the floating-point operations is the
/// same for every vector type (LANES accumulators per panel column):
/// - the panel's triangle, scalar ([`symmetric_lower_diagonal_block`]);
/// - each row i below it: t = y_i, then t += A_{i,j0+p}·w_{j0+p} for p = 0..PANEL;
/// - each panel column's dot product with w: lane l takes the rows with
///   (i − start) mod LANES = l in increasing i; the last (m − start) mod LANES rows
///   go into lane 0 after them; then y_{j0+p} += ((l0 + l1) + l2) + l3.
macro_rules! symmetric_lower_kernel {
    ($(#[$attr:meta])* $name:ident, $vector:ty, $width:expr,
     zero: $zero:expr, splat: $splat:expr, load: $load:expr, store: $store:expr,
     add: $add:expr, mul: $mul:expr) => {
        $(#[$attr])*
        unsafe fn $name<const NC: usize>(
            y: [*mut f64; NC],
            a: *const f64,
            lda: usize,
            lo: usize,
            m: usize,
            w: [*const f64; NC],
        ) {
            // Vectors per chunk of LANES rows.
            const V: usize = LANES / $width;
            for &yc in &y {
                for i in 0..m {
                    *yc.add(i) = 0.0;
                }
            }
            let mut j0 = 0;
            while j0 < m {
                let width = PANEL.min(m - j0);
                // Left of the band's rows (lo is a multiple of PANEL): the
                // panel's rows lo..m only; else its triangle, then the rows below.
                let start = if j0 < lo {
                    lo
                } else {
                    for c in 0..NC {
                        symmetric_lower_diagonal_block(y[c], a, lda, w[c], j0, width);
                    }
                    if width < PANEL {
                        break;
                    }
                    j0 + width
                };
                let mut cols = [a; PANEL];
                let mut wj: [[$vector; PANEL]; NC] = [[$zero; PANEL]; NC];
                for p in 0..PANEL {
                    cols[p] = a.add((j0 + p) * lda + start);
                    for c in 0..NC {
                        wj[c][p] = $splat(*w[c].add(j0 + p));
                    }
                }
                let mut acc: [[[$vector; V]; PANEL]; NC] = [[[$zero; V]; PANEL]; NC];
                let full = (m - start) / LANES * LANES;
                let mut off = 0;
                while off < full {
                    for v in 0..V {
                        let o = off + v * $width;
                        let mut t: [$vector; NC] = [$zero; NC];
                        let mut wc: [$vector; NC] = [$zero; NC];
                        for c in 0..NC {
                            t[c] = $load(y[c].add(start + o));
                            wc[c] = $load(w[c].add(start + o));
                        }
                        for p in 0..PANEL {
                            let k = $load(cols[p].add(o));
                            for c in 0..NC {
                                t[c] = $add(t[c], $mul(k, wj[c][p]));
                                acc[c][p][v] = $add(acc[c][p][v], $mul(k, wc[c]));
                            }
                        }
                        for c in 0..NC {
                            $store(y[c].add(start + o), t[c]);
                        }
                    }
                    off += LANES;
                }
                for c in 0..NC {
                    let mut lanes = [[0.0f64; LANES]; PANEL];
                    for p in 0..PANEL {
                        for v in 0..V {
                            $store(lanes[p].as_mut_ptr().add(v * $width), acc[c][p][v]);
                        }
                    }
                    for i in start + full..m {
                        let wi = *w[c].add(i);
                        for p in 0..PANEL {
                            let k = *cols[p].add(i - start);
                            *y[c].add(i) += k * *w[c].add(j0 + p);
                            lanes[p][0] += k * wi;
                        }
                    }
                    for p in 0..PANEL {
                        *y[c].add(j0 + p) += lanes[p].iter().sum::<f64>();
                    }
                }
                j0 += PANEL;
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{
    __m256d, _mm256_add_pd, _mm256_loadu_pd, _mm256_mul_pd, _mm256_set1_pd, _mm256_setzero_pd,
    _mm256_storeu_pd,
};

/// The x86-64 builds: 256-bit vectors of 4 lanes under the given features.
#[cfg(target_arch = "x86_64")]
macro_rules! symmetric_lower_kernel_256 {
    ($features:literal, $name:ident) => {
        symmetric_lower_kernel!(
            #[target_feature(enable = $features)]
            $name, __m256d, 4,
            zero: _mm256_setzero_pd(), splat: _mm256_set1_pd, load: _mm256_loadu_pd,
            store: _mm256_storeu_pd, add: _mm256_add_pd, mul: _mm256_mul_pd
        );
    };
}

// AVX-512VL gives the 256-bit code 32 registers: two columns per pass fit (with
// AVX2's 16 the dispatch pairs columns as well; some accumulators spill).
#[cfg(target_arch = "x86_64")]
symmetric_lower_kernel_256!("avx512f,avx512vl", symmetric_lower_avx512);
#[cfg(target_arch = "x86_64")]
symmetric_lower_kernel_256!("avx2", symmetric_lower_avx2);

// wasm: explicit simd128, two v128 per chunk of 4 rows (in a crate of its own
// V8 ran the auto-vectorised portable loop about 2× slower; in this crate's
// build the two took the same time: docs/performance.md).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use std::arch::wasm32::{f64x2_add, f64x2_mul, f64x2_splat, v128, v128_load, v128_store};

/// Completes a kernel macro's arguments (`symmetric_lower_kernel!`,
/// `gram_lower_kernel!`, after their name and vector type) with wasm's simd128
/// operations on two-lane `v128` vectors: one list for every wasm kernel.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
macro_rules! with_simd128 {
    ($kernel:ident!($($head:tt)*)) => {
        $kernel!(
            $($head)*
            zero: f64x2_splat(0.0), splat: f64x2_splat,
            load: |p: *const f64| v128_load(p as *const v128),
            store: |p: *mut f64, v: v128| v128_store(p as *mut v128, v),
            add: f64x2_add, mul: f64x2_mul
        );
    };
}

// wasm: two columns of W per pass, as natively (A read once for both). 500
// products at n = 2000, two columns, in a module of the kernel alone (node 20,
// CPU s, medians of 3 in each of several processes): one column per pass
// 0.90–1.36, two 0.74–0.82. In this crate, the paper cell
// (`run_bench("dpgd-paper-cell")`, node, alternating, 7 runs each) took
// 2.90–3.25 s of CPU (median 3.06) against 2.98–3.47 s (3.21), the products'
// self time in its profile 0.76–0.80 s against 0.85–0.89 s.
// A panel's columns in sub-passes of four (V8 has 15 xmm registers; a whole
// panel keeps 32 accumulators and 16 splats for two columns, and spills)
// measured no faster: 0.76–0.83 against 0.76–0.82 s in one sweep.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
with_simd128!(symmetric_lower_kernel!(symmetric_lower_fallback, v128, 2,));

// Anywhere else (and x86-64 without AVX2): four scalar lanes.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
symmetric_lower_kernel!(
    symmetric_lower_fallback, f64, 1,
    zero: 0.0, splat: |x: f64| x, load: |p: *const f64| *p,
    store: |p: *mut f64, v: f64| *p = v,
    add: |x: f64, y: f64| x + y, mul: |x: f64, y: f64| x * y
);

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
const GRAM_MR: usize = 4;
/// Columns of A per packed chunk (the kernel path's blocks of neurons).
const GRAM_KC: usize = 256;
/// Row panels per block (32 × 4 rows × 256 columns: 256 KB, in L2).
const GRAM_IB: usize = 32;

macro_rules! gram_lower_kernel {
    ($(#[$attr:meta])* $name:ident, $vector:ty,
     zero: $zero:expr, splat: $splat:expr, load: $load:expr, store: $store:expr,
     add: $add:expr, mul: $mul:expr) => {
        $(#[$attr])*
        fn $name(c: &mut [f64], m: usize, a: &[f64], k: usize, alpha: f64) {
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
