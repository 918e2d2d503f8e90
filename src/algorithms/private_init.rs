//! Algorithm 2 of Snedeker et al. (private initialization, after Duchi et al.
//! 2022): each user sends Z_i = c · Σ_{j1≠j2} y_{j1} y_{j2} x_{j1} x_{j2}ᵀ over its
//! S⁰ points; the server averages the Frobenius-clipped Z_i, adds a d×d Gaussian
//! matrix, and returns the top-k eigenvectors. Without clipping and noise it is
//! the non-private spectral estimator of the authors' code.
//!
//! The average does not depend on ε, so it is computed once per dataset and
//! [`spectral_init`] adds each ε point's own noise to it.

use crate::data::shared_representation::{FederatedDataset, Part};
use crate::linalg::{dot, top_k_eigenvectors};
use crate::privacy::clipping::clip_factor;
use nalgebra::DMatrix;
use rand::{Rng, RngExt};
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};

/// The constant c in front of the pair sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum PairNormalization {
    /// 1/(m'(m'−1)) with m' = |S⁰|: makes E[Z_i] = w_i* w_i*ᵀ, which the proof
    /// needs (spec §3) and the authors' code uses.
    #[default]
    Unbiased,
    /// 2/(m(m−1)) with m the user's full point count, as printed in Alg. 2 line 4.
    Printed,
}

impl PairNormalization {
    pub fn factor(self, m_train: usize, m: usize) -> f64 {
        match self {
            PairNormalization::Unbiased => 1.0 / (m_train as f64 * (m_train as f64 - 1.0)),
            PairNormalization::Printed => 2.0 / (m as f64 * (m as f64 - 1.0)),
        }
    }
}

/// The averaged statistic (1/n) Σ_i clip(Z_i, ψ_init) (or unclipped).
#[derive(Clone, Debug)]
pub struct SpectralStatistic {
    pub mean: DMatrix<f64>,
    /// Fraction of users whose Z_i was scaled down by the clip.
    pub clipped_fraction: f64,
}

/// Users per block in the accumulation: large enough for fast matrix products,
/// small enough to keep the block in cache-friendly memory.
const BLOCK_USERS: usize = 512;

/// (1/n) Σ_i clip(Z_i, ψ) with Z_i = c·(s_i s_iᵀ − Σ_j a_j a_jᵀ), a_j = y_j x_j,
/// s_i = Σ_j a_j (the pair sum over j1 ≠ j2 in closed form, spec §3 [D]).
/// ‖Z_i‖_F comes from the Gram matrix G = A Aᵀ of the a_j:
/// ‖s sᵀ − AᵀA‖²_F = (1ᵀG1)² − 2·1ᵀG²1 + ‖G‖²_F, so no d×d matrix is formed per
/// user; the weighted sums are accumulated blockwise as PᵀP − QᵀQ.
pub fn spectral_statistic(
    data: &FederatedDataset,
    clip: Option<f64>,
    normalization: PairNormalization,
) -> SpectralStatistic {
    let mut acc = SpectralAccumulator::new(data, clip, normalization);
    acc.add_users(data, 0..data.n());
    acc.finish()
}

/// [`spectral_statistic`] in pieces: users are added range by range (ranges
/// that start at multiples of 512 users give exactly the one-pass numbers), so
/// a runner can bound the time of each step at any n.
#[derive(Clone, Debug)]
pub struct SpectralAccumulator {
    n: usize,
    clip: Option<f64>,
    c: f64,
    mean: DMatrix<f64>,
    clipped: usize,
    gram: Vec<f64>,
    p_block: DMatrix<f64>,
    q_block: DMatrix<f64>,
}

impl SpectralAccumulator {
    pub fn new(
        data: &FederatedDataset,
        clip: Option<f64>,
        normalization: PairNormalization,
    ) -> Self {
        let d = data.d();
        let mt = data.model.m_train;
        SpectralAccumulator {
            n: data.n(),
            clip,
            c: normalization.factor(mt, data.model.m),
            mean: DMatrix::<f64>::zeros(d, d),
            clipped: 0,
            gram: vec![0.0; mt * mt],
            p_block: DMatrix::<f64>::zeros(BLOCK_USERS, d),
            q_block: DMatrix::<f64>::zeros(BLOCK_USERS * mt, d),
        }
    }

    /// The average over all n users, once every user has been added.
    pub fn finish(self) -> SpectralStatistic {
        SpectralStatistic {
            mean: self.mean,
            clipped_fraction: self.clipped as f64 / self.n as f64,
        }
    }

