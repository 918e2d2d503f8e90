//! FedRep as its code runs it (Collins, Hassani, Mokhtari & Shakkottai, ICML
//! 2021, Algorithm 1 with gradient updates), linearised: the baseline the FLUTE
//! paper (Liu, Shen & Yang, ICML 2024, §7.1 and App. C.1) names "FedRep" and,
//! from FLUTE's random start, "FedRep(RI)". The FLUTE paper does not spell out
//! its linear FedRep; this is the reading of FedRep's code (docs/algorithms.md,
//! FLUTE: the two FedReps).
//!
//! One round: every client i, holding its head w_i from the previous round,
//! 1. takes τ_h gradient steps on its head with B fixed,
//!    w_i ← w_i − η ∇_w L_i(B, w_i), ∇_w L_i = (c/N) Σ_j Bᵀx_j (x_jᵀBw_i − y_j);
//! 2. then one gradient step on the representation at its new head,
//!    B_i = B − η ∇_B L_i(B, w_i), ∇_B L_i = (c/N) Σ_j x_j (x_jᵀBw_i − y_j) w_iᵀ;
//! 3. the server averages: B ← (1/M) Σ_i B_i = B − η (1/M) Σ_i ∇_B L_i.
//!
//! No QR, no exact head, no regularizer; η and c are FLUTE's (App. C.1:
//! η = 0.03; c = 1 is the appendix's constant). The analysed form of FedRep
//! (exact heads, a step on U, QR every round) is `algorithms/fedrep.rs`.
//!
//! [`Aggregation::Sum`] is this project's extension, in no paper: the server
//! takes FLUTE's data step instead, B ← B − η Σ_i ∇_B L_i (a sum, as the FLUTE
//! paper's eq. 5), M times the averaged step. It keeps everything else of
//! FedRep (the head steps first, no regularizer), so that FLUTE's server step
//! and its regularizer can be told apart.

use crate::algorithms::flute::GradientScale;
use crate::data::shared_representation::{FederatedDataset, Part};
use crate::linalg::{axpy, dot};
use nalgebra::DMatrix;

#[derive(Clone, Debug, PartialEq)]
pub struct FedRepGdParams {
    pub rounds: usize,
    /// η, the step of both the head and the representation updates.
    pub eta: f64,
    /// τ_h, gradient steps on each head per round before the step on B.
    pub head_steps: usize,
    pub scale: GradientScale,
    /// How the server combines the clients' steps on B.
    pub aggregation: Aggregation,
}

/// The server's step on B from the clients' ∇_B L_i.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Aggregation {
    /// FedRep's: the mean of the clients' B_i, B − η (1/M) Σ_i ∇_B L_i.
    #[default]
    Mean,
    /// FLUTE's data step (eq. 5): B − η Σ_i ∇_B L_i (this project's extension
    /// of FedRep).
    Sum,
}

/// A gradient FedRep run as a state machine: `step()` is one communication round.
#[derive(Clone, Debug)]
pub struct FedRepGd {
    params: FedRepGdParams,
    b: DMatrix<f64>,
    w: DMatrix<f64>,
    round: usize,
}

impl FedRepGd {
    /// Starts from B⁰ (d×k) and the heads W⁰ (k×M, one column per client).
    pub fn new(b0: DMatrix<f64>, w0: DMatrix<f64>, params: FedRepGdParams) -> Self {
        assert_eq!(b0.ncols(), w0.nrows(), "B⁰ and W⁰ must share k");
        FedRepGd {
            params,
            b: b0,
            w: w0,
            round: 0,
        }
    }

    factored_run_accessors!();

