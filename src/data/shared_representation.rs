//! The shared-representation linear model of Private FedRep's experiments
//! (Snedeker et al. §3.4 / App. B.4; spec private_fedrep.md §1, §7):
//! U* = Q of a QR of a Gaussian d×k matrix; per user v_i* ~ N(0, I_k) (or unit
//! norm, as in the authors' code); x ~ N(0, I_d); y = xᵀU*v_i* + N(0, R²).
//!
//! Each user's data is drawn from its own stream (seed, UserData, i), so user i's
//! data is the same whatever n is and however users are split into chunks.

use crate::linalg::{gaussian_matrix, orthonormalize};
use crate::rng::{stream, Purpose};
use nalgebra::DMatrix;
use rand::RngExt;
use rand_distr::StandardNormal;

/// What defines a dataset.
#[derive(Clone, Debug, PartialEq)]
pub struct SharedRepresentationModel {
    pub n: usize,
    pub d: usize,
    pub k: usize,
    /// Points per user, S⁰ and S¹ together.
    pub m: usize,
    /// |S⁰|: the first `m_train` points of each user (the rest are S¹).
    pub m_train: usize,
    /// Label noise standard deviation R.
    pub noise: f64,
    /// v_i* normalized to unit length (the authors' code) instead of N(0, I_k).
    pub unit_heads: bool,
    pub seed: u64,
}

/// A generated dataset. Features are stored row-major per user: user i's point j
/// is `x[(i·m + j)·d ..][..d]`.
#[derive(Clone, Debug)]
pub struct FederatedDataset {
    pub model: SharedRepresentationModel,
    /// U*, d×k with orthonormal columns.
    pub u_star: DMatrix<f64>,
    /// v_i*, row-major n×k.
    pub v_star: Vec<f64>,
    /// w_i* = U* v_i*, row-major n×d (for the closed-form risk).
    pub w_star: Vec<f64>,
    pub x: Vec<f64>,
    pub y: Vec<f64>,
}

/// One user's points as slices: `x` is rows×d row-major.
#[derive(Clone, Copy, Debug)]
pub struct Points<'a> {
    pub x: &'a [f64],
    pub y: &'a [f64],
}

impl<'a> Points<'a> {
    pub fn len(&self) -> usize {
        self.y.len()
    }
    pub fn is_empty(&self) -> bool {
        self.y.is_empty()
    }
    /// Points `range` of this set.
    pub fn slice(&self, range: std::ops::Range<usize>, d: usize) -> Points<'a> {
        Points {
            x: &self.x[range.start * d..range.end * d],
            y: &self.y[range],
        }
    }
}

impl SharedRepresentationModel {
    /// Bytes the dataset occupies in memory (features, labels, heads).
    pub fn memory_bytes(&self) -> usize {
        8 * (self.n * self.m * (self.d + 1) + self.n * (self.k + self.d) + self.d * self.k)
    }

    /// U*: Q of the QR of a d×k standard Gaussian matrix.
    pub fn ground_truth(&self) -> DMatrix<f64> {
        let mut rng = stream(self.seed, Purpose::GroundTruth, 0);
        orthonormalize(gaussian_matrix(self.d, self.k, &mut rng))
    }

    /// Writes user i's head v_i*, features (m×d) and labels (m) into the slices.
    pub fn fill_user(
        &self,
        i: usize,
        u_star_rows: &[f64],
        v: &mut [f64],
        w: &mut [f64],
        x: &mut [f64],
        y: &mut [f64],
    ) {
        let (d, k) = (self.d, self.k);
        let mut rng = stream(self.seed, Purpose::UserData, i as u64);
        for vq in v.iter_mut() {
            *vq = rng.sample(StandardNormal);
        }
        if self.unit_heads {
            let norm = v.iter().map(|a| a * a).sum::<f64>().sqrt();
            if norm > 0.0 {
                v.iter_mut().for_each(|a| *a /= norm);
            }
        }
        for p in 0..d {
            w[p] = (0..k).map(|q| u_star_rows[p * k + q] * v[q]).sum();
        }
        for xv in x.iter_mut() {
            *xv = rng.sample(StandardNormal);
        }
        for (j, yj) in y.iter_mut().enumerate() {
            let row = &x[j * d..(j + 1) * d];
            let signal: f64 = row.iter().zip(w.iter()).map(|(a, b)| a * b).sum();
            let zeta: f64 = rng.sample(StandardNormal);
            *yj = signal + self.noise * zeta;
        }
    }

