//! FLUTE's linear model (Liu, Shen & Yang, ICML 2024, §3 and App. C.1):
//! M clients, client i's regressor φ_i is the i-th column of Φ ∈ R^{d×M};
//! x ~ N(0, I_d), y = φ_iᵀx + ξ with ξ ~ N(0, σ²), N samples per client.
//! The model is under-parameterized when rank Φ = r > k: no d×k B and k×M W
//! give BW = Φ, and the target is the rank-k truncation U_k Λ_k V_kᵀ
//! (Eckart–Young, §3).
//!
//! Φ is drawn one of three ways:
//! - `decaying` (App. C.1): Φ = U Λ V with U a Haar d×r matrix with orthonormal
//!   columns, V an r×M matrix with orthonormal rows (the paper writes Vᵀ; only
//!   U Λ V has the right shapes) and λ_i = 2·min(d, M)/(i + 1), i = 1..r;
//! - `gaussian` (§7.1): φ_i ~ N(0, I_d);
//! - `example1` (Example 1): φ_i = λ_i u_i for M ≤ d orthonormal u_i, so each
//!   client holds one singular direction (V = I).
//!
//! The points are stored as a [`FederatedDataset`] (users = clients) so the
//! FedRep baselines of the paper run on exactly the same data; its U* is U_k
//! and its w_i* is φ_i.

use crate::data::shared_representation::{FederatedDataset, SharedRepresentationModel, Storage};
use crate::linalg::{dot, gaussian_matrix, orthonormalize};
use crate::rng::{fast_stream, stream, Purpose};
use nalgebra::DMatrix;
use rand::RngExt;
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};

/// How Φ's columns are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Spectrum {
    /// Φ = U Λ V with λ_i = 2·min(d, M)/(i + 1) (App. C.1).
    #[default]
    Decaying,
    /// φ_i ~ N(0, I_d) (§7.1): rank min(d, M).
    Gaussian,
    /// φ_i = λ_i u_i (Example 1): one singular direction per client.
    Example1,
}

/// What defines a FLUTE dataset.
#[derive(Clone, Debug, PartialEq)]
pub struct UnderParameterizedModel {
    /// M clients.
    pub clients: usize,
    /// N samples per client.
    pub samples: usize,
    pub d: usize,
    /// k, the representation size the learners use.
    pub k: usize,
    /// r = rank Φ (decaying and example1; gaussian has rank min(d, M)).
    pub rank: usize,
    pub spectrum: Spectrum,
    /// σ, the label noise's standard deviation.
    pub noise: f64,
    pub seed: u64,
}

/// A drawn dataset and its ground truth.
#[derive(Clone, Debug)]
pub struct UnderParameterizedData {
    /// Φ (d×M): column i is client i's true regressor.
    pub phi: DMatrix<f64>,
    /// The singular values of Φ, largest first (min(d, M) of them).
    pub singular_values: Vec<f64>,
    /// U_k: the top-k left singular vectors of Φ (d×k), span of the target.
    pub u_k: DMatrix<f64>,
    /// U_k Λ_k V_kᵀ (d×M): the best rank-k approximation of Φ.
    pub phi_k: DMatrix<f64>,
    /// The clients' points (x row-major per client, N each; no held-out part).
    pub points: FederatedDataset,
}

/// λ_i = 2·d_lo/(i + 1), i = 1..r (App. C.1), d_lo = min(d, M).
pub fn decaying_spectrum(d: usize, clients: usize, rank: usize) -> Vec<f64> {
    let d_lo = d.min(clients) as f64;
    (1..=rank).map(|i| 2.0 * d_lo / (i as f64 + 1.0)).collect()
}

impl UnderParameterizedModel {
    /// Bytes the dataset occupies (points, Φ and its truncation).
    pub fn memory_bytes(&self) -> u64 {
        let (m, n, d) = (self.clients as u64, self.samples as u64, self.d as u64);
        8 * (m * n * (d + 1) + 4 * m * d)
    }

    /// Φ, drawn from (seed, GroundTruth).
    pub fn draw_phi(&self) -> DMatrix<f64> {
        let (d, m) = (self.d, self.clients);
        let mut rng = stream(self.seed, Purpose::GroundTruth, 1);
        match self.spectrum {
            Spectrum::Gaussian => gaussian_matrix(d, m, &mut rng),
            Spectrum::Decaying => {
                let r = self.rank.min(d).min(m);
                let lambda = decaying_spectrum(d, m, r);
                let u = orthonormalize(gaussian_matrix(d, r, &mut rng));
                // V: r orthonormal rows in R^M = the transpose of a Haar M×r.
                let v = orthonormalize(gaussian_matrix(m, r, &mut rng)).transpose();
                let mut ul = u;
                for (j, l) in lambda.iter().enumerate() {
                    ul.column_mut(j).scale_mut(*l);
                }
                ul * v
            }
            Spectrum::Example1 => {
                let r = m.min(d);
                let lambda = decaying_spectrum(d, m, r);
                let u = orthonormalize(gaussian_matrix(d, r, &mut rng));
                DMatrix::from_fn(d, m, |p, i| if i < r { lambda[i] * u[(p, i)] } else { 0.0 })
            }
        }
    }