    /// One round: every client's head steps and its step on B, then the average.
    pub fn step(&mut self, data: &FederatedDataset) {
        if self.is_done() {
            return;
        }
        let (d, k, m) = (self.b.nrows(), self.b.ncols(), self.w.ncols());
        let c = self.params.scale.value();
        let eta = self.params.eta;
        let b_cols = self.b.as_slice();
        let mut sum = vec![0.0; d * k];
        let mut a: Vec<f64> = Vec::new();
        let mut wi = vec![0.0; k];
        let mut gw = vec![0.0; k];
        let mut g = vec![0.0; d];
        data.for_each_user(0..m, Part::Train, |user| {
            let i = user.index;
            let pts = user.train;
            let n = pts.len();
            let scale = c / n.max(1) as f64;
            // a_j = Bᵀ x_j: B is fixed for the whole of the client's round.
            a.clear();
            for j in 0..n {
                let x = &pts.x[j * d..(j + 1) * d];
                for q in 0..k {
                    a.push(dot(x, &b_cols[q * d..(q + 1) * d]));
                }
            }
            wi.iter_mut()
                .zip(self.w.column(i).iter())
                .for_each(|(v, w)| *v = *w);
            for _ in 0..self.params.head_steps {
                gw.iter_mut().for_each(|v| *v = 0.0);
                for j in 0..n {
                    let aj = &a[j * k..(j + 1) * k];
                    axpy(scale * (dot(aj, &wi) - pts.y[j]), aj, &mut gw);
                }
                axpy(-eta, &gw, &mut wi);
            }
            // g = (c/N) Σ_j x_j (x_jᵀ B w_i − y_j) at the new head: ∇_B L_i = g w_iᵀ.
            g.iter_mut().for_each(|v| *v = 0.0);
            for j in 0..n {
                let r = dot(&a[j * k..(j + 1) * k], &wi) - pts.y[j];
                axpy(scale * r, &pts.x[j * d..(j + 1) * d], &mut g);
            }
            for q in 0..k {
                axpy(wi[q], &g, &mut sum[q * d..(q + 1) * d]);
            }
            self.w.column_mut(i).copy_from_slice(&wi);
        });
        // The server's average of B_i = B − η ∇_B L_i, or FLUTE's sum.
        let step = match self.params.aggregation {
            Aggregation::Mean => eta / m.max(1) as f64,
            Aggregation::Sum => eta,
        };
        for (b, s) in self.b.as_mut_slice().iter_mut().zip(&sum) {
            *b -= step * s;
        }
        self.round += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linalg::gaussian_matrix;
    use crate::rng::{stream, Purpose};

    use crate::data::under_parameterized::small_test_clients as data;

    fn params(head_steps: usize, scale: GradientScale) -> FedRepGdParams {
        FedRepGdParams {
            rounds: 2,
            eta: 0.03,
            head_steps,
            scale,
            aggregation: Aggregation::Mean,
        }
    }

    /// A random start for the small clients (d = 5, k = 2, M = 6): B (d×k)
    /// then W (k×M), from `seed`'s initialization stream.
    fn start(seed: u64) -> (DMatrix<f64>, DMatrix<f64>) {
        let mut rng = stream(seed, Purpose::Initialization, 0);
        let b = gaussian_matrix(5, 2, &mut rng);
        (b, gaussian_matrix(2, 6, &mut rng))
    }

    /// One round against the dense formulas: τ_h head steps from the previous
    /// head, one step on B at the new head, the mean of the clients' B_i.
    #[test]
    fn a_round_is_head_steps_then_the_mean_of_the_clients_representation_steps() {
        let data = data();
        let (d, k, m, n) = (5, 2, 6, 8);
        let (b, w) = start(3);
        for (steps, scale) in [(1, GradientScale::One), (3, GradientScale::Two)] {
            let c = scale.value();
            let mut run = FedRepGd::new(b.clone(), w.clone(), params(steps, scale));
            run.step(&data);
            let mut b_mean = DMatrix::zeros(d, k);
            let mut heads = DMatrix::zeros(k, m);
            for i in 0..m {
                let pts = data.user(i);
                let x = DMatrix::from_row_slice(n, d, pts.x); // N×d
                let y = nalgebra::DVector::from_column_slice(pts.y);
                let mut wi = w.column(i).into_owned();
                for _ in 0..steps {
                    let r = &x * (&b * &wi) - &y;
                    wi -= 0.03 * c / n as f64 * b.transpose() * x.transpose() * r;
                }
                let r = &x * (&b * &wi) - &y;
                let grad_b = c / n as f64 * x.transpose() * r * wi.transpose();
                b_mean += (&b - 0.03 * grad_b) / m as f64;
                heads.set_column(i, &wi);
            }
            assert!((run.b() - &b_mean).norm() < 1e-12, "τ_h = {steps}");
            assert!((run.w() - &heads).norm() < 1e-12, "τ_h = {steps}");
            assert_eq!(run.round(), 1);
        }
    }

    /// With the summed step the server moves B by η Σ_i ∇_B L_i: the clients'
    /// heads are the mean form's, B moves M times as far.
    #[test]
    fn the_summed_step_moves_b_m_times_as_far_as_the_mean() {
        let data = data();
        let (b, w) = start(5);
        let mut mean = FedRepGd::new(b.clone(), w.clone(), params(2, GradientScale::One));
        let summed_params = FedRepGdParams {
            aggregation: Aggregation::Sum,
            ..params(2, GradientScale::One)
        };
        let mut summed = FedRepGd::new(b.clone(), w, summed_params);
        mean.step(&data);
        summed.step(&data);
        assert_eq!(mean.w(), summed.w());
        let expected = &b + (mean.b() - &b) * 6.0;
        assert!((summed.b() - expected).norm() < 1e-12);
    }

    /// The heads persist across rounds: the second round starts from the
    /// first round's heads, not from a fresh fit.
    #[test]
    fn each_round_starts_from_the_previous_heads() {
        let data = data();
        let (b, w) = start(4);
        let mut two = FedRepGd::new(b.clone(), w, params(1, GradientScale::One));
        two.step(&data);
        let (b1, w1) = (two.b().clone(), two.w().clone());
        two.step(&data);
        let mut again = FedRepGd::new(b1, w1, params(1, GradientScale::One));
        again.step(&data);
        assert_eq!(two.b(), again.b());
        assert_eq!(two.w(), again.w());
        assert!(two.is_done());
        let before = two.b().clone();
        two.step(&data);
        assert_eq!(two.b(), &before, "no round past T");
    }
}
