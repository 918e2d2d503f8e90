//! Privacy: the accountant (exact Gaussian/GDP, RDP, zCDP, the papers' own
//! formulas), neighbouring relations and sensitivities, clipping, and the
//! Gaussian mechanism. Every algorithm in the crate takes its σ from here.
//!
//! - [`attacker`]: an ε spent read as what it lets an attacker do (posterior bound, the (FPR, TPR) region);
//! - [`audit`]: lower bounds on ε from an attack (Clopper–Pearson and Gaussian-DP routes);
//! - [`gdp`]: exact composition of Gaussian stages (the default, the headline ε);
//! - [`rdp`], [`zcdp`]: the looser accountants, shown for comparison;
//! - [`formulas`]: the papers' own noise formulas, to reproduce their figures;
//! - [`calibration`]: σ from a target (ε, δ), exactly or by a paper's formula;
//! - [`event`]: what an algorithm releases, as typed events the accountant composes;
//! - [`query`]: ε for σ, σ for ε, ε of a stage list, under every accountant at once;
//! - [`report`]: what a run spends, under every accountant, in plain words;
//! - [`risk`]: an attacker's risk (TPR at an FPR) ↔ μ-GDP, and the chance of a privacy loss above ε;
//! - [`tradeoff`]: a run's trade-off curve and (ε, δ) region sampled for a chart, an attack's Clopper–Pearson boxes;
//! - [`relation`]: neighbouring datasets and the sensitivity of a clipped mean;
//! - [`gaussian`]: the Gaussian mechanism itself; [`clipping`]: bounding norms.

pub mod attacker;
pub mod audit;
pub mod calibration;
pub mod clipping;
pub mod error;
pub mod event;
pub mod formulas;
pub mod gaussian;
pub mod gdp;
pub mod query;
pub mod rdp;
pub mod relation;
pub mod report;
pub mod risk;
pub mod tradeoff;
pub mod zcdp;

pub use calibration::{calibrate_exact, calibrate_mu, Calibration};
pub use error::AccountingError;
pub use event::{GaussianStage, PrivacyEvent};
pub use relation::Relation;
pub use report::PrivacyReport;

/// |a − b| / |b|: how far a computed value is from a reference one.
#[cfg(test)]
pub(crate) fn relative_error(a: f64, b: f64) -> f64 {
    ((a - b) / b).abs()
}

/// Bisection on [lo, hi] for a predicate that holds on a lower part of the
/// interval and fails above it (`below(x)` true: x is on the lower side); at
/// most `iterations` halvings, stopping when the interval can no longer shrink
/// in floating point. Returns the final bracket, so each caller picks the end
/// that errs on the safe side (never understating ε).
pub(crate) fn bisect(
    mut lo: f64,
    mut hi: f64,
    iterations: usize,
    mut below: impl FnMut(f64) -> bool,
) -> (f64, f64) {
    for _ in 0..iterations {
        let mid = lo + 0.5 * (hi - lo);
        if mid <= lo || mid >= hi {
            break;
        }
        if below(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo, hi)
}
