//! The audit of DP-RGrad's iterations (Zha 2024, Algorithm 2), the paper's
//! variant and the clipped one (both on every config, the config's own
//! variant first): a canary sample, and the attack's score.
//!
//! The canary is sample 0 with X₀ = a·E₁₁ (one entry, a = 10) and y₀ = ∓b
//! (b = 10⁴): its residual is ±(a·M₁₁ + b) ≈ ±b, so its gradient is ≈ ±ab·E₁₁ at
//! every iteration. "In" and "out" share X₀ and differ in y₀ only, so the pair
//! is neighbouring under the run's relation, strong DP (replace one (X_i, y_i))
//! or weak DP (neighbours share X_i). In the clipped variant its clipped
//! tangent gradients are ±τ along P_T(E₁₁), 2τ apart: the sensitivity 2ητ/n of
//! the iterations under either relation. Every run starts from the same point,
//! the spectral estimate of the other samples (which never sees the canary):
//! the audit attacks the l* iterations, and is compared with the ε those
//! iterations spend by the exact accountant. The canary needs the samples, so
//! the audit draws them directly whichever path (`data`) the sweep uses: both
//! have the same distribution.
//!
//! White-box score (each iteration's Gaussian release P_T(−ηG_l + N_l) is seen):
//! the attacker knows the other samples and the iterate, so it removes their
//! part and reads the rest along the canary's direction D_l = P_T(E₁₁)/‖P_T(E₁₁)‖.
//! In the clipped variant that is ±ητ/n + ⟨N_l, D_l⟩ at every iteration: the canary's
//! tangent gradient (⟨X₀, M⟩ − y₀)·10·P_T(E₁₁), with a residual a·M₁₁ ± b ≈ ±10⁴,
//! clips to ±τ·D_l on both sides (unless ‖P_T(E₁₁)‖ were under τ/10⁵), so the two
//! sides are mirror images and the midpoint 0 is the threshold, fixed before any run
//! (every run judged; were a side ever unclipped the threshold stays valid, only less
//! powerful). The paper's variant does not clip: its residual ±(a·M₁₁ + b) is not
//! symmetric, and its threshold is chosen on a held-out half.
//!
//! The paper's sensitivities are high-probability bounds without clipping:
//! such a sample is unlikely under the Gaussian design, but nothing excludes
//! it, and the audit shows what it reveals (its claim is marked
//! [`Claim::high_probability`](crate::scenarios::audit::Claim::high_probability)). The clipped variant bounds it.

use super::config::{PrivacyKind, TraceConfig, Variant};
use super::plan::plan;
use crate::algorithms::dp_rgrad::{step_gradient, tangent_projection, RGrad, RGradParams};
use crate::algorithms::dp_spectral_init::spectral_estimate;
use crate::data::trace_regression::{DataPath, TraceData};
use crate::privacy::gdp::epsilon_for_mu;
use crate::rng::{combine, NoiseSource};
use crate::scenarios::adapter::AuditSizeBy;
use crate::scenarios::audit::{
    accountant_refuses, separated_runs_wanted, Attack, AuditMode, AuditOptions, AuditTarget,
    AuditTargets, Claim, Sides,
};
use crate::scenarios::error::ConfigError;
use crate::scenarios::Checked;
use nalgebra::DMatrix;
use std::sync::Arc;

const CANARY_X: f64 = 10.0;
const CANARY_Y: f64 = 1e4;
/// Most bytes of samples an audit holds (three copies of the first n
/// samples: the canary in, out, and the others alone), as the sweep's limit
/// for drawing them directly.
const MAX_AUDIT_BYTES: f64 = 1.0e9;

/// The attack on one DP-RGrad release (one ε).
pub struct TraceAudit {
    params: RGradParams,
    r: usize,
    privacy: PrivacyKind,
    data: Arc<Sides<TraceData>>,
    others: Arc<TraceData>,
    start: DMatrix<f64>,
    mode: AuditMode,
    seed: u64,
}

