//! Personalized margin classification with a shared representation
//! (Snedeker, Zhou & Bassily, §4, the setting of Algorithm 3 and Theorem 17):
//! inputs x in the d-dimensional ball of radius r, a true U* (d×k, orthonormal
//! columns) shared by all users, user i's head v_i* with ‖v_i*‖ = Γ, and
//! labels y = sign(⟨x, U* v_i*⟩). Optionally the inputs keep a margin
//! |⟨x, U* v_i*⟩| ≥ ρ (the paper's margin assumption), and each label is
//! flipped with probability `flip` (noise the margin loss must tolerate).
//! Each user has m points: S⁰ (the first m/2) and S¹ (the rest).

use crate::linalg::{gaussian_matrix, orthonormalize};
use crate::rng::{stream, Purpose};
use nalgebra::DMatrix;
use rand::{Rng, RngExt};
use rand_distr::StandardNormal;

/// The model's parameters (validated by the scenario's config).
#[derive(Clone, Debug, PartialEq)]
pub struct MarginModel {
    pub n: usize,
    pub m: usize,
    pub d: usize,
    pub k: usize,
    /// Radius r of the input ball.
    pub radius: f64,
    /// ‖v_i*‖ = Γ.
    pub gamma: f64,
    /// Inputs keep |⟨x, U*v_i*⟩| ≥ margin (0: no margin).
    pub margin: f64,
    /// Probability that a label is flipped.
    pub flip: f64,
    pub seed: u64,
}

/// One user's points: `x` row-major (points × d) and labels ±1.
#[derive(Clone, Debug, PartialEq)]
pub struct Points {
    pub x: Vec<f64>,
    pub y: Vec<f64>,
}

impl Points {
    pub fn len(&self) -> usize {
        self.y.len()
    }

    pub fn is_empty(&self) -> bool {
        self.y.is_empty()
    }
}

/// A drawn dataset: the truth and every user's S⁰ and S¹.
#[derive(Clone, Debug)]
pub struct MarginDataset {
    pub model: MarginModel,
    pub u_star: DMatrix<f64>,
    /// Row i: user i's head v_i* (n×k).
    pub v_star: DMatrix<f64>,
    pub train: Vec<Points>,
    pub holdout: Vec<Points>,
}

/// Most draws of an input before giving up on the margin (the scenario's
/// checks keep the margin far below what makes this likely).
const MAX_TRIES: usize = 10_000;

impl MarginModel {
    /// A point uniform in the d-ball of radius r: a Gaussian direction and a
    /// radius r·u^{1/d}.
    fn ball_point(&self, rng: &mut impl Rng, out: &mut [f64]) {
        let mut norm2 = 0.0;
        for v in out.iter_mut() {
            *v = rng.sample::<f64, _>(StandardNormal);
            norm2 += *v * *v;
        }
        let u: f64 = rng.random();
        let scale = self.radius * u.powf(1.0 / self.d as f64) / norm2.sqrt().max(f64::MIN_POSITIVE);
        for v in out.iter_mut() {
            *v *= scale;
        }
    }

    /// `count` points of a user with true direction `w = U* v_i*` (length d),
    /// from its own stream `index`; labels flipped with probability `flip`.
    /// Errors when the margin cannot be met (it is too large for the ball).
    pub fn points(&self, w: &[f64], count: usize, index: u64) -> Result<Points, String> {
        let mut rng = stream(self.seed, Purpose::UserData, index);
        let d = self.d;
        let mut x = vec![0.0; count * d];
        let mut y = Vec::with_capacity(count);
        for j in 0..count {
            let row = &mut x[j * d..(j + 1) * d];
            let mut tries = 0;
            let s = loop {
                self.ball_point(&mut rng, row);
                let s: f64 = row.iter().zip(w).map(|(a, b)| a * b).sum();
                if s.abs() >= self.margin && s != 0.0 {
                    break s;
                }
                tries += 1;
                if tries >= MAX_TRIES {
                    return Err(format!(
                        "no input in the ball of radius {} keeps the margin {} (tried {MAX_TRIES} draws)",
                        self.radius, self.margin
                    ));
                }
            };
            let flip = rng.random::<f64>() < self.flip;
            y.push(if (s > 0.0) != flip { 1.0 } else { -1.0 });
        }
        Ok(Points { x, y })
    }

