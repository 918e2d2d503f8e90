//! DP-GD on random features, exactly as Algorithm 1 of "Privacy for Free in the
//! Overparameterized Regime" (Bombari & Mondelli, Algorithm 1, §3):
//!
//! ```text
//! θ₀ = 0
//! for t in 1..=T:
//!     r_i = φ_iᵀθ − y_i,   s_i = min(1, C / (2|r_i| ‖φ_i‖))     // per-sample clip factor
//!     ḡ   = (2/n) Φᵀ(r ⊙ s)                                    // = mean of clipped g_i = 2 r_i φ_i
//!     θ  ← θ − η ḡ + √η · (2C/n) · σ · N(0, I_p)
//! ```
//!
//! Full batch, no subsampling, no regularization, last iterate. The noise
//! multiplier σ is an *input*: the privacy accountant (`crate::privacy`) decides
//! it; nothing here knows about ε or δ. Per-coordinate noise std per step is
//! √η·(2C/n)·σ; with the paper's σ = √(ηT)·√(8 ln(1/δ))/ε this is η·(2C/n)·√T·…
//!
//! Per-sample gradients are never materialized: g_i = 2 r_i φ_i has norm
//! 2|r_i|‖φ_i‖, so clipping is a scale on the residual and a step costs two
//! matrix–vector products with Φ (O(np)), with ‖φ_i‖ precomputed.
//!
//! Clip off (`clip = None`) and σ = 0 give plain full-batch GD on L(θ) =
//! (1/n) Σ (φ_iᵀθ − y_i)².

use std::sync::Arc;

use crate::rng::NoiseRng;
use nalgebra::{DMatrix, DVector};
use thiserror::Error;

use crate::data::random_features::RfFeatures;
use crate::privacy::clipping::clip_factor;
use crate::privacy::gaussian::add_gaussian_noise;

/// Hyperparameters of one DP-GD run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DpGdParams {
    /// Step size η.
    pub eta: f64,
    /// Number of full-batch steps T.
    pub steps: usize,
    /// Per-sample gradient clip C; `None` = no clipping.
    pub clip: Option<f64>,
    /// Noise multiplier σ (from the accountant); 0 = no noise.
    pub sigma: f64,
}

impl DpGdParams {
    /// Plain GD: no clipping, no noise.
    pub fn plain(eta: f64, steps: usize) -> Self {
        DpGdParams {
            eta,
            steps,
            clip: None,
            sigma: 0.0,
        }
    }