/// What sizes the audit: the first sample size (the one audited, `n`; the
/// audit sets the list to that one value). The floor, twice the d1·d2 entries of a
/// sample and at least 200: every sample size must be at least d1·d2 (the scenario's
/// rule), the margin keeps the other samples' spectral start (the audit's fixed start)
/// an estimate from more samples than unknowns, and an iteration's costs that do not
/// grow with n (the SVD, d³) a small part of a run.
pub const AUDIT_SIZE: AuditSizeBy<TraceConfig> = AuditSizeBy {
    field: "n",
    noun: "samples",
    of: |c| c.n[0],
    floor: |c| (2 * c.d1 * c.d2).max(200),
    why: "in the clipped variant the white-box score sums the canary's clipped step (±ητ/n along the direction it is read on) and the noise along it, whatever the other samples' data, and both scale as 1/n (the noise is calibrated to the sensitivity 2ητ/n), so at any n it is the same distribution scaled by 1/n, which changes no error rate of a threshold at its midpoint 0; the paper's variant's unclipped canary step depends on the iterate a little",
};

fn with_sample0(data: &TraceData, p: usize, x: f64, y: f64) -> TraceData {
    let TraceData::Direct { x: xs, y: ys } = data else {
        unreachable!("the audit builds the direct path")
    };
    let (mut xs, mut ys) = (xs.clone(), ys.clone());
    xs[..p].iter_mut().for_each(|v| *v = 0.0);
    xs[0] = x;
    ys[0] = y;
    TraceData::Direct { x: xs, y: ys }
}

/// Seconds of one run of `variant`: l* iterations, each a pass over the n
/// samples (the clipped variant also projects and clips each sample's
/// gradient) and an SVD, twice the passes in white-box mode (the known
/// samples' part); the constants of the sweep's `TraceConfig::estimated_seconds`.
fn seconds_per_run(c: &TraceConfig, n: usize, variant: Variant, mode: AuditMode) -> f64 {
    let (nf, p) = (n as f64, (c.d1 * c.d2) as f64);
    let d = c.d1.max(c.d2) as f64;
    let pass = nf * p * 1.5e-9
        + match variant {
            Variant::Paper => 0.0,
            Variant::Clipped => nf * p * c.r as f64 * 8.0e-9,
        };
    c.iterations as f64 * (mode.passes() * pass + d * d * d * 2e-8)
}

/// The audited releases of a trace-regression config: both variants (the
/// config's first) at every ε, at the first n.
pub fn trace_audit_targets(c: &Checked<TraceConfig>, options: &AuditOptions) -> AuditTargets {
    let n = c.n[0];
    let p = c.d1 * c.d2;
    let bytes = 3.0 * 8.0 * n as f64 * (p + 1) as f64;
    if bytes > MAX_AUDIT_BYTES {
        let most = (MAX_AUDIT_BYTES / (24.0 * (p + 1) as f64)) as usize;
        return Err(vec![ConfigError::invalid(
            "n",
            format!(
                "the audit holds three copies of the first n samples ({:.1} GB): lower the first n to at most {most}",
                bytes / 1e9
            ),
        )]);
    }
    let model = c.model(n, c.seed);
    let truth = model.truth();
    let base = model.generate(&truth, DataPath::Direct);
    let others = with_sample0(&base, p, 0.0, 0.0);
    // In: residual ⟨X₀, M⟩ − y₀ ≈ +b; out: ≈ −b.
    let data = Arc::new(Sides {
        canary_in: with_sample0(&base, p, CANARY_X, -CANARY_Y),
        canary_out: with_sample0(&base, p, CANARY_X, CANARY_Y),
    });
    let start = spectral_estimate(&others.l_hat(c.d1, c.d2), c.r).m;
    let others = Arc::new(others);
    let variants = match c.variant {
        Variant::Paper => [Variant::Paper, Variant::Clipped],
        Variant::Clipped => [Variant::Clipped, Variant::Paper],
    };
    let mut targets = Vec::new();
    for (v, variant) in variants.into_iter().enumerate() {
        for (e, &epsilon) in c.target.epsilons.iter().enumerate() {
            let pl = plan(c, n, epsilon, variant, c.privacy)
                .map_err(|err| accountant_refuses(epsilon, err))?;
            // The ε the l* iterations spend, by the exact accountant.
            let s_loop = match variant {
                Variant::Paper => super::plan::paper_sensitivities(c, n, c.privacy).2,
                Variant::Clipped => 2.0 * c.eta * c.clip_grad / n as f64,
            };
            let mu = (c.iterations as f64).sqrt() * s_loop / pl.loop_sd;
            let epsilon_spent = epsilon_for_mu(mu, c.delta).unwrap_or(f64::NAN);
            let method = match variant {
                Variant::Paper => "dp-rgrad, paper's sensitivities",
                Variant::Clipped => "dp-rgrad, clipped",
            };
            let claim = options
                .gaussian_claim(method, epsilon, epsilon_spent, c.delta)
                .with_report("sample", n, &pl.report);
            targets.push(AuditTarget {
                claim: match variant {
                    Variant::Paper => claim.high_probability(),
                    Variant::Clipped => claim,
                },
                seconds_per_run: seconds_per_run(c, n, variant, options.mode),
                wasm_factor: None,
                work: crate::scenarios::machine::ProbeKind::Scalar,
                attack: Box::new(TraceAudit {
                    params: RGradParams {
                        eta: c.eta,
                        iterations: c.iterations,
                        noise_sd: options.noise(pl.loop_sd),
                        clip: (variant == Variant::Clipped).then_some(c.clip_grad),
                    },
                    r: c.r,
                    privacy: c.privacy,
                    data: data.clone(),
                    others: others.clone(),
                    start: start.clone(),
                    mode: options.mode,
                    seed: options.release_seed(0x7ACE, v * c.target.epsilons.len() + e),
                }),
            });
        }
    }
    Ok(targets)
}

