//! Low-rank trace regression with a Gaussian design (Zha 2024, §2 and
//! Assumption 1 with Λᵢ = I): y_i = ⟨X_i, M⟩ + ξ_i, X_i with iid N(0, 1)
//! entries, ξ_i ~ N(0, σ_ξ²), M = U Σ Vᵀ with Haar U (d1×r), V (d2×r).
//!
//! Both algorithms of the paper read the data only through
//! L̂ = (1/n) Σ y_i X_i and the gradient G(M) = (1/n) Σ (⟨X_i, M⟩ − y_i) X_i.
//! Two ways to produce them (vec is column-major, p = d1·d2):
//! - `direct`: the n matrices X_i and the y_i, stored (O(n·p) memory);
//! - `sufficient`: S = (1/n) Σ vec X_i vec X_iᵀ drawn at once as a Wishart
//!   matrix by Bartlett's decomposition S = LLᵀ/n (L lower triangular,
//!   L_jj = √χ²_{n−j+1}, L_jk ~ N(0, 1) below the diagonal), and
//!   b = vec L̂ = S vec M + (σ_ξ/n) L z with z ~ N(0, I_p): the same joint law
//!   as the direct path's (S, b) (XᵀX = LLᵀ in law, and Xᵀξ | XᵀX ~
//!   N(0, σ_ξ² XᵀX)), in O(p²) memory whatever n is.

use crate::linalg::{gaussian_matrix, orthonormalize};
use crate::rng::{fast_stream, stream, Purpose};
use nalgebra::{DMatrix, DVector};
use rand::RngExt;
use rand_distr::{ChiSquared, StandardNormal};
use serde::{Deserialize, Serialize};

/// How the statistics are produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum DataPath {
    /// The n matrices X_i and labels y_i.
    Direct,
    /// A Wishart draw of S and b (never stores n matrices).
    #[default]
    Sufficient,
}

/// What defines a dataset.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceModel {
    pub d1: usize,
    pub d2: usize,
    /// σ₁ ≥ … ≥ σ_r of M.
    pub singular_values: Vec<f64>,
    /// σ_ξ.
    pub noise: f64,
    pub n: usize,
    pub seed: u64,
}

/// The truth M = U Σ Vᵀ.
#[derive(Clone, Debug)]
pub struct Truth {
    pub m: DMatrix<f64>,
    pub u: DMatrix<f64>,
    pub v: DMatrix<f64>,
}

/// The data, in either form.
#[derive(Clone, Debug)]
pub enum TraceData {
    /// Row i of `x` (n×p, row-major) is vec X_i.
    Direct { x: Vec<f64>, y: Vec<f64> },
    /// S (p×p) and b = vec L̂.
    Sufficient { s: DMatrix<f64>, b: DVector<f64> },
}

impl TraceModel {
    /// The small test model: d1×d2, singular values (2, 1), noise σ_ξ.
    #[cfg(test)]
    pub(crate) fn rank_two(d1: usize, d2: usize, noise: f64, n: usize, seed: u64) -> Self {
        TraceModel {
            d1,
            d2,
            singular_values: vec![2.0, 1.0],
            noise,
            n,
            seed,
        }
    }

    /// The truth and a direct-path draw of the data (tests).
    #[cfg(test)]
    pub(crate) fn truth_and_direct_data(&self) -> (Truth, TraceData) {
        let t = self.truth();
        let data = self.generate(&t, DataPath::Direct);
        (t, data)
    }

    pub fn rank(&self) -> usize {
        self.singular_values.len()
    }

    fn p(&self) -> usize {
        self.d1 * self.d2
    }

    /// M from (seed, GroundTruth): U, V are Q factors of Gaussian matrices.
    pub fn truth(&self) -> Truth {
        let mut rng = stream(self.seed, Purpose::GroundTruth, 2);
        let r = self.rank();
        let u = orthonormalize(gaussian_matrix(self.d1, r, &mut rng));
        let v = orthonormalize(gaussian_matrix(self.d2, r, &mut rng));
        let sigma = DMatrix::from_diagonal(&DVector::from_vec(self.singular_values.clone()));
        Truth {
            m: &u * sigma * v.transpose(),
            u,
            v,
        }
    }