    /// Per-coordinate std of the noise added to θ in one step: √η·(2C/n)·σ.
    pub fn noise_std(&self, n: usize) -> f64 {
        match self.clip {
            Some(c) if self.sigma > 0.0 => self.eta.sqrt() * 2.0 * c / n as f64 * self.sigma,
            _ => 0.0,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Error)]
pub enum DpGdError {
    #[error("step size η must be positive and finite (got {0})")]
    BadStepSize(f64),
    #[error("clip C must be positive and finite (got {0})")]
    BadClip(f64),
    #[error("noise multiplier σ must be ≥ 0 and finite (got {0})")]
    BadSigma(f64),
    #[error("noise needs a clip: without clipping the sensitivity is unbounded")]
    NoiseWithoutClip,
    #[error("no training samples")]
    NoSamples,
}

/// The clipped mean gradient ḡ = (2/n) Φᵀ(r ⊙ s) at θ, written into `grad`.
///
/// `resid` (length n) is scratch: on return it holds r ⊙ s. Returns the number of
/// samples whose gradient was clipped (s_i < 1) and the training loss
/// (1/n)‖r‖² at θ. No allocation.
pub fn clipped_mean_gradient(
    phi: &DMatrix<f64>,
    y: &DVector<f64>,
    row_norms: &[f64],
    theta: &DVector<f64>,
    clip: Option<f64>,
    resid: &mut DVector<f64>,
    grad: &mut DVector<f64>,
) -> (usize, f64) {
    let n = phi.nrows();
    resid.copy_from(y);
    resid.gemv(1.0, phi, theta, -1.0); // r = Φθ − y
    let loss = resid.norm_squared() / n as f64;
    let mut clipped = 0;
    if let Some(c) = clip {
        for (r, &norm) in resid.iter_mut().zip(row_norms) {
            let s = clip_factor(2.0 * r.abs() * norm, c);
            if s < 1.0 {
                clipped += 1;
                // A non-finite gradient gets factor 0 and is dropped whole.
                *r = if s == 0.0 { 0.0 } else { *r * s };
            }
        }
    }
    grad.gemv_tr(2.0 / n as f64, phi, resid, 0.0);
    (clipped, loss)
}

/// What one DP-GD step computed, stage by stage ([`DpGd::step_in_slow_motion`]).
#[derive(Clone, Debug)]
pub struct DpGdStep {
    /// θ before the step.
    pub theta_before: DVector<f64>,
    /// r_i = φ_iᵀθ − y_i of every training sample.
    pub residuals: Vec<f64>,
    /// ‖g_i‖ = 2|r_i|‖φ_i‖ of every sample's gradient before clipping.
    pub raw_norms: Vec<f64>,
    /// Each sample's clip factor min(1, C/‖g_i‖) (1 without a clip; below 1:
    /// clipped).
    pub factors: Vec<f64>,
    /// ḡ = (1/n) Σ clip(g_i): what the step moves along, before noise.
    pub mean_gradient: Vec<f64>,
    /// The noise added to θ (per coordinate N(0, (√η·2C/n·σ)²)).
    pub noise: Vec<f64>,
    /// Training loss at θ before the step.
    pub loss_before: f64,
}

/// One DP-GD run as a state machine: `step()` until `is_done()`.
#[derive(Clone, Debug)]
pub struct DpGd {
    data: Arc<RfFeatures>,
    params: DpGdParams,
    theta: DVector<f64>,
    resid: DVector<f64>,
    grad: DVector<f64>,
    rng: NoiseRng,
    noise_std: f64,
    t: usize,
    last_clipped: usize,
    clipped_total: usize,
}

impl DpGd {
    /// Starts at θ₀ = 0. `noise_rng` supplies the Gaussian noise (one stream per run).
    pub fn new(
        data: Arc<RfFeatures>,
        params: DpGdParams,
        noise_rng: NoiseRng,
    ) -> Result<Self, DpGdError> {
        if !(params.eta.is_finite() && params.eta > 0.0) {
            return Err(DpGdError::BadStepSize(params.eta));
        }
        if let Some(c) = params.clip {
            if !(c.is_finite() && c > 0.0) {
                return Err(DpGdError::BadClip(c));
            }
        }
        if !(params.sigma.is_finite() && params.sigma >= 0.0) {
            return Err(DpGdError::BadSigma(params.sigma));
        }
        if params.sigma > 0.0 && params.clip.is_none() {
            return Err(DpGdError::NoiseWithoutClip);
        }
        let (n, p) = data.train.x.shape();
        if n == 0 {
            return Err(DpGdError::NoSamples);
        }
        Ok(DpGd {
            noise_std: params.noise_std(n),
            theta: DVector::zeros(p),
            resid: DVector::zeros(n),
            grad: DVector::zeros(p),
            rng: noise_rng,
            t: 0,
            last_clipped: 0,
            clipped_total: 0,
            data,
            params,
        })
    }

    /// One full-batch step (does nothing once T steps are done).
    pub fn step(&mut self) {
        if self.is_done() {
            return;
        }
        let (clipped, _train_loss) = self.clipped_gradient();
        self.take_noisy_step(clipped, None);
    }

    /// ḡ at θ into `grad` ([`clipped_mean_gradient`]): the samples clipped
    /// and the training loss.
    fn clipped_gradient(&mut self) -> (usize, f64) {
        let data = &*self.data;
        clipped_mean_gradient(
            &data.train.x,
            &data.train.y,
            &data.row_norms,
            &self.theta,
            self.params.clip,
            &mut self.resid,
            &mut self.grad,
        )
    }

