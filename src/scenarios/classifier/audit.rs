//! The audit of Algorithm 3's one release (Snedeker et al., Theorem 17): the
//! exponential mechanism's choice of a representation, a pure ε-DP release.
//!
//! Each user's part of the score is its inner minimum min_v L̂_ρ ∈ [0, 1] for
//! every candidate, so replacing a user moves every candidate's score by at
//! most 1/n, the sensitivity the mechanism uses. The canary is the worst case
//! that allows: a user in user 0's place whose loss is 0 on one candidate A
//! and 1 on every other ("in"), against one whose loss is 1 on A and 0 on the
//! others ("out"). A is the candidate the other users score best. The data,
//! the JL matrix and the data-independent candidates are the preset's, fixed:
//! the only randomness left is the mechanism's draw.
//!
//! The score of a run is 1 when the mechanism picks A, else 0 (the output is
//! all there is: white-box and final-output modes coincide). The bound is
//! Clopper–Pearson with δ = 0; the Gaussian-DP route does not apply.
//!
//! The deliberately broken run drops the factor 2 of the exponent
//! (exp(ε·f/Δ) in place of exp(ε·f/(2Δ))), a classic slip that doubles the
//! true ε while claiming the same.

use super::config::{ClassifierConfig, Cover};
use super::plan::em_report;
use super::run::setup;
use crate::algorithms::jl_exponential::{exponential_mechanism, score};
use crate::rng::{combine, NoiseSource};
use crate::scenarios::audit::{
    accountant_refuses, Attack, AuditOptions, AuditTarget, AuditTargets, Claim, Sides,
};
use crate::scenarios::error::ConfigError;
use crate::scenarios::Checked;
use std::sync::Arc;

/// The attack on one exponential-mechanism release (one ε).
pub struct ClassifierAudit {
    /// The candidates' scores with the canary in and out.
    scores: Arc<Sides<Vec<f64>>>,
    target: usize,
    sensitivity: f64,
    /// The ε in the mechanism's exponent: twice the claimed one in the
    /// deliberately broken run (the slip: ε·f/Δ where it needs ε·f/(2Δ)).
    epsilon: f64,
    seed: u64,
}

/// One exponential-mechanism draw: a Gumbel variable (a uniform and two
/// logarithms) per candidate, and the stream's setup, measured natively.
const SECONDS_PER_CANDIDATE: f64 = 40e-9;
const SECONDS_PER_DRAW: f64 = 1e-6;

/// The audited releases of a classifier config: every ε, at the main d.
pub fn classifier_audit_targets(
    c: &Checked<ClassifierConfig>,
    options: &AuditOptions,
) -> AuditTargets {
    let refuse = |e: String| vec![ConfigError::invalid("preset", e)];
    let s = setup(c, c.seed, c.d).map_err(refuse)?;
    // The sweep's candidate set at its main count.
    let main = match c.cover {
        Cover::Exact => s.candidates.len(),
        Cover::Random => c.candidates.min(s.candidates.len()),
    };
    let n = c.n as f64;
    // The other users' part: −(1/n) Σ_{i ≥ 1} min_v L̂_i (user 0's slot is the canary's).
    let labels: Vec<&[f64]> = s.data.train.iter().map(|p| p.y.as_slice()).collect();
    let others: Vec<f64> = s.candidates[..main]
        .iter()
        .map(|cand| {
            score(
                cand,
                &s.projected[1..],
                &labels[1..],
                c.gamma,
                c.margin,
                &s.directions,
            ) * (n - 1.0)
                / n
        })
        .collect();
    let target = (0..main)
        .max_by(|&a, &b| others[a].total_cmp(&others[b]).then(b.cmp(&a)))
        .unwrap_or(0);
    let with_canary = |loss_on_target: f64| -> Vec<f64> {
        others
            .iter()
            .enumerate()
            .map(|(i, o)| {
                let loss = if i == target {
                    loss_on_target
                } else {
                    1.0 - loss_on_target
                };
                o - loss / n
            })
            .collect()
    };
    let scores = Arc::new(Sides {
        canary_in: with_canary(0.0),
        canary_out: with_canary(1.0),
    });
    let mut targets = Vec::new();
    for (e, &epsilon) in c.target.epsilons.iter().enumerate() {
        let report = em_report(c, epsilon, main).map_err(|err| accountant_refuses(epsilon, err))?;
        let broken = options
            .broken
            .then_some("the exponent without its factor 2, twice the ε it claims");
        let claim = Claim::new("jl-em", broken, epsilon, report.epsilon_exact, 0.0)
            .on_curve("JL + exponential mechanism")
            .with_report("user", c.n, &report);
        targets.push(AuditTarget {
            claim,
            seconds_per_run: SECONDS_PER_DRAW + main as f64 * SECONDS_PER_CANDIDATE,
            wasm_factor: None,
            work: crate::scenarios::machine::ProbeKind::Scalar,
            attack: Box::new(ClassifierAudit {
                scores: scores.clone(),
                target,
                sensitivity: 1.0 / n,
                epsilon: if options.broken {
                    2.0 * epsilon
                } else {
                    epsilon
                },
                seed: options.release_seed(0xE3, e),
            }),
        });
    }
    Ok(targets)
}

impl Attack for ClassifierAudit {
    fn canary(&self) -> String {
        format!(
            "a user in user 0's place whose inner loss is 0 on candidate {} (the others' best) and 1 on every other, against one whose loss is 1 on it and 0 elsewhere (replace-one: every score moves by at most 1/n); the score of a run is whether the mechanism picks that candidate",
            self.target
        )
    }
    fn gaussian(&self) -> bool {
        false
    }
    /// The score is 1 (picked the canary's candidate) or 0: "in" at 1, fixed
    /// before any run, so every run is judged.
    fn fixed_threshold(&self) -> Option<f64> {
        Some(0.5)
    }
    /// A draw is cheap and a pure-ε bound needs many runs: a rare pick that
    /// is e^ε times as likely with the canary in is seen often enough only
    /// over tens of thousands of runs.
    fn runs_wanted(&self, _claim: &Claim) -> usize {
        40_000
    }

    /// The chance the mechanism picks the canary's candidate, exactly: the
    /// draw is a Gumbel maximum, so it picks c with the softmax of
    /// ε·score_c/(2Δ) (with the ε in its exponent: twice the claim when broken).
    fn exact_rates(&self) -> Option<(f64, f64)> {
        let scale = self.epsilon / (2.0 * self.sensitivity);
        let pick = |scores: &[f64]| {
            let top = scores
                .iter()
                .map(|s| scale * s)
                .fold(f64::NEG_INFINITY, f64::max);
            let sum: f64 = scores.iter().map(|s| (scale * s - top).exp()).sum();
            (scale * scores[self.target] - top).exp() / sum
        };
        Some((pick(self.scores.get(true)), pick(self.scores.get(false))))
    }

    fn score(&mut self, canary_in: bool, run: u64) -> f64 {
        let scores = self.scores.get(canary_in);
        let mut rng = NoiseSource::new(combine(self.seed, canary_in as u64)).release(run);
        match exponential_mechanism(scores, self.epsilon, self.sensitivity, &mut rng) {
            Some(c) if c == self.target => 1.0,
            Some(_) => 0.0,
            None => f64::NAN,
        }
    }
}
