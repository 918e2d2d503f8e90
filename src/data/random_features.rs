//! Random-features data model of "Privacy for Free in the Overparameterized
//! Regime" (Bombari & Mondelli §4; docs/algorithms.md, DP-GD on random features).
//!
//! - Inputs x ~ N(0, I_d) (not renormalized, so ‖x‖ ≈ √d).
//! - Teacher u ~ N(0, I_d/d). Labels y = sign(uᵀx) ([`Target::Sign`], the paper's
//!   choice, with sign(0) = +1) or y = uᵀx + noise·ξ ([`Target::Linear`]).
//! - Frozen first layer V ∈ R^{p×d} with i.i.d. N(0, 1/d) entries.
//! - Features φ(x) = ϕ(Vx) elementwise, **without** a 1/√p factor, so
//!   ‖φ(x)‖² ≈ M·p with M = E[ϕ(g)²] (tanh: M ≈ 0.394).
//!
//! Activations: [`Activation::Tanh`] (the paper's) and [`Activation::Sin`]. Both
//! are odd (Hermite μ0 = μ2 = 0), Lipschitz, nonlinear, with μ1 ≠ 0 (sin:
//! μ1 = e^{-1/2} ≈ 0.607, M = (1 − e^{-2})/2 ≈ 0.432), as Assumption 2 requires.
//!
//! Randomness (all under `Purpose::RandomFeatures` of one seed, each item from
//! its own stream): the teacher u, each training sample, each test sample and
//! each neuron (row j of V). Consequences:
//! - the same (x, y) are reused across a whole p grid;
//! - V for a smaller p is exactly the first rows of V for a larger p;
//! - changing n_test never changes the training set, and vice versa.
//!
//! Storage: V is kept transposed, as W = Vᵀ ∈ R^{d×p} (column j = neuron j), so
//! Φ = ϕ(X W) is one matrix product. Φ ∈ R^{n×p} is column-major (nalgebra).

use nalgebra::{DMatrix, DVector};
use rand_distr::{Distribution, StandardNormal};
use serde::{Deserialize, Serialize};

use super::labelled::Labelled;
use crate::rng::{self, Purpose};

/// Elementwise activation ϕ of the random features.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Activation {
    /// tanh, as in the paper's experiments.
    #[default]
    Tanh,
    /// sin: another odd, 1-Lipschitz activation.
    Sin,
}

impl Activation {
    /// Every value of `zs` through the activation (tanh two at a time in
    /// wasm, with the bits of one call per value: `tanh_pairs`).
    pub fn apply_in_place(self, zs: &mut [f64]) {
        match self {
            Activation::Tanh => super::tanh_pairs::tanh_in_place(zs),
            Activation::Sin => zs.iter_mut().for_each(|z| *z = z.sin()),
        }
    }

    pub fn name(self) -> &'static str {
        crate::names::serde_name(&self)
    }
}

/// How labels are made from the teacher direction u.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    /// y = sign(uᵀx) ∈ {−1, +1}: the paper's experiments (bounded, noiseless).
    #[default]
    Sign,
    /// y = uᵀx + noise·ξ with ξ ~ N(0, 1): a linear target with label noise
    /// (unbounded labels, so outside Assumption 1; offered for exploration).
    Linear { noise: f64 },
}

impl Target {
    pub fn name(self) -> &'static str {
        crate::names::serde_name(&self)
    }
}

/// Stream indices under `Purpose::RandomFeatures` (domain, then item).
const DOMAIN_TEACHER: u64 = 0;
const DOMAIN_TRAIN: u64 = 1;
const DOMAIN_TEST: u64 = 2;
const DOMAIN_NEURON: u64 = 3;

fn item_stream(seed: u64, domain: u64, index: u64) -> rand_chacha::ChaCha8Rng {
    rng::stream(seed, Purpose::RandomFeatures, rng::combine(domain, index))
}

/// The raw inputs and labels of one seed: shared by every p of a grid.
#[derive(Clone, Debug)]
pub struct RfInputs {
    /// n training samples (row i of `x` = x_i ∈ R^d).
    pub train: Labelled,
    /// n_test held-out samples.
    pub test: Labelled,
    /// The teacher direction u (length d).
    pub teacher: DVector<f64>,
}

impl RfInputs {
    /// Draws u, the n training and n_test test samples for `seed`.
    pub fn generate(seed: u64, d: usize, n: usize, n_test: usize, target: Target) -> Self {
        let mut rng = item_stream(seed, DOMAIN_TEACHER, 0);
        let scale = 1.0 / (d as f64).sqrt();
        let teacher = DVector::from_fn(d, |_, _| {
            let g: f64 = StandardNormal.sample(&mut rng);
            g * scale
        });
        let train = samples(seed, DOMAIN_TRAIN, n, &teacher, target);
        let test = samples(seed, DOMAIN_TEST, n_test, &teacher, target);
        RfInputs {
            train,
            test,
            teacher,
        }
    }

    pub fn d(&self) -> usize {
        self.teacher.len()
    }

    pub fn n(&self) -> usize {
        self.train.len()
    }

    pub fn n_test(&self) -> usize {
        self.test.len()
    }
}

fn samples(
    seed: u64,
    domain: u64,
    count: usize,
    teacher: &DVector<f64>,
    target: Target,
) -> Labelled {
    let d = teacher.len();
    let mut x = DMatrix::zeros(count, d);
    let mut y = DVector::zeros(count);
    for i in 0..count {
        let mut rng = item_stream(seed, domain, i as u64);
        let mut dot = 0.0;
        for k in 0..d {
            let g: f64 = StandardNormal.sample(&mut rng);
            x[(i, k)] = g;
            dot += g * teacher[k];
        }
        y[i] = match target {
            Target::Sign => {
                if dot >= 0.0 {
                    1.0
                } else {
                    -1.0
                }
            }
            Target::Linear { noise } => {
                let xi: f64 = StandardNormal.sample(&mut rng);
                dot + noise * xi
            }
        };
    }
    Labelled { x, y }
}

