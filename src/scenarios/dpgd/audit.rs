//! The audit of DP-GD (Bombari & Mondelli, Algorithm 1): a canary sample
//! whose clipped gradient is a "Dirac" of full norm C on the first feature
//! coordinate at every step, and the attack's score.
//!
//! The canary is a real record in feature space: φ₀ = e₁ and a label of
//! ∓10⁶, so its residual is huge and its gradient 2r₀φ₀ is clipped to exactly
//! ±C·e₁ at every step. Under replace-one (the run's relation), the pair is
//! sample 0 = the +C·e₁ canary ("in") against sample 0 = the −C·e₁ record
//! ("out"): their clipped gradients differ by 2C, the sensitivity the
//! accountant uses. The rest of the data is the preset's, fixed.
//!
//! White-box score (every θ_t is seen, as the accountant assumes): the
//! attacker knows the other samples, so from θ_t and θ_{t+1} it recovers
//! −(θ_{t+1} − θ_t)/η − ḡ_others(θ_t) = (canary's clipped gradient)/n + noise,
//! and sums its first coordinate over the steps: N(±TC/n, T·s²) with s the
//! noise std on ḡ, i.e. μ = √(ηT)/σ apart, exactly the accountant's μ.
//! Final-output score: −θ_T[0] (the canary pushes θ's first coordinate down).
//! The white-box score's threshold is its midpoint 0, fixed in advance.

use super::config::DpGdConfig;
use super::plan::{dpgd_private_run, DpGdPrivateRun};
use super::rows::Method;
use crate::algorithms::dp_gd_random_features::{clipped_mean_gradient, DpGd, DpGdParams};
use crate::data::random_features::{frozen_weights, RfFeatures, RfInputs};
use crate::rng::{combine, NoiseSource};
use crate::scenarios::audit::{
    Attack, AuditMode, AuditOptions, AuditTarget, AuditTargets, Claim, Sides,
};
use crate::scenarios::Checked;
use nalgebra::DVector;
use std::sync::Arc;

/// A DP-GD audit run in one wasm worker against the native estimate: measured
/// in the page on `dpgd-browser` (980 runs per side, a shared 2-core machine),
/// 0.41 to 0.64 of the estimate at the sweeps' 1.3, so about 0.7.
const WASM_AUDIT_FACTOR: f64 = 0.7;

/// The label that makes the canary's gradient clip at every step.
const CANARY_LABEL: f64 = 1e6;

/// The attack on one DP-GD release (one ε).
pub struct DpGdAudit {
    params: DpGdParams,
    data: Sides<Arc<RfFeatures>>,
    others: Arc<RfFeatures>,
    mode: AuditMode,
    noise: NoiseSource,
}

/// The features with sample 0 replaced by the record (φ₀ = scale·e₁, y₀ = label).
fn with_record(base: &RfFeatures, scale: f64, label: f64) -> RfFeatures {
    let mut f = base.clone();
    f.train.x.row_mut(0).fill(0.0);
    f.train.x[(0, 0)] = scale;
    f.train.y[0] = label;
    f.row_norms[0] = scale.abs();
    f
}

