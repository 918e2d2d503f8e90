//! The non-private baseline θ* = Φ⁺Y (Bombari & Mondelli, eq. 3.7): the minimum-norm
//! least-squares solution, i.e. the limit of gradient flow on the unclipped loss
//! from θ = 0. For p > n it interpolates the training data.
//!
//! θ* is ill-conditioned near p = n (the double-descent peak), so it is solved
//! through the eigendecomposition of the smaller Gram matrix with a relative
//! cutoff instead of plain normal equations:
//! - p ≥ n: K = ΦΦᵀ (n×n) = Σ λ_k u_k u_kᵀ, θ* = Φᵀ Σ_{λ_k > cut} u_k (u_kᵀY)/λ_k;
//! - p < n: G = ΦᵀΦ (p×p) = Σ λ_k v_k v_kᵀ, θ* = Σ_{λ_k > cut} v_k (v_kᵀΦᵀY)/λ_k.
//!
//! The cutoff is `rcond · λ_max` with `rcond = m · f64::EPSILON` (m = size of the
//! Gram matrix): eigenvalues below it are at the rounding level of a computed
//! Gram matrix and are treated as zero (the pseudo-inverse drops them).
//!
//! Gram matrices of size m ≥ [`FAER_MIN_SIZE`] are decomposed by faer
//! (`crate::dense`): at m = 2000 nalgebra's unblocked eigensolver takes about
//! 12 s, faer's about 1.3 s (docs/performance.md). Below it nalgebra runs, so the
//! stored outputs of the small presets stay byte for byte.

use crate::linalg::{mirror_upper, symmetric_rank_update_upper};
use nalgebra::{DMatrix, DVector, SymmetricEigen};

/// Gram matrices at least this large go through faer's eigensolver.
pub const FAER_MIN_SIZE: usize = 256;

/// (eigenvalues, eigenvectors as columns) of a symmetric matrix.
fn eigen(g: DMatrix<f64>) -> (DVector<f64>, DMatrix<f64>) {
    let m = g.nrows();
    if m >= FAER_MIN_SIZE {
        if let Some((values, vectors)) = crate::dense::symmetric_eigen(g.as_slice(), m) {
            return (DVector::from_vec(values), DMatrix::from_vec(m, m, vectors));
        }
    }
    let eig = SymmetricEigen::new(g);
    (eig.eigenvalues, eig.eigenvectors)
}

/// θ* with diagnostics.
#[derive(Clone, Debug)]
pub struct MinNormSolution {
    pub theta: DVector<f64>,
    /// Number of Gram eigenvalues kept (the numerical rank of Φ).
    pub rank: usize,
    /// Smallest kept and largest Gram eigenvalue (squared singular values of Φ).
    pub lambda_min_kept: f64,
    pub lambda_max: f64,
}

impl MinNormSolution {
    /// κ(Φ)² over the kept directions.
    pub fn gram_condition(&self) -> f64 {
        self.lambda_max / self.lambda_min_kept
    }
}

/// θ* = Φ⁺Y for Φ ∈ R^{n×p}, Y ∈ R^n.
pub fn min_norm_least_squares(phi: &DMatrix<f64>, y: &DVector<f64>) -> MinNormSolution {
    let (n, p) = phi.shape();
    assert_eq!(
        y.len(),
        n,
        "min_norm_least_squares: Φ has {n} rows but Y has {}",
        y.len()
    );
    if n == 0 || p == 0 {
        return MinNormSolution {
            theta: DVector::zeros(p),
            rank: 0,
            lambda_min_kept: f64::NAN,
            lambda_max: 0.0,
        };
    }
    if p >= n {
        let k = gram_of_rows(phi);
        let eig = eigen(k);
        let (alpha, rank, lmin, lmax) = pinv_apply(&eig, y);
        let mut theta = DVector::zeros(p);
        theta.gemv_tr(1.0, phi, &alpha, 0.0);
        MinNormSolution {
            theta,
            rank,
            lambda_min_kept: lmin,
            lambda_max: lmax,
        }
    } else {
        let g = phi.transpose() * phi;
        let mut b = DVector::zeros(p);
        b.gemv_tr(1.0, phi, y, 0.0);
        let eig = eigen(g);
        let (theta, rank, lmin, lmax) = pinv_apply(&eig, &b);
        MinNormSolution {
            theta,
            rank,
            lambda_min_kept: lmin,
            lambda_max: lmax,
        }
    }
}