    pub fn add_users(&mut self, data: &FederatedDataset, users: std::ops::Range<usize>) {
        let (n, d) = (data.n(), data.d());
        let mt = data.model.m_train;
        let (c, clip) = (self.c, self.clip);
        let SpectralAccumulator {
            mean,
            clipped,
            gram,
            p_block,
            q_block,
            ..
        } = self;
        let mut start = users.start;
        while start < users.end {
            let end = (start + BLOCK_USERS).min(users.end);
            let rows = end - start;
            p_block.fill(0.0);
            q_block.fill(0.0);
            data.for_each_user(start..end, Part::Train, |user| {
                let pts = user.train;
                // Gram matrix of a_j = y_j x_j.
                for j1 in 0..mt {
                    for j2 in 0..=j1 {
                        let g = dot(&pts.x[j1 * d..(j1 + 1) * d], &pts.x[j2 * d..(j2 + 1) * d])
                            * pts.y[j1]
                            * pts.y[j2];
                        gram[j1 * mt + j2] = g;
                        gram[j2 * mt + j1] = g;
                    }
                }
                let total: f64 = gram.iter().sum();
                let g2: f64 = (0..mt)
                    .map(|j| gram[j * mt..(j + 1) * mt].iter().sum::<f64>().powi(2))
                    .sum();
                let gf: f64 = gram.iter().map(|g| g * g).sum();
                let norm = c * (total * total - 2.0 * g2 + gf).max(0.0).sqrt();
                let factor = match clip {
                    Some(psi) => clip_factor(norm, psi),
                    None => 1.0,
                };
                if factor < 1.0 {
                    *clipped += 1;
                }
                let weight = (c * factor / n as f64).sqrt();
                let r = user.index - start;
                for j in 0..mt {
                    let a = weight * pts.y[j];
                    for p in 0..d {
                        let xv = pts.x[j * d + p] * a;
                        p_block[(r, p)] += xv;
                        q_block[(r * mt + j, p)] = xv;
                    }
                }
            });
            let p = p_block.rows(0, rows);
            let q = q_block.rows(0, rows * mt);
            // Pᵀ·P through the blocked matrix product (gemm), which is much faster
            // than gemm_tr's column-by-column dot products.
            let (pt, qt) = (p.transpose(), q.transpose());
            mean.gemm(1.0, &pt, &p, 1.0);
            mean.gemm(-1.0, &qt, &q, 1.0);
            start = end;
        }
    }
}

/// Alg. 2 lines 6–7: Ẑ = mean + ξ_init with ξ_init ~ N^{d×d}(0, σ²), symmetrized
/// (free post-processing; ξ_init itself is not symmetric), then the top-k
/// eigenvectors. σ = 0 gives the non-private spectral initialization.
pub fn spectral_init(
    stat: &SpectralStatistic,
    sigma: f64,
    k: usize,
    rng: &mut impl Rng,
) -> DMatrix<f64> {
    let d = stat.mean.nrows();
    let mut z = stat.mean.clone();
    if sigma > 0.0 {
        for v in z.iter_mut() {
            *v += sigma * rng.sample::<f64, _>(StandardNormal);
        }
    }
    let sym = (&z + z.transpose()) * 0.5;
    let _ = d;
    top_k_eigenvectors(sym, k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::shared_representation::SharedRepresentationModel;
    use crate::metrics::principal_angle_distance;

    fn data(n: usize, m: usize) -> FederatedDataset {
        SharedRepresentationModel {
            n,
            d: 8,
            k: 2,
            m,
            m_train: m / 2,
            noise: 0.01,
            unit_heads: false,
            seed: 3,
        }
        .generate()
    }

    /// Z_i by its definition: c·Σ over ordered pairs j1 ≠ j2.
    fn z_by_definition(data: &FederatedDataset, i: usize, c: f64) -> DMatrix<f64> {
        let d = data.d();
        let pts = data.train(i);
        let mut z = DMatrix::zeros(d, d);
        for j1 in 0..pts.len() {
            for j2 in 0..pts.len() {
                if j1 != j2 {
                    let a = DMatrix::from_row_slice(d, 1, &pts.x[j1 * d..(j1 + 1) * d]) * pts.y[j1];
                    let b = DMatrix::from_row_slice(d, 1, &pts.x[j2 * d..(j2 + 1) * d]) * pts.y[j2];
                    z += c * a * b.transpose();
                }
            }
        }
        z
    }

    #[test]
    fn the_blockwise_statistic_equals_the_pair_sum_of_its_definition() {
        let data = data(7, 8);
        let c = PairNormalization::Unbiased.factor(4, 8);
        let mut expected = DMatrix::zeros(8, 8);
        for i in 0..7 {
            expected += z_by_definition(&data, i, c) / 7.0;
        }
        let stat = spectral_statistic(&data, None, PairNormalization::Unbiased);
        assert!((stat.mean - expected).norm() < 1e-12);
    }

    #[test]
    fn adding_users_in_pieces_gives_exactly_the_one_pass_statistic() {
        let data = data(1500, 8);
        let one = spectral_statistic(&data, Some(0.5), PairNormalization::Unbiased);
        let mut acc = SpectralAccumulator::new(&data, Some(0.5), PairNormalization::Unbiased);
        acc.add_users(&data, 0..512);
        acc.add_users(&data, 512..1024);
        acc.add_users(&data, 1024..1500);
        let pieces = acc.finish();
        assert_eq!(one.mean, pieces.mean);
        assert_eq!(one.clipped_fraction, pieces.clipped_fraction);
    }

    #[test]
    fn clipping_scales_each_user_to_the_clip_norm() {
        let data = data(5, 8);
        let c = PairNormalization::Unbiased.factor(4, 8);
        let psi = 0.5;
        let mut expected = DMatrix::zeros(8, 8);
        for i in 0..5 {
            let z = z_by_definition(&data, i, c);
            let f = clip_factor(z.norm(), psi);
            expected += z * f / 5.0;
        }
        let stat = spectral_statistic(&data, Some(psi), PairNormalization::Unbiased);
        assert!((stat.mean - expected).norm() < 1e-12);
        assert!(stat.clipped_fraction > 0.0);
    }

    #[test]
    fn non_private_spectral_init_finds_the_subspace_with_many_users() {
        let data = data(4000, 10);
        let stat = spectral_statistic(&data, None, PairNormalization::Unbiased);
        let u = spectral_init(
            &stat,
            0.0,
            2,
            &mut crate::rng::stream(1, crate::rng::Purpose::MechanismNoise, 0),
        );
        let dist = principal_angle_distance(&u, &data.u_star);
        assert!(dist < 0.35, "dist = {dist}");
    }
}
