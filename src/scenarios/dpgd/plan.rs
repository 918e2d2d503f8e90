//! What a DP-GD run releases and what it spends (Bombari & Mondelli,
//! Algorithm 1 and Prop. 3.2): T Gaussian releases of the mean of n
//! per-sample-clipped gradients, σ from the chosen calibration, and the
//! report of the ε actually spent.

use super::config::{DpGdCalibration, DpGdConfig, SigmaQuery, SpentQuery};
use super::rows::DpGdRow;
use crate::privacy::calibration::{calibrate_mu, sigma_for_epsilon_exact};
use crate::privacy::formulas::dpgd_prop32_multiplier;
use crate::privacy::report::fmt_num;
use crate::privacy::{AccountingError, PrivacyEvent, PrivacyReport, Relation};
use crate::scenarios::field::Config;

impl SigmaQuery {
    /// What `c`'s private run at `epsilon` asks of the accountant, with T =
    /// `steps` steps of size `eta` and this `sensitivity`: its calibration
    /// and δ, and the μ of the risk that drives it when one does.
    pub fn of(c: &DpGdConfig, epsilon: f64, steps: usize, eta: f64, sensitivity: f64) -> Self {
        SigmaQuery {
            calibration: c.calibration,
            epsilon,
            risk_mu: c.risk_target().risk_at(epsilon).map(|r| r.mu()),
            delta: c.delta,
            steps,
            eta,
            sensitivity,
        }
    }
}

impl SpentQuery {
    /// What the ε spent by `c`'s run with noise multiplier `sigma` asks of
    /// the accountant (the schedule and sensitivity as [`SigmaQuery::of`]).
    pub fn of(c: &DpGdConfig, sigma: f64, steps: usize, eta: f64, sensitivity: f64) -> Self {
        SpentQuery {
            calibration: c.calibration,
            sigma,
            delta: c.delta,
            steps,
            eta,
            sensitivity,
        }
    }
}

/// The releases of one DP-GD run, as the accountant sees them.
///
/// Algorithm 1 does θ ← θ − ηḡ + √η·(2C/n)·σ·N(0, I) = θ − η·(ḡ + (2C/n)·(σ/√η)·N(0, I)),
/// so each step releases the mean clipped gradient ḡ (each per-sample gradient
/// clipped to norm ≤ C, so replacing one sample moves ḡ by ≤ 2C/n) plus
/// Gaussian noise of std (2C/n)·σ/√η: a Gaussian mechanism with sensitivity
/// s = 2C/n and noise multiplier σ/√η, repeated T times (adaptively; θ_t is
/// post-processing). Its GDP μ is √T·√η/σ = √(ηT)/σ.
pub fn dpgd_event(sensitivity: f64, sigma: f64, eta: f64, steps: usize) -> PrivacyEvent {
    PrivacyEvent::gaussian(
        "training steps",
        "Gaussian noise on the mean of n per-sample-clipped gradients",
        sensitivity,
        sensitivity * sigma / eta.sqrt(),
    )
    .repeated(steps as u64)
}

/// σ of one DP-GD run (the multiplier in the algorithm's √η·(2C/n)·σ):
/// - Prop. 3.2: the paper's σ = √(ηT)·√(8 ln(1/δ))/ε;
/// - exact: the noise std on ḡ that T Gaussian steps of sensitivity 2C/n need
///   to compose to exactly (ε, δ) (GDP), turned into the algorithm's σ by
///   σ = √η·std/(2C/n).
///
/// NaN when the accountant refuses (the sweep then reports the field).
pub fn dpgd_sigma(q: &SigmaQuery) -> f64 {
    match q.calibration {
        DpGdCalibration::Prop32 => {
            dpgd_prop32_multiplier(q.eta, q.steps as u64, q.epsilon, q.delta)
        }
        DpGdCalibration::Exact => {
            let std = match q.risk_mu {
                Some(mu) => calibrate_mu(mu, &[(q.steps as u64, q.sensitivity, 1.0)]).map(|s| s[0]),
                None => sigma_for_epsilon_exact(q.epsilon, q.delta, q.steps as u64, q.sensitivity),
            };
            match std {
                Ok(std) => q.eta.sqrt() * std / q.sensitivity,
                Err(_) => f64::NAN,
            }
        }
    }
}

/// A private DP-GD run of width p at target ε, as the sweep plans it (the
/// audit and the round in slow motion plan theirs the same way): its
/// schedule, the replace-one sensitivity 2C/n of ḡ, σ and the ε it spends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DpGdPrivateRun {
    pub eta: f64,
    pub steps: usize,
    pub sensitivity: f64,
    pub sigma: f64,
    pub epsilon_spent: f64,
}

/// [`DpGdPrivateRun`] of width `p` at `epsilon`; an error at `epsilons` when
/// the accountant gives no usable σ.
pub fn dpgd_private_run(
    c: &DpGdConfig,
    p: usize,
    epsilon: f64,
) -> Result<DpGdPrivateRun, crate::scenarios::ConfigError> {
    let (eta, steps) = c.schedule(p, c.time_scale);
    let sensitivity = 2.0 * c.clip(p) / c.n as f64;
    let sigma = dpgd_sigma(&SigmaQuery::of(c, epsilon, steps, eta, sensitivity));
    if !(sigma.is_finite() && sigma > 0.0) {
        return Err(crate::scenarios::ConfigError::invalid(
            "epsilons",
            format!("the accountant gives no usable σ for ε = {epsilon}"),
        ));
    }
    let epsilon_spent = dpgd_epsilon_spent(&SpentQuery::of(c, sigma, steps, eta, sensitivity));
    Ok(DpGdPrivateRun {
        eta,
        steps,
        sensitivity,
        sigma,
        epsilon_spent,
    })
}

/// The ε a DP-GD run with this σ spends at δ, by the exact (GDP) accountant:
/// the same number its [`PrivacyReport`] shows.
pub fn dpgd_epsilon_spent(q: &SpentQuery) -> f64 {
    let stages = dpgd_event(q.sensitivity, q.sigma, q.eta, q.steps).gaussian_stages();
    match stages.first() {
        Some(stage) if stage.validate().is_ok() => {
            crate::privacy::gdp::epsilon_for_mu(stage.mu(), q.delta).unwrap_or(f64::NAN)
        }
        _ => f64::NAN,
    }
}

/// The accounting of one private DP-GD row (None for non-private rows).
pub fn dpgd_report(
    row: &DpGdRow,
    n: usize,
    calibration: DpGdCalibration,
) -> Option<Result<PrivacyReport, AccountingError>> {
    if !row.method.is_private() || row.sigma <= 0.0 {
        return None;
    }
    let sensitivity = 2.0 * row.clip / n as f64;
    let event = dpgd_event(sensitivity, row.sigma, row.eta, row.steps);
    Some(
        PrivacyReport::from_event(
            &event,
            row.delta,
            Relation::ReplaceOne,
            calibration.into(),
            row.epsilon,
        )
        .map(|mut r| {
            if calibration == DpGdCalibration::Prop32 {
                r.add_note(format!(
                    "Prop. 3.2 (the paper's formula): σ = √(ηT)·√(8 ln(1/δ))/ε = {}, so \
                     the noise on the mean gradient has multiplier σ/√η = {} per step.",
                    fmt_num(row.sigma),
                    fmt_num(row.sigma / row.eta.sqrt())
                ));
            }
            r
        }),
    )
}