    /// Φ, its truncation and every client's N points (client i from its own
    /// stream (seed, UserData, i)).
    pub fn generate(&self) -> UnderParameterizedData {
        let (d, m, n, k) = (self.d, self.clients, self.samples, self.k);
        let phi = self.draw_phi();
        let svd = phi.clone().svd(true, true);
        let mut order: Vec<usize> = (0..svd.singular_values.len()).collect();
        order.sort_by(|&a, &b| svd.singular_values[b].total_cmp(&svd.singular_values[a]));
        let singular_values: Vec<f64> = order.iter().map(|&j| svd.singular_values[j]).collect();
        let u_all = svd.u.as_ref().expect("u requested");
        let vt_all = svd.v_t.as_ref().expect("vᵀ requested");
        let kk = k.min(order.len());
        let u_k = DMatrix::from_fn(d, kk, |p, q| u_all[(p, order[q])]);
        let mut phi_k = DMatrix::zeros(d, m);
        for &j in order.iter().take(kk) {
            phi_k += svd.singular_values[j] * u_all.column(j) * vt_all.row(j);
        }
        let mut x = vec![0.0; m * n * d];
        let mut y = vec![0.0; m * n];
        for i in 0..m {
            let mut rng = fast_stream(self.seed, Purpose::UserData, i as u64);
            let phi_i: Vec<f64> = phi.column(i).iter().copied().collect();
            for j in 0..n {
                let row = &mut x[(i * n + j) * d..(i * n + j + 1) * d];
                for xv in row.iter_mut() {
                    *xv = rng.sample(StandardNormal);
                }
                let xi: f64 = rng.sample(StandardNormal);
                y[i * n + j] = dot(row, &phi_i) + self.noise * xi;
            }
        }
        let v_star = (0..m)
            .flat_map(|i| (0..kk).map(move |q| (i, q)))
            .map(|(i, q)| u_k.column(q).dot(&phi.column(i)))
            .collect();
        // Row-major n×d: client i's φᵢ is column i of Φ, contiguous in column-major order.
        let w_star = phi.as_slice().to_vec();
        let points = FederatedDataset {
            model: SharedRepresentationModel {
                n: m,
                d,
                k: kk,
                m: n,
                m_train: n,
                noise: self.noise,
                unit_heads: false,
                seed: self.seed,
            },
            u_star: u_k.clone(),
            storage: Storage::Stored,
            v_star,
            w_star,
            x,
            y,
        };
        UnderParameterizedData {
            phi,
            singular_values,
            u_k,
            phi_k,
            points,
        }
    }
}

/// The small problem (6 clients of 8 points, d = 5, k = 2, decaying
/// spectrum) on which the FLUTE and gradient FedRep unit tests check a round
/// against the dense formulas.
#[cfg(test)]
pub(crate) fn small_test_clients() -> FederatedDataset {
    UnderParameterizedModel {
        clients: 6,
        samples: 8,
        d: 5,
        k: 2,
        rank: 5,
        spectrum: Spectrum::Decaying,
        noise: 0.5,
        seed: 2,
    }
    .generate()
    .points
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(spectrum: Spectrum) -> UnderParameterizedModel {
        UnderParameterizedModel {
            clients: 15,
            samples: 20,
            d: 10,
            k: 2,
            rank: 10,
            spectrum,
            noise: 0.3f64.sqrt(),
            seed: 4,
        }
    }

    #[test]
    fn the_decaying_spectrum_is_the_one_of_appendix_c1() {
        let data = model(Spectrum::Decaying).generate();
        // d = 10, M = 15: λ = 20/(i + 1) = 10, 6.667, 5, …, 1.818.
        for (i, s) in data.singular_values.iter().enumerate() {
            assert!((s - 20.0 / (i as f64 + 2.0)).abs() < 1e-9, "σ_{i} = {s}");
        }
        // ‖Φ − Φ_k‖_F² = Σ_{j>k} λ_j² (Eckart–Young): 8.875² at k = 2 (spec table).
        let rest = (&data.phi - &data.phi_k).norm();
        assert!((rest - 8.875).abs() < 1e-3, "{rest}");
    }

    #[test]
    fn the_points_follow_y_equals_phi_x_plus_noise() {
        let mut m = model(Spectrum::Gaussian);
        m.noise = 0.0;
        let data = m.generate();
        let p = &data.points;
        for i in [0, 7, 14] {
            let pts = p.user(i);
            for j in 0..20 {
                let x = &pts.x[j * 10..(j + 1) * 10];
                let phi: Vec<f64> = data.phi.column(i).iter().copied().collect();
                assert!((dot(x, &phi) - pts.y[j]).abs() < 1e-12);
            }
            assert_eq!(p.w_star(i), data.phi.column(i).as_slice());
        }
    }

    #[test]
    fn example1_gives_each_client_one_singular_direction() {
        let mut m = model(Spectrum::Example1);
        m.clients = 4;
        let data = m.generate();
        for i in 0..4 {
            for j in 0..4 {
                let c = data.phi.column(i).dot(&data.phi.column(j));
                if i != j {
                    assert!(c.abs() < 1e-9);
                }
            }
            assert!((data.phi.column(i).norm() - 8.0 / (i as f64 + 2.0)).abs() < 1e-9);
        }
    }
}
