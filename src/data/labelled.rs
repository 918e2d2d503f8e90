//! Labelled rows: the inputs (or features) of a set of samples, one row each,
//! with their labels. Every data model here holds such sets: the
//! random-features model (Bombari & Mondelli §4) a training and a held-out
//! test set, first as raw inputs x and then as features φ(x), in matrices; the
//! margin-classification model a user's points, row-major in vectors
//! ([`crate::data::margin_classification::Points`]); the shared-representation
//! model a user's points as slices of its flat arrays
//! ([`crate::data::shared_representation::Points`]). One type says so once,
//! over the storage each needs.

use nalgebra::{DMatrix, DVector};

/// Row i of `x` is sample i's input (or feature vector), y_i its label. The
/// default storage, a matrix and a vector, is the random features'.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Labelled<X = DMatrix<f64>, Y = DVector<f64>> {
    pub x: X,
    pub y: Y,
}

impl<X, Y: AsRef<[f64]>> Labelled<X, Y> {
    /// How many samples (one label each).
    pub fn len(&self) -> usize {
        self.y.as_ref().len()
    }

    pub fn is_empty(&self) -> bool {
        self.y.as_ref().is_empty()
    }
}

impl Labelled {
    /// Mean squared error (1/m) ‖Xθ − y‖² of the linear predictor θ (no 1/2
    /// factor: the loss L(θ) of Bombari & Mondelli, Algorithm 1); NaN without
    /// samples.
    pub fn mse(&self, theta: &DVector<f64>) -> f64 {
        if self.y.is_empty() {
            return f64::NAN;
        }
        let mut r = self.y.clone();
        r.gemv(1.0, &self.x, theta, -1.0);
        r.norm_squared() / self.y.len() as f64
    }

    /// Loss of the trivial predictor f ≡ 0, the mean of y² (= 1 for signs).
    pub fn null_loss(&self) -> f64 {
        self.y.norm_squared() / self.y.len().max(1) as f64
    }
}
