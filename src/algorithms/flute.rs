//! Linear FLUTE (Liu, Shen & Yang, ICML 2024, Algorithm 1) and DP-FLUTE, this
//! project's private extension of it (not in the paper).
//!
//! FLUTE, one round: every client i computes, on its whole local dataset at the
//! current (B, w_i), ∇_B L_i = (c/N) Σ_j x_j (x_jᵀBw_i − y_j) w_iᵀ and
//! ∇_w L_i = (c/N) Σ_j Bᵀx_j (x_jᵀBw_i − y_j); the server takes the data step
//! (eq. 5: a *sum* over clients) and the regularizer step (eq. 6), both at the
//! old point, so together they are one simultaneous step:
//!   B ← B − η_l Σ_i ∇_B L_i + η_r (2γ₁ B WWᵀ − 4γ₂ B BᵀB),
//!   w_i ← w_i − η_l ∇_w L_i + η_r (2γ₁ BᵀB w_i − 4γ₂ WWᵀ w_i).
//! c = 1 is the appendix's expanded update (the one the theory analyses); c = 2
//! is the literal derivative of L_i (docs/algorithms.md, FLUTE). B⁰ and W⁰ have
//! N(0, α²) entries; there is no QR and no spectral start.
//!
//! DP-FLUTE (this project's extension): the server's update reads the data only
//! through two sums over clients, S = Σ_i ∇_B L_i (d×k) and G = WWᵀ = Σ_i w_i w_iᵀ
//! (k×k); everything else it uses is B itself. Each client's contribution
//! v_i = (∇_B L_i, w_i w_iᵀ) is scaled to Frobenius norm ≤ ψ as one vector, and
//! the server releases S̃ = Σ clip(·) + N(0, σ²) and G̃ likewise (symmetrized
//! afterwards: post-processing). Adding or removing one client changes the
//! released pair by its clipped v_i, so the L2 sensitivity is ψ (2ψ when one
//! client is replaced), whatever its data: each round is one Gaussian release.
//! The heads are personal: w_i is updated on the client from the released
//! B, G̃ and its own data, and never released. A client whose contribution is
//! not finite (its data or its head) is left out of the round and counted.

use crate::data::shared_representation::{FederatedDataset, Part};
use crate::linalg::{axpy, dot, gaussian_matrix};
use crate::privacy::clipping::clip_factor;
use crate::privacy::gaussian::add_gaussian_noise;
use crate::rng::NoiseSource;
use nalgebra::DMatrix;
use rand::Rng;
use serde::{Deserialize, Serialize};

/// The constant c in front of the local gradients (spec of §2's factor 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum GradientScale {
    /// c = 1: the appendix's expanded update (what the theorems analyse).
    #[default]
    One,
    /// c = 2: the literal derivative of L_i = (1/N) Σ (xᵀBw_i − y)².
    Two,
}

