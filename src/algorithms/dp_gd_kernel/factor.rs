//! How the kernel path factors K = ΦΦᵀ (module docs of [`super`]): a noise root R with
//! RRᵀ = K, to draw the images Φξ_t = R z_t of the noise, and the pseudo-inverse K⁺, for the
//! conditional draw of θ̃ and the min-norm baseline α = K⁺Y (Bombari & Mondelli, eq. 3.7).

use crate::dense;

/// Whether K is factored by Cholesky (p ≥ 1.5n, where K is safely positive
/// definite) rather than by its eigendecomposition.
pub fn factors_by_cholesky(n: usize, p: usize) -> bool {
    2 * p >= 3 * n
}

/// How K is factored: the noise root R (RRᵀ = K) and K⁺.
pub(super) enum Factor {
    /// K = L Lᵀ: R = L (lower triangular), K⁻¹ by two triangular solves.
    Cholesky(dense::Cholesky),
    /// K = U Λ Uᵀ (λ clamped at 0): R = U Λ^{1/2}, K⁺ = U Λ⁺ Uᵀ with the
    /// eigenvalues below `cut` dropped.
    Eigen {
        lambda: Vec<f64>,
        u: Vec<f64>,
        root: Vec<f64>,
        cut: f64,
    },
}

impl Factor {
    /// Factors K (n×n, both triangles filled) at width p: Cholesky when
    /// [`factors_by_cholesky`] and it succeeds, else the eigendecomposition; with the
    /// numerical rank of Φ (the eigenvalues K⁺ keeps). An error when the
    /// eigendecomposition does not converge.
    pub(super) fn of(k: &[f64], n: usize, p: usize) -> Result<(Factor, usize), String> {
        let cholesky = if factors_by_cholesky(n, p) {
            dense::Cholesky::new(k, n)
        } else {
            None
        };
        match cholesky {
            Some(c) => Ok((Factor::Cholesky(c), n)),
            None => {
                let Some((lambda, u)) = dense::symmetric_eigen(k, n) else {
                    return Err(format!(
                        "the eigendecomposition of K = ΦΦᵀ did not converge at p = {p}"
                    ));
                };
                let lambda: Vec<f64> = lambda.into_iter().map(|l| l.max(0.0)).collect();
                let lmax = lambda.iter().copied().fold(0.0, f64::max);
                // The cutoff of `min_norm`: eigenvalues at the rounding level of a
                // computed Gram matrix are zero for the pseudo-inverse.
                let cut = lmax * n as f64 * f64::EPSILON;
                let mut root = u.clone();
                for (j, &l) in lambda.iter().enumerate() {
                    let s = l.sqrt();
                    root[j * n..(j + 1) * n].iter_mut().for_each(|x| *x *= s);
                }
                let rank = lambda.iter().filter(|&&l| l > cut).count();
                Ok((
                    Factor::Eigen {
                        lambda,
                        u,
                        root,
                        cut,
                    },
                    rank,
                ))
            }
        }
    }

    /// K⁺x (K⁻¹x when K was factored by Cholesky).
    pub(super) fn pinv_apply(&self, x: &[f64], n: usize) -> Vec<f64> {
        match self {
            Factor::Cholesky(c) => {
                let mut out = x.to_vec();
                c.solve_in_place(&mut out);
                out
            }
            Factor::Eigen { lambda, u, cut, .. } => {
                let mut h = vec![0.0; n];
                dense::gemm(&mut h, n, 1, dense::Left::Transposed(u), n, x, 1.0, false);
                for (hk, &l) in h.iter_mut().zip(lambda) {
                    *hk = if l > *cut { *hk / l } else { 0.0 };
                }
                let mut out = vec![0.0; n];
                dense::gemm(&mut out, n, 1, u, n, &h, 1.0, false);
                out
            }
        }
    }

    /// out (n×b) = R z (b columns): the noise images Φξ of standard normals z.
    pub(super) fn root_mul(&self, z: &[f64], n: usize, b: usize, out: &mut [f64]) {
        match self {
            Factor::Cholesky(c) => dense::trmm_lower(out, n, b, c.lower(), z, 1.0),
            Factor::Eigen { root, .. } => dense::gemm(out, n, b, root, n, z, 1.0, false),
        }
    }
}
