//! DP Riemannian gradient descent on the rank-r manifold (Zha 2024,
//! Algorithm 2) and, with no noise, non-private RGrad.
//!
//! One iteration: (U, Σ, V) = SVD_r(M_l); G_l = (1/n) Σ (⟨X_i, M_l⟩ − y_i) X_i;
//! M_{l+1} = SVD_r(M_l + P_T(−ηG_l + N_l)) with
//! P_T(Z) = UUᵀZ + ZVVᵀ − UUᵀZVVᵀ and N_l iid N(0, sd²) (the box's
//! sd = √(2 ln(1.25 l*/δ))·l*·Δ_l/ε, factor 2 included). Since M_l ∈ T_l, this is
//! post-processing of the Gaussian mechanism on M_l − ηP_T(G_l).
//!
//! Clipped variant (this project's extension): each sample's tangent gradient
//! P_T((⟨X_i, M_l⟩ − y_i) X_i) is scaled to Frobenius norm ≤ τ, so one sample
//! moves η·(1/n)Σ by at most 2ητ/n whatever the data.

use super::dp_spectral_init::LowRank;
use crate::data::trace_regression::TraceData;
use crate::linalg::{from_factors, truncated_svd};
use crate::privacy::gaussian::add_gaussian_noise;
use crate::rng::NoiseSource;
use nalgebra::DMatrix;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RGradParams {
    pub eta: f64,
    /// l*.
    pub iterations: usize,
    /// sd of N_l's entries (0: non-private RGrad).
    pub noise_sd: f64,
    /// τ of the clipped variant (None: the paper's gradient).
    pub clip: Option<f64>,
}

/// P_T(Z) at the point with factors U (d1×r), V (d2×r).
pub fn tangent_projection(z: &DMatrix<f64>, u: &DMatrix<f64>, v: &DMatrix<f64>) -> DMatrix<f64> {
    let uz = u * (u.transpose() * z);
    let zv = (z * v) * v.transpose();
    let uzv = u * ((u.transpose() * z) * v) * v.transpose();
    uz + zv - uzv
}

/// The tangent gradient the step uses: P_T(G) (the paper's), or the mean of
/// the clipped per-sample tangent gradients (None: no samples to clip).
pub fn step_gradient(
    data: &TraceData,
    m: &DMatrix<f64>,
    u: &DMatrix<f64>,
    v: &DMatrix<f64>,
    clip: Option<f64>,
) -> Option<DMatrix<f64>> {
    match clip {
        None => Some(tangent_projection(&data.gradient(m), u, v)),
        Some(tau) => clipped_tangent_gradient(data, m, u, v, tau),
    }
}

/// (1/n) Σ_i clip(P_T((⟨X_i, M⟩ − y_i) X_i), τ): the clipped tangent gradient.
fn clipped_tangent_gradient(
    data: &TraceData,
    m: &DMatrix<f64>,
    u: &DMatrix<f64>,
    v: &DMatrix<f64>,
    tau: f64,
) -> Option<DMatrix<f64>> {
    let TraceData::Direct { x, y } = data else {
        return None;
    };
    let (d1, d2) = (m.nrows(), m.ncols());
    let p = d1 * d2;
    let mv = m.as_slice();
    let mut sum = DMatrix::<f64>::zeros(d1, d2);
    for (row, yi) in x.chunks_exact(p).zip(y) {
        let r = row.iter().zip(mv).map(|(a, b)| a * b).sum::<f64>() - yi;
        let xi = DMatrix::from_column_slice(d1, d2, row);
        let g = tangent_projection(&(xi * r), u, v);
        let norm = g.norm();
        let scale = if norm > tau { tau / norm } else { 1.0 };
        sum += g * scale;
    }
    Some(sum / y.len().max(1) as f64)
}

/// A run of Algorithm 2 as a state machine: `step()` is one iteration.
#[derive(Clone, Debug)]
pub struct RGrad {
    params: RGradParams,
    estimate: LowRank,
    v: DMatrix<f64>,
    s: Vec<f64>,
    iteration: usize,
    noise: NoiseSource,
    /// The last iteration's Gaussian release P_T(−ηG_l + N_l) (d1×d2).
    released: DMatrix<f64>,
}