impl GradientScale {
    pub fn value(self) -> f64 {
        match self {
            GradientScale::One => 1.0,
            GradientScale::Two => 2.0,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct FluteParams {
    pub rounds: usize,
    /// η_l, the data step.
    pub eta_local: f64,
    /// η_r, the regularizer step.
    pub eta_reg: f64,
    pub gamma1: f64,
    pub gamma2: f64,
    pub scale: GradientScale,
    /// DP-FLUTE: ψ, the Frobenius clip of each client's contribution (None: FLUTE).
    pub clip: Option<f64>,
    /// DP-FLUTE: σ, the noise on every entry of the released sums.
    pub sigma: f64,
}

/// A FLUTE run as a state machine: `step()` is one communication round.
#[derive(Clone, Debug)]
pub struct Flute {
    params: FluteParams,
    b: DMatrix<f64>,
    w: DMatrix<f64>,
    round: usize,
    noise: NoiseSource,
    clipped_fraction: f64,
    /// Client contributions left out of the clipped sums as not finite, over all rounds.
    skipped: usize,
    /// The last round's (noisy, when private) S.
    released: DMatrix<f64>,
}

impl Flute {
    /// B⁰ (d×k) and W⁰ (k×M) with N(0, α²) entries, drawn from `init`.
    pub fn new(
        data: &FederatedDataset,
        alpha: f64,
        params: FluteParams,
        init: &mut impl Rng,
        noise: impl Into<NoiseSource>,
    ) -> Self {
        let (d, k, m) = (data.d(), data.k(), data.n());
        let b = gaussian_matrix(d, k, init) * alpha;
        let w = gaussian_matrix(k, m, init) * alpha;
        Flute {
            params,
            b,
            w,
            round: 0,
            noise: noise.into(),
            clipped_fraction: 0.0,
            skipped: 0,
            released: DMatrix::zeros(0, 0),
        }
    }

    /// A fresh noise stream (an audit replays one start with new noise).
    pub fn set_noise(&mut self, noise: NoiseSource) {
        self.noise = noise;
    }

    factored_run_accessors!();

    /// Fraction of clients whose contribution was clipped in the last round.
    pub fn clipped_fraction(&self) -> f64 {
        self.clipped_fraction
    }

    /// Client contributions left out of DP-FLUTE's sums because they were not
    /// finite, summed over the rounds so far (each counted once per round).
    pub fn skipped(&self) -> usize {
        self.skipped
    }

    /// Whether every entry of B and W is finite.
    pub fn is_finite(&self) -> bool {
        self.b.iter().chain(self.w.iter()).all(|x| x.is_finite())
    }

    /// The clients' side of a round for `users`: the (clipped) sums S and G
    /// the server reads, before any noise, and each client's own ∇_w L_i
    /// (column i; zero for clients not in `users`).
    pub fn client_sums(
        &self,
        data: &FederatedDataset,
        users: impl Iterator<Item = usize>,
    ) -> ClientSums {
        let (d, k, m) = (data.d(), data.k(), data.n());
        let c = self.params.scale.value();
        let b_cols = self.b.as_slice();
        let mut sums = ClientSums {
            s: vec![0.0; d * k],
            g: DMatrix::zeros(k, k),
            grad_w: DMatrix::zeros(k, m),
            clipped: 0,
            skipped: 0,
        };
        let mut bw = vec![0.0; d];
        let mut g = vec![0.0; d];
        data.for_each_user(users, Part::Train, |user| {
            let i = user.index;
            let pts = user.train;
            let n = pts.len().max(1) as f64;
            let wi: Vec<f64> = self.w.column(i).iter().copied().collect();
            bw.iter_mut().for_each(|v| *v = 0.0);
            for q in 0..k {
                axpy(wi[q], &b_cols[q * d..(q + 1) * d], &mut bw);
            }
            // g = (c/N) Σ_j x_j (x_jᵀ B w_i − y_j): ∇_B L_i = g w_iᵀ, ∇_w L_i = Bᵀ g.
            g.iter_mut().for_each(|v| *v = 0.0);
            for j in 0..pts.len() {
                let x = &pts.x[j * d..(j + 1) * d];
                axpy(c * (dot(x, &bw) - pts.y[j]) / n, x, &mut g);
            }
            let w2 = dot(&wi, &wi);
            let factor = match self.params.clip {
                // ‖(g w_iᵀ, w_i w_iᵀ)‖_F² = ‖g‖²‖w_i‖² + ‖w_i‖⁴.
                Some(psi) => {
                    let norm = (dot(&g, &g) * w2 + w2 * w2).sqrt();
                    if !norm.is_finite() {
                        // A non-finite contribution is left out whole (scaling
                        // it by 0 would still put 0·∞ = NaN into the sums), and
                        // the client sits the round out: its head is not moved
                        // by its own gradient either.
                        sums.skipped += 1;
                        return;
                    }
                    clip_factor(norm, psi)
                }
                None => 1.0,
            };
            for q in 0..k {
                sums.grad_w[(q, i)] = dot(&b_cols[q * d..(q + 1) * d], &g);
            }
            if factor < 1.0 {
                sums.clipped += 1;
            }
            for q in 0..k {
                axpy(factor * wi[q], &g, &mut sums.s[q * d..(q + 1) * d]);
                for r in 0..k {
                    sums.g[(q, r)] += factor * wi[q] * wi[r];
                }
            }
        });
        sums
    }

    /// One round of Algorithm 1 (steps 2–4), privately when a clip is set.
    pub fn step(&mut self, data: &FederatedDataset) {
        if self.is_done() {
            return;
        }
        let sums = self.client_sums(data, 0..data.n());
        self.apply_sums(sums);
    }

    /// The server's side of a round from the clients' sums: the Gaussian
    /// release of (S, G) when private, then eq. 5 and 6 at the old point. An
    /// audit calls it with a canary's contribution added to the sums.
    pub fn apply_sums(&mut self, sums: ClientSums) {
        if self.is_done() {
            return;
        }
        let (d, k, m) = (self.b.nrows(), self.b.ncols(), self.w.ncols());
        let p = self.params.clone();
        let ClientSums {
            mut s,
            g: mut g_sum,
            grad_w,
            clipped,
            skipped,
        } = sums;
        self.skipped += skipped;
        if p.clip.is_some() {
            // One Gaussian release per round: (S, G) with N(0, σ²) on every entry.
            let mut rng = self.noise.release(self.round as u64);
            add_gaussian_noise(&mut s, p.sigma, &mut rng);
            add_gaussian_noise(g_sum.as_mut_slice(), p.sigma, &mut rng);
            g_sum = (&g_sum + g_sum.transpose()) * 0.5;
            self.clipped_fraction = clipped as f64 / m.max(1) as f64;
        }
        let s = DMatrix::from_column_slice(d, k, &s);
        let btb = self.b.transpose() * &self.b;
        // Eq. 5 and 6 at the old point: one simultaneous step.
        let b_new = &self.b - p.eta_local * &s
            + p.eta_reg * (2.0 * p.gamma1 * &self.b * &g_sum - 4.0 * p.gamma2 * &self.b * &btb);
        let w_new = &self.w - p.eta_local * &grad_w
            + p.eta_reg * (2.0 * p.gamma1 * &btb * &self.w - 4.0 * p.gamma2 * &g_sum * &self.w);
        self.b = b_new;
        self.w = w_new;
        self.released = s;
        self.round += 1;
    }

    /// The last round's S̃ (d×k): with a clip, the Gaussian release the
    /// server publishes; an audit's white-box attacker reads it.
    pub fn last_release(&self) -> &DMatrix<f64> {
        &self.released
    }
}

/// What the server reads from the clients in one round (before noise).
#[derive(Clone, Debug)]
pub struct ClientSums {
    /// S = Σ_i f_i ∇_B L_i, d×k column-major.
    pub s: Vec<f64>,
    /// G = Σ_i f_i w_i w_iᵀ (= WWᵀ when nothing is clipped).
    pub g: DMatrix<f64>,
    /// ∇_w L_i in column i (each client's own; never released).
    pub grad_w: DMatrix<f64>,
    /// Clients whose contribution was scaled down (f_i < 1).
    pub clipped: usize,
    /// Clients left out because their contribution was not finite (private only).
    pub skipped: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::under_parameterized::small_test_clients as data;
    use crate::rng::{stream, Purpose};

    /// One-round FLUTE (step 0.5, no noise, clip `clip`) from start seed 1.
    fn test_flute(data: &FederatedDataset, clip: Option<f64>) -> Flute {
        let init = &mut stream(1, Purpose::Initialization, 0);
        Flute::new(data, 0.5, params(clip, 0.0), init, 1)
    }

    fn params(clip: Option<f64>, sigma: f64) -> FluteParams {
        FluteParams {
            rounds: 1,
            eta_local: 0.03,
            eta_reg: 0.03,
            gamma1: 0.25,
            gamma2: 0.125,
            scale: GradientScale::One,
            clip,
            sigma,
        }
    }

    /// One round against the dense formulas of Algorithm 1, eq. 5–6.
    #[test]
    fn a_round_is_the_simultaneous_step_of_equations_5_and_6() {
        let data = data();
        let mut f = test_flute(&data, None);
        let (b, w) = (f.b().clone(), f.w().clone());
        f.step(&data);
        let (d, k, m) = (5, 2, 6);
        let mut gb = DMatrix::zeros(d, k);
        let mut gw = DMatrix::zeros(k, m);
        for i in 0..m {
            let pts = data.user(i);
            let x = DMatrix::from_row_slice(8, d, pts.x); // N×d
            let y = nalgebra::DVector::from_column_slice(pts.y);
            let r = &x * (&b * w.column(i)) - y;
            let g = x.transpose() * r / 8.0;
            gb += &g * w.column(i).transpose();
            gw.set_column(i, &(b.transpose() * &g));
        }
        let eb = &b - 0.03 * &gb
            + 0.03 * (0.5 * &b * &w * w.transpose() - 0.5 * &b * b.transpose() * &b);
        let ew = &w - 0.03 * &gw
            + 0.03 * (0.5 * b.transpose() * &b * &w - 0.5 * &w * w.transpose() * &w);
        assert!((f.b() - eb).norm() < 1e-12);
        assert!((f.w() - ew).norm() < 1e-12);
    }

    /// Replacing one client's data by anything moves the noiseless released
    /// pair (S, G) by at most 2ψ in Frobenius norm, and removing the client by
    /// at most ψ: the sensitivity the accountant is given.
    #[test]
    fn one_client_moves_the_released_sums_by_at_most_the_clip() {
        let psi = 0.05;
        let base = data();
        let f = test_flute(&base, Some(psi));
        let distance = |a: &ClientSums, b: &ClientSums| {
            let ds: f64 = a.s.iter().zip(&b.s).map(|(x, y)| (x - y) * (x - y)).sum();
            (ds + (&a.g - &b.g).norm_squared()).sqrt()
        };
        let s0 = f.client_sums(&base, 0..6);
        let mut largest: f64 = 0.0;
        for wild in [1e3, -1e6, 0.0, 1e-3] {
            let mut other = base.clone();
            for v in other.x[0..8 * 5].iter_mut() {
                *v *= wild;
            }
            for v in other.y[0..8].iter_mut() {
                *v = -wild;
            }
            let s1 = f.client_sums(&other, 0..6);
            largest = largest.max(distance(&s0, &s1));
        }
        assert!(largest <= 2.0 * psi * (1.0 + 1e-12), "{largest}");
        assert!(largest > psi, "the clip binds in this test: {largest}");
        let removed = f.client_sums(&base, 1..6);
        assert!(distance(&s0, &removed) <= psi * (1.0 + 1e-12));
    }

    /// A client whose data are not finite is left out of DP-FLUTE's sums
    /// (clip factor 0 would still give 0·∞ = NaN) and counted; the sums are
    /// those of the other clients, bit for bit.
    #[test]
    fn a_non_finite_client_is_skipped_and_counted() {
        let base = data();
        let mut f = test_flute(&base, Some(0.05));
        let without = f.client_sums(&base, 1..6);
        for wild in [f64::INFINITY, f64::NAN, 1e300] {
            let mut other = base.clone();
            other.x[3] = wild;
            other.y[0] = -wild;
            let sums = f.client_sums(&other, 0..6);
            assert_eq!(sums.skipped, 1, "x = {wild}");
            assert_eq!(sums.s, without.s, "x = {wild}");
            assert_eq!(sums.g, without.g, "x = {wild}");
            assert!(sums.grad_w.column(0).iter().all(|v| *v == 0.0));
            assert_eq!(sums.grad_w.columns(1, 5), without.grad_w.columns(1, 5));
        }
        assert_eq!(f.client_sums(&base, 0..6).skipped, 0);
        let mut other = base.clone();
        other.y[0] = f64::NAN;
        let sums = f.client_sums(&other, 0..6);
        f.apply_sums(sums);
        assert_eq!(f.skipped(), 1);
        assert!(f.is_finite());
    }
}