impl Attack for TraceAudit {
    /// White-box, the clipped variant's score is N(+m, v) in and N(−m, v)
    /// out (the module's comment): its midpoint 0, fixed before any run.
    fn fixed_threshold(&self) -> Option<f64> {
        (self.mode == AuditMode::WhiteBox && self.params.clip.is_some()).then_some(0.0)
    }

    /// The clipped variant: a Gaussian release's, from its claim. The paper's
    /// variant: its unclipped canary moves each release by about ηab/n·‖P_T(E₁₁)‖,
    /// far past the high-probability Δ_l its noise is calibrated to, so the sides
    /// separate (nearly) perfectly, and the runs wanted are those at which a
    /// perfect separation proves more than the claim.
    fn runs_wanted(&self, claim: &Claim) -> usize {
        let fixed = self.fixed_threshold().is_some();
        match self.params.clip {
            Some(_) => crate::scenarios::audit::gaussian_runs_wanted(
                claim.epsilon_spent,
                claim.delta,
                fixed,
            ),
            None => separated_runs_wanted(claim.epsilon_spent, claim.delta, fixed),
        }
    }

    fn canary(&self) -> String {
        format!(
            "sample 0 with X₀ = 10·E₁₁ and y₀ = ∓10⁴, the same X₀ on both sides ({}); every run starts from the other samples' spectral estimate, and the l* iterations are audited",
            match self.privacy {
                PrivacyKind::Strong => "strong DP: the sample replaced by its mirror",
                PrivacyKind::Weak => "weak DP: neighbours share X₀ and differ in y₀",
            }
        )
    }

    fn score(&mut self, canary_in: bool, run: u64) -> f64 {
        let data = self.data.get(canary_in);
        let noise = NoiseSource::new(combine(self.seed, combine(run, canary_in as u64)));
        let mut gd = RGrad::new(&self.start, self.r, self.params, noise);
        let mut score = 0.0;
        while !gd.is_done() {
            let (m, u, v) = (
                gd.estimate().m.clone(),
                gd.estimate().u.clone(),
                gd.v().clone(),
            );
            if gd.step(data).is_none() {
                return f64::NAN;
            }
            if self.mode == AuditMode::WhiteBox {
                let Some(known) = step_gradient(&self.others, &m, &u, &v, self.params.clip) else {
                    return f64::NAN;
                };
                let mut e11 = DMatrix::zeros(m.nrows(), m.ncols());
                e11[(0, 0)] = 1.0;
                let d = tangent_projection(&e11, &u, &v);
                let norm = d.norm();
                if norm > 0.0 {
                    let rest = gd.last_release() + known * self.params.eta;
                    score -= rest.dot(&d) / norm;
                }
            }
        }
        match self.mode {
            AuditMode::WhiteBox => score,
            AuditMode::Final => -gd.estimate().m[(0, 0)],
        }
    }
}