/// The audited releases of a DP-GD config: every ε, at the first width.
pub fn dpgd_audit_targets(c: &Checked<DpGdConfig>, options: &AuditOptions) -> AuditTargets {
    let p = c.p_grid[0];
    let inputs = RfInputs::generate(c.seed, c.d, c.n, 1, c.data_target());
    let w = frozen_weights(c.seed, p, c.d);
    let base = RfFeatures::build(&inputs, &w, c.activation);
    // In: a residual of +10⁶ (gradient +C·e₁); out: −10⁶ (gradient −C·e₁).
    let data = Sides {
        canary_in: Arc::new(with_record(&base, 1.0, -CANARY_LABEL)),
        canary_out: Arc::new(with_record(&base, 1.0, CANARY_LABEL)),
    };
    let others = Arc::new(with_record(&base, 0.0, 0.0));
    let (eta, steps) = c.schedule(p, c.time_scale);
    let sensitivity = 2.0 * c.clip(p) / c.n as f64;
    // One run: T steps of two products with Φ (the cost model's direct path),
    // and in white-box mode the known samples' clipped gradient at every step
    // too. One run alone, matrix-vector products, not the sweep's batched
    // runs: measured natively at 4.3 times the sweep's direct speed (p = 10
    // and 2000, n = 100).
    let seconds_per_run = options.mode.passes()
        * steps as f64
        * (4.0 * (c.n * p) as f64 + p as f64)
        * 4.3
        * super::cost::NATIVE.direct
        * 1e-9;
    let mut targets = Vec::new();
    for (e, &epsilon) in c.target.epsilons.iter().enumerate() {
        let DpGdPrivateRun {
            sigma,
            epsilon_spent,
            ..
        } = dpgd_private_run(c, p, epsilon).map_err(|e| vec![e])?;
        let mut claim = Claim::new(
            Method::DpGd.name(),
            options.broken.then_some("half the noise"),
            epsilon,
            epsilon_spent,
            c.delta,
        )
        .on_curve(format!("DP-GD, p = {p}"));
        // The release the sweep's plan states for this run, for the privacy statement.
        if let Ok(report) = crate::privacy::PrivacyReport::from_event(
            &super::plan::dpgd_event(sensitivity, sigma, eta, steps),
            c.delta,
            crate::privacy::Relation::ReplaceOne,
            c.calibration.into(),
            epsilon,
        ) {
            claim = claim.with_report("training sample", c.n, &report);
        }
        targets.push(AuditTarget {
            claim,
            seconds_per_run,
            wasm_factor: Some(WASM_AUDIT_FACTOR),
            // Matrix-vector products with Φ: the dense kind of work.
            work: crate::scenarios::machine::ProbeKind::Dense,
            attack: Box::new(DpGdAudit {
                params: DpGdParams {
                    eta,
                    steps,
                    clip: Some(c.clip(p)),
                    sigma: options.noise(sigma),
                },
                data: data.clone(),
                others: others.clone(),
                mode: options.mode,
                noise: NoiseSource::new(options.release_seed(0xA0D17, e)),
            }),
        });
    }
    Ok(targets)
}

impl Attack for DpGdAudit {
    /// White-box, the score is N(+m, v) in and N(−m, v) out (the ±C·e₁
    /// pair is symmetric): its midpoint 0 is the threshold, fixed before any
    /// run, so every run is judged. The final output's is not known in advance.
    fn fixed_threshold(&self) -> Option<f64> {
        (self.mode == AuditMode::WhiteBox).then_some(0.0)
    }

    fn canary(&self) -> String {
        "a training sample with φ = e₁ and label ∓10⁶, so its clipped gradient is ±C·e₁ at every step; replace-one: the +C·e₁ sample against the −C·e₁ one".into()
    }

    fn score(&mut self, canary_in: bool, run: u64) -> f64 {
        let data = self.data.get(canary_in).clone();
        let rng = self.noise.release(combine(run, canary_in as u64));
        let Ok(mut gd) = DpGd::new(data, self.params, rng) else {
            return f64::NAN;
        };
        match self.mode {
            AuditMode::Final => {
                while !gd.is_done() {
                    gd.step();
                }
                -gd.theta()[0]
            }
            AuditMode::WhiteBox => {
                let (n, p) = self.others.train.x.shape();
                let mut resid = DVector::zeros(n);
                let mut grad = DVector::zeros(p);
                let mut score = 0.0;
                while !gd.is_done() {
                    let before = gd.theta().clone();
                    gd.step();
                    clipped_mean_gradient(
                        &self.others.train.x,
                        &self.others.train.y,
                        &self.others.row_norms,
                        &before,
                        self.params.clip,
                        &mut resid,
                        &mut grad,
                    );
                    let step = gd.theta()[0] - before[0];
                    score += -step / self.params.eta - grad[0];
                }
                score
            }
        }
    }
}