    /// θ ← θ + (−η ḡ + N(0, σ² I)) with ḡ in `grad`: the Gaussian mechanism
    /// on the step. `noise`, when asked, receives the noise drawn (the same
    /// draws, in the same order, added the same way).
    fn take_noisy_step(&mut self, clipped: usize, noise: Option<&mut Vec<f64>>) {
        self.grad.iter_mut().for_each(|g| *g *= -self.params.eta);
        match noise {
            None => add_gaussian_noise(self.grad.as_mut_slice(), self.noise_std, &mut self.rng),
            Some(drawn) => {
                drawn.clear();
                drawn.resize(self.grad.len(), 0.0);
                add_gaussian_noise(drawn, self.noise_std, &mut self.rng);
                // 0 + σz is σz exactly, so g + (0 + σz) is the sum `step` forms.
                for (g, z) in self.grad.iter_mut().zip(drawn.iter()) {
                    *g += z;
                }
            }
        }
        self.theta += &self.grad;
        self.t += 1;
        self.last_clipped = clipped;
        self.clipped_total += clipped;
    }

    /// One step as [`step`](Self::step) takes it (the same θ after it, bit
    /// for bit), with what each of its stages computed, for a view of the
    /// mechanism in slow motion: every sample's gradient g_i = 2 r_i φ_i
    /// before clipping (its norm and its clip factor), the clipped mean ḡ,
    /// the noise added to θ, and θ before and after. None once T steps are done.
    pub fn step_in_slow_motion(&mut self) -> Option<DpGdStep> {
        if self.is_done() {
            return None;
        }
        let data = &*self.data;
        let theta_before = self.theta.clone();
        // The raw residuals r = Φθ − y, as clipped_mean_gradient forms them.
        let mut raw = data.train.y.clone();
        raw.gemv(1.0, &data.train.x, &self.theta, -1.0);
        let raw_norms: Vec<f64> = raw
            .iter()
            .zip(&data.row_norms)
            .map(|(r, norm)| 2.0 * r.abs() * norm)
            .collect();
        let factors: Vec<f64> = match self.params.clip {
            Some(c) => raw_norms.iter().map(|&g| clip_factor(g, c)).collect(),
            None => vec![1.0; raw_norms.len()],
        };
        let (clipped, loss_before) = self.clipped_gradient();
        let mean_gradient = self.grad.as_slice().to_vec();
        let mut noise = Vec::new();
        self.take_noisy_step(clipped, Some(&mut noise));
        Some(DpGdStep {
            theta_before,
            residuals: raw.as_slice().to_vec(),
            raw_norms,
            factors,
            mean_gradient,
            noise,
            loss_before,
        })
    }

    /// Runs up to `max_steps` more steps; returns how many were taken.
    pub fn advance(&mut self, max_steps: usize) -> usize {
        let before = self.t;
        for _ in 0..max_steps {
            if self.is_done() {
                break;
            }
            self.step();
        }
        self.t - before
    }

    pub fn is_done(&self) -> bool {
        self.t >= self.params.steps
    }

    pub fn theta(&self) -> &DVector<f64> {
        &self.theta
    }

    pub fn params(&self) -> &DpGdParams {
        &self.params
    }

    pub fn data(&self) -> &RfFeatures {
        &self.data
    }

    pub fn steps_done(&self) -> usize {
        self.t
    }

    /// Per-coordinate std of the noise added per step, √η·(2C/n)·σ.
    pub fn noise_std(&self) -> f64 {
        self.noise_std
    }

    /// Training loss at the current θ (one extra O(np) product).
    pub fn train_loss(&self) -> f64 {
        self.data.train_loss(&self.theta)
    }

    /// Test loss at the current θ.
    pub fn test_loss(&self) -> f64 {
        self.data.test_loss(&self.theta)
    }

    /// Fraction of samples clipped in the last step (0 before the first step).
    pub fn clipped_fraction(&self) -> f64 {
        self.last_clipped as f64 / self.data.n() as f64
    }