/// K = Φ Φᵀ (n×n) as Σ_q φ_q φ_qᵀ over the p columns of Φ (contiguous in its
/// column-major storage), upper triangle only, then mirrored: half the
/// arithmetic of the general product. In wasm it takes the DP-GD browser sweep
/// from about 3.25 to 2.9 s (node, 3 runs each); natively it is even with
/// matrixmultiply's AVX-512 product (2.2–2.5 s either way on a noisy machine).
fn gram_of_rows(phi: &DMatrix<f64>) -> DMatrix<f64> {
    let (n, p) = phi.shape();
    let mut k = vec![0.0; n * n];
    symmetric_rank_update_upper(&mut k, n, phi.as_slice(), &vec![1.0; p]);
    mirror_upper(&mut k, n);
    DMatrix::from_vec(n, n, k)
}

/// (Σ_{λ_k > cut} e_k e_kᵀ / λ_k) b, the rank, the smallest kept and largest λ.
fn pinv_apply(
    (eigenvalues, eigenvectors): &(DVector<f64>, DMatrix<f64>),
    b: &DVector<f64>,
) -> (DVector<f64>, usize, f64, f64) {
    let m = b.len();
    let lmax = eigenvalues.iter().cloned().fold(0.0_f64, f64::max);
    let cut = lmax * m as f64 * f64::EPSILON;
    let mut out = DVector::zeros(m);
    let mut rank = 0;
    let mut lmin = f64::INFINITY;
    for (k, &lambda) in eigenvalues.iter().enumerate() {
        if lambda > cut {
            let e = eigenvectors.column(k);
            let c = e.dot(b) / lambda;
            out.axpy(c, &e, 1.0);
            rank += 1;
            lmin = lmin.min(lambda);
        }
    }
    (out, rank, lmin, lmax)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(n: usize, p: usize, seed: u64) -> (DMatrix<f64>, DVector<f64>) {
        use rand_distr::{Distribution, StandardNormal};
        let mut rng = crate::rng::stream(seed, crate::rng::Purpose::Initialization, 0);
        let phi = DMatrix::from_fn(n, p, |_, _| -> f64 { StandardNormal.sample(&mut rng) });
        let y = DVector::from_fn(n, |_, _| -> f64 { StandardNormal.sample(&mut rng) });
        (phi, y)
    }

    #[test]
    fn agrees_with_the_svd_pseudo_inverse_on_both_sides_of_p_equals_n() {
        for &(n, p) in &[(12, 5), (12, 12), (12, 30)] {
            let (phi, y) = small(n, p, 7);
            let ours = min_norm_least_squares(&phi, &y).theta;
            let svd = phi.clone().svd(true, true);
            let reference = svd.solve(&y, 1e-12).unwrap();
            let err = (&ours - &reference).norm() / reference.norm();
            assert!(err < 1e-8, "n={n} p={p}: relative difference {err}");
        }
    }

    #[test]
    fn rank_deficient_features_give_the_minimum_norm_solution() {
        // Two identical columns: the min-norm solution splits the weight evenly.
        let phi = DMatrix::from_row_slice(3, 2, &[1.0, 1.0, 2.0, 2.0, -1.0, -1.0]);
        let y = DVector::from_vec(vec![2.0, 4.0, -2.0]);
        let s = min_norm_least_squares(&phi, &y);
        assert_eq!(s.rank, 1);
        assert!((s.theta[0] - 1.0).abs() < 1e-12 && (s.theta[1] - 1.0).abs() < 1e-12);
    }
}