    /// A dataset with U* drawn and room for every user; users are filled by
    /// [`FederatedDataset::fill_users`], in any order or in chunks.
    pub fn allocate(&self) -> FederatedDataset {
        let (n, d, k, m) = (self.n, self.d, self.k, self.m);
        FederatedDataset {
            model: self.clone(),
            u_star: self.ground_truth(),
            v_star: vec![0.0; n * k],
            w_star: vec![0.0; n * d],
            x: vec![0.0; n * m * d],
            y: vec![0.0; n * m],
        }
    }

    /// Draws the whole dataset.
    pub fn generate(&self) -> FederatedDataset {
        let mut data = self.allocate();
        data.fill_users(0..self.n);
        data
    }
}

impl FederatedDataset {
    /// Draws users `range` (each from its own stream).
    pub fn fill_users(&mut self, range: std::ops::Range<usize>) {
        let model = self.model.clone();
        let (d, k, m) = (model.d, model.k, model.m);
        let mut u_rows = Vec::new();
        crate::linalg::to_row_major(&self.u_star, &mut u_rows);
        for i in range {
            model.fill_user(
                i,
                &u_rows,
                &mut self.v_star[i * k..(i + 1) * k],
                &mut self.w_star[i * d..(i + 1) * d],
                &mut self.x[i * m * d..(i + 1) * m * d],
                &mut self.y[i * m..(i + 1) * m],
            );
        }
    }

    pub fn n(&self) -> usize {
        self.model.n
    }
    pub fn d(&self) -> usize {
        self.model.d
    }
    pub fn k(&self) -> usize {
        self.model.k
    }

    /// All m points of user i.
    pub fn user(&self, i: usize) -> Points<'_> {
        let (m, d) = (self.model.m, self.model.d);
        Points {
            x: &self.x[i * m * d..(i + 1) * m * d],
            y: &self.y[i * m..(i + 1) * m],
        }
    }

    /// S_i⁰: the points used for training (initialization and rounds).
    pub fn train(&self, i: usize) -> Points<'_> {
        self.user(i).slice(0..self.model.m_train, self.model.d)
    }

    /// S_i¹: the held-out points for the final head fit.
    pub fn holdout(&self, i: usize) -> Points<'_> {
        self.user(i)
            .slice(self.model.m_train..self.model.m, self.model.d)
    }

    /// w_i* = U* v_i*.
    pub fn w_star(&self, i: usize) -> &[f64] {
        &self.w_star[i * self.model.d..(i + 1) * self.model.d]
    }

    /// v_i*.
    pub fn v_star(&self, i: usize) -> &[f64] {
        &self.v_star[i * self.model.k..(i + 1) * self.model.k]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(n: usize) -> SharedRepresentationModel {
        SharedRepresentationModel {
            n,
            d: 6,
            k: 2,
            m: 4,
            m_train: 2,
            noise: 0.0,
            unit_heads: false,
            seed: 11,
        }
    }

    #[test]
    fn ground_truth_has_orthonormal_columns() {
        let u = model(3).ground_truth();
        let g = u.transpose() * &u;
        assert!((g - DMatrix::<f64>::identity(2, 2)).norm() < 1e-12);
    }

    #[test]
    fn labels_follow_the_shared_representation_without_noise() {
        let data = model(5).generate();
        for i in 0..5 {
            let pts = data.user(i);
            for j in 0..pts.len() {
                let xw: f64 = pts.x[j * 6..(j + 1) * 6]
                    .iter()
                    .zip(data.w_star(i))
                    .map(|(a, b)| a * b)
                    .sum();
                assert!((xw - pts.y[j]).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn a_user_gets_the_same_data_whatever_n_is() {
        let small = model(3).generate();
        let large = model(9).generate();
        assert_eq!(small.user(2).x, large.user(2).x);
        assert_eq!(small.user(2).y, large.user(2).y);
    }

    #[test]
    fn unit_heads_have_unit_norm() {
        let mut m = model(4);
        m.unit_heads = true;
        let data = m.generate();
        for i in 0..4 {
            let norm: f64 = data.v_star(i).iter().map(|a| a * a).sum::<f64>().sqrt();
            assert!((norm - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn train_and_holdout_split_each_user() {
        let data = model(2).generate();
        assert_eq!(data.train(1).len(), 2);
        assert_eq!(data.holdout(1).len(), 2);
        assert_eq!(data.holdout(1).y, &data.user(1).y[2..]);
    }
}
