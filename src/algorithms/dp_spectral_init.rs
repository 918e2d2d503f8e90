//! Private initialization for low-rank trace regression (Zha 2024,
//! Algorithm 1), its non-private spectral estimator, and this project's
//! clipped variant.
//!
//! Algorithm 1: L̂ = (1/n) Σ y_i X_i (line 1, Λ_i = I); (Û, V̂) = SVD_r(L̂);
//! Ũ = the top-r eigenvectors of ÛÛᵀ + E_U and Ṽ of V̂V̂ᵀ + E_V, with E_U, E_V
//! symmetric (iid N(0, s₁²) on and above the diagonal, mirrored; the box's
//! "(E_V)_ij = (E_U)_ji" is a typo: E_V is drawn on its own); the core
//! Σ̃ = ŨᵀL̂Ṽ + E_Σ with **iid** N(0, s₂²) entries on all r² (the box's
//! symmetric E_Σ would leave A_ij − A_ji unprotected; App. A.3 uses iid);
//! M̃₀ = ŨΣ̃Ṽᵀ. Without noise: M̂₀ = ÛÛᵀL̂V̂V̂ᵀ = SVD_r(L̂).
//!
//! Clipped variant (this project's extension, labelled so): each sample's
//! y_i clipped to [−τ_y, τ_y] and X_i scaled to ‖X_i‖_F ≤ τ_x, so one sample
//! moves L̂ by at most 2τ_yτ_x/n whatever the data; L̂ is released with iid
//! Gaussian noise and M̃₀ = SVD_r of it (post-processing).

use crate::data::trace_regression::TraceData;
use crate::linalg::{from_factors, top_k_eigenvectors, truncated_svd};
use crate::privacy::gaussian::add_gaussian_noise;
use nalgebra::DMatrix;
use rand::{Rng, RngExt};
use rand_distr::StandardNormal;

/// A rank-r estimate with its factors.
#[derive(Clone, Debug)]
pub struct LowRank {
    pub m: DMatrix<f64>,
    /// Left singular vectors (d1×r).
    pub u: DMatrix<f64>,
}

impl LowRank {
    pub fn from_matrix(m: DMatrix<f64>, r: usize) -> Self {
        let (u, s, v) = truncated_svd(&m, r);
        LowRank {
            m: from_factors(&u, &s, &v),
            u,
        }
    }
}

/// A symmetric d×d matrix with iid N(0, s²) entries on and above the diagonal.
pub fn symmetric_gaussian(d: usize, s: f64, rng: &mut impl Rng) -> DMatrix<f64> {
    let mut e = DMatrix::zeros(d, d);
    for j in 0..d {
        for i in 0..=j {
            let z: f64 = rng.sample(StandardNormal);
            e[(i, j)] = s * z;
            e[(j, i)] = s * z;
        }
    }
    e
}

/// SVD_r(L̂): the non-private spectral estimator.
pub fn spectral_estimate(l_hat: &DMatrix<f64>, r: usize) -> LowRank {
    LowRank::from_matrix(l_hat.clone(), r)
}

/// Algorithm 1 with projector noise s₁ and core noise s₂.
pub fn dp_spectral_init(
    l_hat: &DMatrix<f64>,
    r: usize,
    s1: f64,
    s2: f64,
    rng: &mut impl Rng,
) -> LowRank {
    let (d1, d2) = (l_hat.nrows(), l_hat.ncols());
    let (u_hat, _, v_hat) = truncated_svd(l_hat, r);
    let pu = &u_hat * u_hat.transpose() + symmetric_gaussian(d1, s1, rng);
    let pv = &v_hat * v_hat.transpose() + symmetric_gaussian(d2, s1, rng);
    let u = top_k_eigenvectors(pu, r);
    let v = top_k_eigenvectors(pv, r);
    let mut core = u.transpose() * l_hat * &v;
    add_gaussian_noise(core.as_mut_slice(), s2, rng);
    // M̃₀ = Ũ Σ̃ Ṽᵀ; its left factor for the subspace error is Ũ P with svd(Σ̃) = P S Qᵀ.
    let m = &u * core * v.transpose();
    LowRank::from_matrix(m, r)
}

/// (1/n) Σ clip(y_i, τ_y) · X_i·min(1, τ_x/‖X_i‖_F): L̂ with every sample's
/// contribution bounded by τ_yτ_x in Frobenius norm. Needs the samples.
pub fn clipped_l_hat(
    data: &TraceData,
    d1: usize,
    d2: usize,
    clip_y: f64,
    clip_x: f64,
) -> Option<DMatrix<f64>> {
    let TraceData::Direct { x, y } = data else {
        return None;
    };
    let p = d1 * d2;
    let mut out = vec![0.0; p];
    for (row, &yi) in x.chunks_exact(p).zip(y) {
        let norm = row.iter().map(|a| a * a).sum::<f64>().sqrt();
        let scale = if norm > clip_x { clip_x / norm } else { 1.0 };
        let c = yi.clamp(-clip_y, clip_y) * scale;
        for (o, a) in out.iter_mut().zip(row) {
            *o += c * a;
        }
    }
    Some(DMatrix::from_vec(d1, d2, out) / y.len().max(1) as f64)
}

/// The clipped variant: SVD_r(clipped L̂ + N(0, s²) iid).
pub fn clipped_init(clipped: &DMatrix<f64>, r: usize, s: f64, rng: &mut impl Rng) -> LowRank {
    let mut noisy = clipped.clone();
    add_gaussian_noise(noisy.as_mut_slice(), s, rng);
    LowRank::from_matrix(noisy, r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::trace_regression::{DataPath, TraceModel};
    use crate::rng::{stream, Purpose};

    /// Replacing one sample by anything moves the clipped L̂ by at most
    /// 2τ_yτ_x/n: the sensitivity the accountant is given.
    #[test]
    fn one_sample_moves_the_clipped_l_hat_by_at_most_its_bound() {
        let (_, data) = TraceModel::rank_two(4, 3, 0.5, 50, 1).truth_and_direct_data();
        let (cy, cx) = (2.0, 3.0);
        let base = clipped_l_hat(&data, 4, 3, cy, cx).unwrap();
        let bound = 2.0 * cy * cx / 50.0;
        let mut largest: f64 = 0.0;
        for (scale, label) in [(1e6, 1e9), (-3.0, -1e3), (0.0, 0.0), (1e-3, 5.0)] {
            let TraceData::Direct { mut x, mut y } = data.clone() else {
                unreachable!()
            };
            for v in x[..12].iter_mut() {
                *v *= scale;
            }
            y[0] = label;
            let other = clipped_l_hat(&TraceData::Direct { x, y }, 4, 3, cy, cx).unwrap();
            largest = largest.max((&base - other).norm());
        }
        assert!(largest <= bound * (1.0 + 1e-12), "{largest} > {bound}");
        assert!(largest > 0.4 * bound, "the clip binds here: {largest}");
    }

    #[test]
    fn without_noise_the_private_init_is_the_spectral_estimate() {
        let model = TraceModel::rank_two(6, 5, 0.1, 2000, 2);
        let t = model.truth();
        let l = model.generate(&t, DataPath::Sufficient).l_hat(6, 5);
        let a = spectral_estimate(&l, 2);
        let b = dp_spectral_init(&l, 2, 0.0, 0.0, &mut stream(1, Purpose::MechanismNoise, 0));
        assert!((a.m - b.m).norm() < 1e-10);
    }
}