    /// The truth: U* (Q of a QR of a Gaussian d×k matrix) and heads of norm Γ.
    pub fn truth(&self) -> (DMatrix<f64>, DMatrix<f64>) {
        let mut rng = stream(self.seed, Purpose::GroundTruth, 0);
        let u = orthonormalize(gaussian_matrix(self.d, self.k, &mut rng));
        let mut v = gaussian_matrix(self.n, self.k, &mut rng);
        for mut row in v.row_iter_mut() {
            let norm = row.norm().max(f64::MIN_POSITIVE);
            row *= self.gamma / norm;
        }
        (u, v)
    }

    /// User i's true direction U* v_i* (length d).
    pub fn direction(u: &DMatrix<f64>, v: &DMatrix<f64>, i: usize) -> Vec<f64> {
        (u * v.row(i).transpose()).as_slice().to_vec()
    }

    /// Draws every user's S⁰ and S¹.
    pub fn generate(&self) -> Result<MarginDataset, String> {
        let (u_star, v_star) = self.truth();
        let half = self.m / 2;
        let mut train = Vec::with_capacity(self.n);
        let mut holdout = Vec::with_capacity(self.n);
        for i in 0..self.n {
            let w = Self::direction(&u_star, &v_star, i);
            let all = self.points(&w, self.m, i as u64)?;
            let d = self.d;
            train.push(Points {
                x: all.x[..half * d].to_vec(),
                y: all.y[..half].to_vec(),
            });
            holdout.push(Points {
                x: all.x[half * d..].to_vec(),
                y: all.y[half..].to_vec(),
            });
        }
        Ok(MarginDataset {
            model: self.clone(),
            u_star,
            v_star,
            train,
            holdout,
        })
    }
}

impl MarginDataset {
    /// `count` fresh test points per user, with labels from the truth
    /// (no flips: the error is measured against the true model), drawn from a
    /// stream of their own.
    pub fn test_points(&self, count: usize) -> Result<Vec<Points>, String> {
        let clean = MarginModel {
            flip: 0.0,
            ..self.model.clone()
        };
        (0..self.model.n)
            .map(|i| {
                let w = MarginModel::direction(&self.u_star, &self.v_star, i);
                clean.points(&w, count, (1u64 << 40) + i as u64)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> MarginModel {
        MarginModel {
            n: 20,
            m: 10,
            d: 6,
            k: 2,
            radius: 1.0,
            gamma: 1.0,
            margin: 0.1,
            flip: 0.0,
            seed: 3,
        }
    }

    #[test]
    fn points_lie_in_the_ball_keep_the_margin_and_follow_the_true_heads() {
        let data = model().generate().unwrap();
        for i in 0..20 {
            let w = MarginModel::direction(&data.u_star, &data.v_star, i);
            for p in [&data.train[i], &data.holdout[i]] {
                assert_eq!(p.len(), 5);
                for j in 0..p.len() {
                    let x = &p.x[j * 6..(j + 1) * 6];
                    assert!(x.iter().map(|a| a * a).sum::<f64>() <= 1.0 + 1e-12);
                    let s: f64 = x.iter().zip(&w).map(|(a, b)| a * b).sum();
                    assert!(s.abs() >= 0.1);
                    assert_eq!(p.y[j], s.signum());
                }
            }
            assert!((data.v_star.row(i).norm() - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn flips_change_about_the_given_share_of_labels_and_an_impossible_margin_is_an_error() {
        let m = MarginModel {
            flip: 0.3,
            n: 1,
            m: 2000,
            margin: 0.0,
            ..model()
        };
        let data = m.generate().unwrap();
        let w = MarginModel::direction(&data.u_star, &data.v_star, 0);
        let p = &data.train[0];
        let flipped = (0..p.len())
            .filter(|&j| {
                let s: f64 = p.x[j * 6..(j + 1) * 6]
                    .iter()
                    .zip(&w)
                    .map(|(a, b)| a * b)
                    .sum();
                p.y[j] != s.signum()
            })
            .count() as f64
            / p.len() as f64;
        assert!((flipped - 0.3).abs() < 0.05, "{flipped}");
        assert!(MarginModel {
            margin: 5.0,
            ..model()
        }
        .generate()
        .is_err());
    }
}