/// W = Vᵀ ∈ R^{d×p}: column j is neuron j, drawn from its own stream with
/// N(0, 1/d) entries, so `frozen_weights(seed, p, d)` is a column prefix of
/// `frozen_weights(seed, p', d)` for p ≤ p'.
pub fn frozen_weights(seed: u64, p: usize, d: usize) -> DMatrix<f64> {
    frozen_weights_block(seed, 0, p, d)
}

/// Columns `start .. start + count` of [`frozen_weights`] (neurons drawn from
/// their own streams), so wide models can build their features a block of
/// neurons at a time without holding V or Φ.
pub fn frozen_weights_block(seed: u64, start: usize, count: usize, d: usize) -> DMatrix<f64> {
    let scale = 1.0 / (d as f64).sqrt();
    let mut w = DMatrix::zeros(d, count);
    for j in 0..count {
        let mut rng = item_stream(seed, DOMAIN_NEURON, (start + j) as u64);
        for k in 0..d {
            let g: f64 = StandardNormal.sample(&mut rng);
            w[(k, j)] = g * scale;
        }
    }
    w
}

/// Φ = ϕ(X W): one row per sample, one column per neuron.
pub fn feature_matrix(x: &DMatrix<f64>, w: &DMatrix<f64>, activation: Activation) -> DMatrix<f64> {
    let mut phi = x * w;
    activation.apply_in_place(phi.as_mut_slice());
    phi
}

/// Train and test features of one (seed, p) (row i of `x` = φ(x_i), n × p
/// and n_test × p, the inputs' labels), with the row norms ‖φ_i‖ that DP-GD's
/// per-sample clipping needs.
#[derive(Clone, Debug)]
pub struct RfFeatures {
    pub train: Labelled,
    pub test: Labelled,
    /// ‖φ_i‖ for every training row.
    pub row_norms: Vec<f64>,
}

impl RfFeatures {
    pub fn build(inputs: &RfInputs, w: &DMatrix<f64>, activation: Activation) -> Self {
        let phi = feature_matrix(&inputs.train.x, w, activation);
        let phi_test = feature_matrix(&inputs.test.x, w, activation);
        let row_norms = row_norms(&phi);
        RfFeatures {
            train: Labelled {
                x: phi,
                y: inputs.train.y.clone(),
            },
            test: Labelled {
                x: phi_test,
                y: inputs.test.y.clone(),
            },
            row_norms,
        }
    }

    /// Draws everything for (seed, p) in one call.
    pub fn generate(
        seed: u64,
        d: usize,
        n: usize,
        n_test: usize,
        p: usize,
        activation: Activation,
        target: Target,
    ) -> Self {
        let inputs = RfInputs::generate(seed, d, n, n_test, target);
        let w = frozen_weights(seed, p, d);
        Self::build(&inputs, &w, activation)
    }

    pub fn n(&self) -> usize {
        self.train.x.nrows()
    }

    pub fn p(&self) -> usize {
        self.train.x.ncols()
    }

    /// Training loss L(θ) = (1/n) Σ (φ_iᵀθ − y_i)² (no 1/2 factor).
    pub fn train_loss(&self, theta: &DVector<f64>) -> f64 {
        self.train.mse(theta)
    }

    /// Test loss on the held-out samples.
    pub fn test_loss(&self, theta: &DVector<f64>) -> f64 {
        self.test.mse(theta)
    }
}

/// ‖row i‖ for every row of a column-major matrix (column sweeps, no copies).
pub fn row_norms(m: &DMatrix<f64>) -> Vec<f64> {
    let mut sq = vec![0.0; m.nrows()];
    for col in m.column_iter() {
        for (s, v) in sq.iter_mut().zip(col.iter()) {
            *s += v * v;
        }
    }
    sq.into_iter().map(f64::sqrt).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_for_a_smaller_p_are_a_prefix() {
        let small = frozen_weights(3, 5, 4);
        let big = frozen_weights(3, 9, 4);
        assert_eq!(small, big.columns(0, 5).into_owned());
        assert_ne!(small, frozen_weights(4, 5, 4));
    }

    #[test]
    fn training_set_does_not_depend_on_test_size() {
        let a = RfInputs::generate(1, 6, 10, 3, Target::Sign);
        let b = RfInputs::generate(1, 6, 10, 30, Target::Sign);
        assert_eq!(a.train, b.train);
        assert_eq!(a.test.x, b.test.x.rows(0, 3).into_owned());
        assert!(a.train.y.iter().all(|&y| y == 1.0 || y == -1.0));
    }

    #[test]
    fn feature_norms_scale_like_root_p() {
        // No 1/√p: ‖φ‖²/p ≈ E[tanh(g)²] ≈ 0.394 for g ~ N(0, ‖x‖²/d ≈ 1).
        let f = RfFeatures::generate(5, 50, 40, 10, 2000, Activation::Tanh, Target::Sign);
        let mean_sq: f64 = f.row_norms.iter().map(|r| r * r).sum::<f64>() / (40.0 * 2000.0);
        assert!((mean_sq - 0.394).abs() < 0.05, "mean ‖φ‖²/p = {mean_sq}");
        assert!((f.test.null_loss() - 1.0).abs() < 1e-12);
        let explicit = (0..f.p())
            .map(|j| f.train.x[(7, j)].powi(2))
            .sum::<f64>()
            .sqrt();
        assert!((explicit - f.row_norms[7]).abs() < 1e-9);
    }
}