    /// Fraction of (sample, step) pairs clipped so far.
    pub fn mean_clipped_fraction(&self) -> f64 {
        if self.t == 0 {
            0.0
        } else {
            self.clipped_total as f64 / (self.t * self.data.n()) as f64
        }
    }
}

/// Several runs of Algorithm 1 on the same features, stepped together: each
/// step is two matrix–matrix products with Φ (ΦΘ and Φᵀ(R ⊙ S), Θ = the runs'
/// θ as columns) instead of two matrix–vector products per run, so Φ is read
/// once per step for all of them. Each run keeps its own parameters and noise
/// stream (drawn in the same order as [`DpGd`]), so it is the same algorithm
/// with the same noise; only the rounding of the products differs.
pub struct DpGdBatch {
    data: Arc<RfFeatures>,
    runs: Vec<BatchRun>,
}

struct BatchRun {
    params: DpGdParams,
    noise_std: f64,
    rng: NoiseRng,
    theta: Vec<f64>,
    t: usize,
    clipped_total: usize,
}

impl DpGdBatch {
    /// Starts every run at θ₀ = 0; each entry is (parameters, noise stream).
    pub fn new(
        data: Arc<RfFeatures>,
        runs: Vec<(DpGdParams, NoiseRng)>,
    ) -> Result<Self, DpGdError> {
        let (n, p) = data.train.x.shape();
        let mut out = Vec::with_capacity(runs.len());
        for (params, rng) in runs {
            // The same checks as a single run.
            DpGd::new(data.clone(), params, rng.clone())?;
            out.push(BatchRun {
                noise_std: params.noise_std(n),
                params,
                rng,
                theta: vec![0.0; p],
                t: 0,
                clipped_total: 0,
            });
        }
        Ok(DpGdBatch { data, runs: out })
    }

    pub fn is_done(&self) -> bool {
        self.runs.iter().all(|r| r.t >= r.params.steps)
    }

    /// The largest step count done by any run, and the largest T.
    pub fn progress(&self) -> (usize, usize) {
        self.runs
            .iter()
            .fold((0, 0), |(d, t), r| (d.max(r.t), t.max(r.params.steps)))
    }

    /// One step of every unfinished run.
    pub fn step(&mut self) {
        let data = &*self.data;
        let (n, p) = data.train.x.shape();
        let active: Vec<usize> = (0..self.runs.len())
            .filter(|&j| self.runs[j].t < self.runs[j].params.steps)
            .collect();
        if active.is_empty() {
            return;
        }
        let b = active.len();
        let mut theta = Vec::with_capacity(p * b);
        for &j in &active {
            theta.extend_from_slice(&self.runs[j].theta);
        }
        // R = ΦΘ − Y, then each run's clip factors (Algorithm 1's per-sample clipping).
        let mut resid = vec![0.0; n * b];
        crate::dense::gemm(
            &mut resid,
            n,
            b,
            data.train.x.as_slice(),
            p,
            &theta,
            1.0,
            false,
        );
        for (slot, &j) in active.iter().enumerate() {
            let run = &mut self.runs[j];
            let r = &mut resid[slot * n..(slot + 1) * n];
            for (ri, yi) in r.iter_mut().zip(data.train.y.iter()) {
                *ri -= yi;
            }
            if let Some(c) = run.params.clip {
                for (ri, &norm) in r.iter_mut().zip(&data.row_norms) {
                    let s = clip_factor(2.0 * ri.abs() * norm, c);
                    if s < 1.0 {
                        run.clipped_total += 1;
                        // A non-finite gradient gets factor 0 and is dropped whole.
                        *ri = if s == 0.0 { 0.0 } else { *ri * s };
                    }
                }
            }
        }
        // Ḡ = (2/n) Φᵀ(R ⊙ S), then θ ← θ − ηḡ + N(0, std² I) per run.
        let mut grad = vec![0.0; p * b];
        crate::dense::gemm(
            &mut grad,
            p,
            b,
            crate::dense::Left::Transposed(data.train.x.as_slice()),
            n,
            &resid,
            2.0 / n as f64,
            false,
        );
        for (slot, &j) in active.iter().enumerate() {
            let run = &mut self.runs[j];
            let g = &mut grad[slot * p..(slot + 1) * p];
            g.iter_mut().for_each(|x| *x *= -run.params.eta);
            add_gaussian_noise(g, run.noise_std, &mut run.rng);
            for (t, x) in run.theta.iter_mut().zip(g.iter()) {
                *t += x;
            }
            run.t += 1;
        }
    }