impl RGrad {
    pub fn new(start: &DMatrix<f64>, r: usize, params: RGradParams, noise: NoiseSource) -> Self {
        let (u, s, v) = truncated_svd(start, r);
        RGrad {
            params,
            estimate: LowRank {
                m: from_factors(&u, &s, &v),
                u,
            },
            v,
            s,
            iteration: 0,
            noise,
            released: DMatrix::zeros(0, 0),
        }
    }

    /// V of the current iterate (d2×r; U is in [`estimate`](Self::estimate)).
    pub fn v(&self) -> &DMatrix<f64> {
        &self.v
    }

    /// The last iteration's release P_T(−ηG_l + N_l): the Gaussian
    /// mechanism's output (the retraction is post-processing). An audit's
    /// white-box attacker sees this.
    pub fn last_release(&self) -> &DMatrix<f64> {
        &self.released
    }

    pub fn is_done(&self) -> bool {
        self.iteration >= self.params.iterations
    }

    pub fn estimate(&self) -> &LowRank {
        &self.estimate
    }

    /// One iteration; None when the clipped variant has no samples to clip.
    pub fn step(&mut self, data: &TraceData) -> Option<()> {
        if self.is_done() {
            return Some(());
        }
        let (u, v) = (&self.estimate.u, &self.v);
        let m = &self.estimate.m;
        let mut z = step_gradient(data, m, u, v, self.params.clip)? * (-self.params.eta);
        if self.params.noise_sd > 0.0 {
            let mut rng = self.noise.release(self.iteration as u64);
            let mut n = DMatrix::<f64>::zeros(m.nrows(), m.ncols());
            add_gaussian_noise(n.as_mut_slice(), self.params.noise_sd, &mut rng);
            z += n;
        }
        let release = tangent_projection(&z, u, v);
        let moved = m + &release;
        self.released = release;
        let (u, s, v) = truncated_svd(&moved, self.s.len());
        self.estimate = LowRank {
            m: from_factors(&u, &s, &v),
            u,
        };
        self.v = v;
        self.s = s;
        self.iteration += 1;
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Replacing one sample by anything moves η·(clipped mean tangent
    /// gradient) by at most 2ητ/n: the clipped variant's sensitivity.
    #[test]
    fn one_sample_moves_the_clipped_step_by_at_most_its_bound() {
        use crate::data::trace_regression::TraceModel;
        let (t, data) = TraceModel::rank_two(4, 3, 0.5, 40, 3).truth_and_direct_data();
        let (u, s, v) = truncated_svd(&(t.m.clone() * 0.7), 2);
        let m = from_factors(&u, &s, &v);
        let tau = 0.5;
        let base = clipped_tangent_gradient(&data, &m, &u, &v, tau).unwrap();
        let mut largest: f64 = 0.0;
        for (scale, label) in [(1e5, 1e8), (-2.0, 0.0), (0.0, 3.0)] {
            let TraceData::Direct { mut x, mut y } = data.clone() else {
                unreachable!()
            };
            for a in x[..12].iter_mut() {
                *a *= scale;
            }
            y[0] = label;
            let other =
                clipped_tangent_gradient(&TraceData::Direct { x, y }, &m, &u, &v, tau).unwrap();
            largest = largest.max((&base - other).norm());
        }
        assert!(largest <= 2.0 * tau / 40.0 * (1.0 + 1e-12), "{largest}");
    }

    #[test]
    fn the_tangent_projection_is_a_projection_that_keeps_the_point() {
        let u = crate::linalg::orthonormalize(DMatrix::from_fn(5, 2, |i, j| {
            ((i * 3 + j) as f64).sin()
        }));
        let v = crate::linalg::orthonormalize(DMatrix::from_fn(4, 2, |i, j| {
            ((i + 5 * j) as f64).cos()
        }));
        let z = DMatrix::from_fn(5, 4, |i, j| (i as f64 - 2.0 * j as f64).tanh());
        let pz = tangent_projection(&z, &u, &v);
        assert!((tangent_projection(&pz, &u, &v) - &pz).norm() < 1e-12);
        let m = &u * DMatrix::from_row_slice(2, 2, &[2.0, 0.3, -0.1, 1.0]) * v.transpose();
        assert!((tangent_projection(&m, &u, &v) - &m).norm() < 1e-12);
    }
}