    /// The dataset along `path` (sample i from stream (seed, UserData, i);
    /// the sufficient statistics from (seed, UserData, u64::MAX)).
    pub fn generate(&self, truth: &Truth, path: DataPath) -> TraceData {
        let (n, p) = (self.n, self.p());
        let m = truth.m.as_slice();
        match path {
            DataPath::Direct => {
                let mut x = vec![0.0; n * p];
                let mut y = vec![0.0; n];
                for i in 0..n {
                    let mut rng = fast_stream(self.seed, Purpose::UserData, i as u64);
                    let row = &mut x[i * p..(i + 1) * p];
                    for v in row.iter_mut() {
                        *v = rng.sample(StandardNormal);
                    }
                    let xi: f64 = rng.sample(StandardNormal);
                    y[i] = row.iter().zip(m).map(|(a, b)| a * b).sum::<f64>() + self.noise * xi;
                }
                TraceData::Direct { x, y }
            }
            DataPath::Sufficient => {
                let mut rng = fast_stream(self.seed, Purpose::UserData, u64::MAX);
                let mut l = DMatrix::<f64>::zeros(p, p);
                for j in 0..p {
                    // Bartlett: L_jj² ~ χ²(n − j) for j = 0..p−1 (n ≥ p).
                    let dof = (n - j) as f64;
                    let chi: f64 = rng.sample(ChiSquared::new(dof).expect("n ≥ p"));
                    l[(j, j)] = chi.sqrt();
                    for k in 0..j {
                        l[(j, k)] = rng.sample(StandardNormal);
                    }
                }
                let s = (&l * l.transpose()) / n as f64;
                let z = DVector::<f64>::from_fn(p, |_, _| rng.sample(StandardNormal));
                let mv = DVector::from_column_slice(m);
                let b = &s * mv + (&l * z) * (self.noise / n as f64);
                TraceData::Sufficient { s, b }
            }
        }
    }
}

impl TraceData {
    /// L̂ = (1/n) Σ y_i X_i (Algorithm 1, line 1, with Λ = I).
    pub fn l_hat(&self, d1: usize, d2: usize) -> DMatrix<f64> {
        match self {
            TraceData::Direct { x, y } => {
                let p = d1 * d2;
                let n = y.len();
                let mut out = vec![0.0; p];
                for (row, yi) in x.chunks_exact(p).zip(y) {
                    for (o, a) in out.iter_mut().zip(row) {
                        *o += a * yi;
                    }
                }
                DMatrix::from_vec(d1, d2, out) / n as f64
            }
            TraceData::Sufficient { b, .. } => DMatrix::from_column_slice(d1, d2, b.as_slice()),
        }
    }

    /// G(M) = (1/n) Σ (⟨X_i, M⟩ − y_i) X_i (Algorithm 2).
    pub fn gradient(&self, m: &DMatrix<f64>) -> DMatrix<f64> {
        let (d1, d2) = (m.nrows(), m.ncols());
        match self {
            TraceData::Direct { x, y } => {
                let p = d1 * d2;
                let n = y.len();
                let mv = m.as_slice();
                let mut out = vec![0.0; p];
                for (row, yi) in x.chunks_exact(p).zip(y) {
                    let r = row.iter().zip(mv).map(|(a, b)| a * b).sum::<f64>() - yi;
                    for (o, a) in out.iter_mut().zip(row) {
                        *o += r * a;
                    }
                }
                DMatrix::from_vec(d1, d2, out) / n as f64
            }
            TraceData::Sufficient { s, b } => {
                let g = s * DVector::from_column_slice(m.as_slice()) - b;
                DMatrix::from_column_slice(d1, d2, g.as_slice())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(n: usize) -> TraceModel {
        TraceModel::rank_two(4, 3, 0.5, n, 7)
    }

    #[test]
    fn the_truth_has_the_chosen_singular_values() {
        let t = model(100).truth();
        let mut s: Vec<f64> = t.m.clone().singular_values().iter().copied().collect();
        s.sort_by(|a, b| b.total_cmp(a));
        assert!((s[0] - 2.0).abs() < 1e-12 && (s[1] - 1.0).abs() < 1e-12 && s[2].abs() < 1e-12);
    }

    /// The gradient is zero at the least-squares solution and linear in M.
    #[test]
    fn both_paths_give_a_gradient_that_is_s_m_minus_b() {
        for path in [DataPath::Direct, DataPath::Sufficient] {
            let m = model(200);
            let t = m.truth();
            let data = m.generate(&t, path);
            let zero = DMatrix::zeros(4, 3);
            // G(0) = −L̂.
            assert!((data.gradient(&zero) + data.l_hat(4, 3)).norm() < 1e-12);
            // G(A + B) − G(B) = G(A) − G(0).
            let a = DMatrix::from_fn(4, 3, |i, j| (i as f64 - j as f64) * 0.3);
            let lhs = data.gradient(&(&a + &t.m)) - data.gradient(&t.m);
            let rhs = data.gradient(&a) - data.gradient(&zero);
            assert!((lhs - rhs).norm() < 1e-10);
        }
    }
}