    /// (train loss, test loss, fraction of (sample, step) pairs clipped, noise
    /// std) of each run, in the order given.
    pub fn results(&self) -> Vec<(f64, f64, f64, f64)> {
        let n = self.data.n();
        self.runs
            .iter()
            .map(|r| {
                let theta = DVector::from_column_slice(&r.theta);
                let clipped = if r.t == 0 {
                    0.0
                } else {
                    r.clipped_total as f64 / (r.t * n) as f64
                };
                (
                    self.data.train_loss(&theta),
                    self.data.test_loss(&theta),
                    clipped,
                    r.noise_std,
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::random_features::{Activation, Target};
    use crate::rng::{stream, Purpose};

    fn problem(p: usize) -> Arc<RfFeatures> {
        Arc::new(RfFeatures::generate(
            11,
            8,
            30,
            20,
            p,
            Activation::Tanh,
            Target::Sign,
        ))
    }

    #[test]
    fn per_sample_scale_equals_the_explicit_clipped_sum() {
        let data = problem(50);
        let (n, p) = data.train.x.shape();
        let theta = DVector::from_fn(p, |j, _| 0.05 * ((j as f64) * 0.7).sin());
        for &clip in &[0.3, 2.0, 1e6] {
            let mut resid = DVector::zeros(n);
            let mut grad = DVector::zeros(p);
            let (clipped, _) = clipped_mean_gradient(
                &data.train.x,
                &data.train.y,
                &data.row_norms,
                &theta,
                Some(clip),
                &mut resid,
                &mut grad,
            );
            // Explicit: materialize each g_i = 2 r_i φ_i, clip to norm C, average.
            let mut explicit = DVector::zeros(p);
            let mut count = 0;
            for i in 0..n {
                let phi_i = data.train.x.row(i).transpose();
                let r = phi_i.dot(&theta) - data.train.y[i];
                let mut g = phi_i * (2.0 * r);
                let norm = g.norm();
                if norm > clip {
                    g *= clip / norm;
                    count += 1;
                }
                explicit += g / n as f64;
            }
            assert_eq!(clipped, count);
            assert!(
                (&grad - &explicit).norm() < 1e-12 * (1.0 + explicit.norm()),
                "clip {clip}"
            );
        }
    }

    #[test]
    fn noise_std_follows_the_algorithm() {
        let params = DpGdParams {
            eta: 0.01,
            steps: 10,
            clip: Some(3.0),
            sigma: 2.0,
        };
        assert!((params.noise_std(100) - 0.1 * 2.0 * 3.0 / 100.0 * 2.0).abs() < 1e-15);
        let data = problem(10);
        let bad = DpGdParams {
            clip: None,
            ..params
        };
        assert_eq!(
            DpGd::new(data, bad, stream(1, Purpose::MechanismNoise, 0)).unwrap_err(),
            DpGdError::NoiseWithoutClip
        );
    }

    #[test]
    fn noise_has_the_stated_per_coordinate_std() {
        // Two runs that differ only by the noise stream take the same gradient
        // step, so after one step their difference is √2·std·N(0, I_p).
        let data = problem(4000);
        let params = DpGdParams {
            eta: 0.5,
            steps: 1,
            clip: Some(1.0),
            sigma: 3.0,
        };
        let mut a = DpGd::new(data.clone(), params, stream(1, Purpose::MechanismNoise, 0)).unwrap();
        let mut b = DpGd::new(data, params, stream(1, Purpose::MechanismNoise, 1)).unwrap();
        a.step();
        b.step();
        let diff = a.theta() - b.theta();
        let emp = (diff.norm_squared() / diff.len() as f64 / 2.0).sqrt();
        let want = params.noise_std(30);
        assert!(
            (emp / want - 1.0).abs() < 0.05,
            "empirical {emp}, stated {want}"
        );
    }
}
