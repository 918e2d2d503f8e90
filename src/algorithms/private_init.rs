//! Algorithm 2 of Snedeker et al. (private initialization, after Duchi et al.
//! 2022): each user sends Z_i = c · Σ_{j1≠j2} y_{j1} y_{j2} x_{j1} x_{j2}ᵀ over its
//! S⁰ points; the server averages the Frobenius-clipped Z_i, adds a d×d Gaussian
//! matrix, and returns the top-k eigenvectors. Without clipping and noise it is
//! the non-private spectral estimator of the authors' code.
//!
//! The average does not depend on ε, so it is computed once per dataset and
//! [`spectral_init`] adds each ε point's own noise to it.

use crate::data::shared_representation::{FederatedDataset, Part};
use crate::linalg::{dot, mirror_upper, symmetric_rank_update_upper, top_k_eigenvectors};
use crate::privacy::clipping::clip_factor;
use crate::privacy::gaussian::add_gaussian_noise;
use nalgebra::DMatrix;
use rand::Rng;
use serde::{Deserialize, Serialize};

/// The constant c in front of the pair sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum PairNormalization {
    /// 1/(m'(m'−1)) with m' = |S⁰|: makes E[Z_i] = w_i* w_i*ᵀ, which the proof
    /// needs (proof of Lemma 12; docs/algorithms.md, Private initialization) and the authors' code uses.
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

/// One range of users' part of the statistic: Σ clip(Z_i)/n over the range
/// (upper triangle, row-major d×d) and how many of its users were clipped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StatisticPartial {
    pub upper: Vec<f64>,
    pub clipped: usize,
}

/// (1/n) Σ_i clip(Z_i, ψ) with Z_i = c·(s_i s_iᵀ − Σ_j a_j a_jᵀ), a_j = y_j x_j,
/// s_i = Σ_j a_j (the pair sum over j1 ≠ j2 in closed form: s sᵀ − Σ y² x xᵀ).
/// ‖Z_i‖_F comes from the Gram matrix G = A Aᵀ of the a_j:
/// ‖s sᵀ − AᵀA‖²_F = (1ᵀG1)² − 2·1ᵀG²1 + ‖G‖²_F, so no d×d matrix is formed per
/// user; each user's m'+1 weighted rank-one terms go straight into the upper
/// triangle of the sum (Z_i is symmetric).
pub fn spectral_statistic(
    data: &FederatedDataset,
    clip: Option<f64>,
    normalization: PairNormalization,
) -> SpectralStatistic {
    let mut acc = SpectralAccumulator::new(data, clip, normalization);
    acc.add_users(data, 0..data.n());
    acc.finish()
}

/// [`spectral_statistic`] in pieces: users are added range by range, in order,
/// and any split into ranges gives exactly the one-pass numbers (each user's
/// terms are added to the sum on their own), so a runner can bound the time
/// of each step at any n. A range can also be summed on its own
/// ([`into_partial`](Self::into_partial)) and its partial added later
/// ([`add_partial`](Self::add_partial)): then the result depends on where the
/// ranges start and end (floating-point addition is not associative), never on
/// which worker summed each range.
#[derive(Clone, Debug)]
pub struct SpectralAccumulator {
    n: usize,
    d: usize,
    clip: Option<f64>,
    c: f64,
    /// Upper triangle of Σ_i clip(Z_i)/n, row-major d×d.
    upper: Vec<f64>,
    clipped: usize,
    gram: Vec<f64>,
    /// One user's rank-one terms: rows s_i, a_1, …, a_m' (weighted).
    terms: Vec<f64>,
    /// Their signs: +1 for s_i s_iᵀ, −1 for each a_j a_jᵀ.
    signs: Vec<f64>,
}

impl SpectralAccumulator {
    pub fn new(
        data: &FederatedDataset,
        clip: Option<f64>,
        normalization: PairNormalization,
    ) -> Self {
        let d = data.d();
        let mt = data.model.m_train;
        let mut signs = vec![-1.0; mt + 1];
        signs[0] = 1.0;
        SpectralAccumulator {
            n: data.n(),
            d,
            clip,
            c: normalization.factor(mt, data.model.m),
            upper: vec![0.0; d * d],
            clipped: 0,
            gram: vec![0.0; mt * mt],
            terms: vec![0.0; (mt + 1) * d],
            signs,
        }
    }

    /// The sum over the users added so far, to be added to another
    /// accumulator with [`add_partial`](Self::add_partial).
    pub fn into_partial(self) -> StatisticPartial {
        StatisticPartial {
            upper: self.upper,
            clipped: self.clipped,
        }
    }

    /// Adds a range's partial (ranges added in user order). Into an empty
    /// accumulator this is exact (0 + x = x), so one range gives the one-pass
    /// numbers.
    pub fn add_partial(&mut self, partial: &StatisticPartial) {
        for (s, p) in self.upper.iter_mut().zip(&partial.upper) {
            *s += p;
        }
        self.clipped += partial.clipped;
    }

    /// The average over all n users, once every user has been added.
    pub fn finish(mut self) -> SpectralStatistic {
        mirror_upper(&mut self.upper, self.d);
        SpectralStatistic {
            mean: DMatrix::from_row_slice(self.d, self.d, &self.upper),
            clipped_fraction: self.clipped as f64 / self.n as f64,
        }
    }

    pub fn add_users(&mut self, data: &FederatedDataset, users: std::ops::Range<usize>) {
        let (n, d) = (data.n(), data.d());
        let mt = data.model.m_train;
        let (c, clip) = (self.c, self.clip);
        let SpectralAccumulator {
            upper,
            clipped,
            gram,
            terms,
            signs,
            ..
        } = self;
        data.for_each_user(users, Part::Train, |user| {
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
            // Each term is scaled by √(c·factor/n), so its outer product carries
            // the user's clipped weight c·factor/n.
            let weight = (c * factor / n as f64).sqrt();
            let (s, a) = terms.split_at_mut(d);
            s.fill(0.0);
            for (j, aj) in a.chunks_exact_mut(d).enumerate() {
                let scale = weight * pts.y[j];
                for ((ap, sp), xp) in aj
                    .iter_mut()
                    .zip(s.iter_mut())
                    .zip(&pts.x[j * d..(j + 1) * d])
                {
                    *ap = xp * scale;
                    *sp += *ap;
                }
            }
            symmetric_rank_update_upper(upper, d, terms, signs);
        });
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
    let mut z = stat.mean.clone();
    add_gaussian_noise(z.as_mut_slice(), sigma, rng);
    let sym = (&z + z.transpose()) * 0.5;
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
        acc.add_users(&data, 0..300);
        acc.add_users(&data, 300..301);
        acc.add_users(&data, 301..1500);
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
