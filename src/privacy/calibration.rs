//! Choosing σ for a target (ε, δ): exactly (the default) or by a paper's formula.

use super::error::{check_sensitivity, check_steps, AccountingError};
use super::formulas::{fedrep_authors_code_sigma, fedrep_paper_sigma};
use super::gdp::mu_for_epsilon;
use super::relation::Relation;
use serde::{Deserialize, Serialize};

/// How σ is set from the target (ε, δ).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Calibration {
    /// σ such that all Gaussian stages compose to exactly (ε, δ) (GDP).
    #[default]
    Exact,
    /// The paper's formula (Private FedRep, App. B.4).
    Paper,
    /// The formula in the authors' code (factor 48 instead of 16).
    AuthorsCode,
}

impl Calibration {
    /// Config name: "exact", "paper", "authors-code".
    pub fn name(self) -> &'static str {
        crate::names::serde_name(&self)
    }
}

/// Split a total (ε, δ) budget across Gaussian stages exactly: stage j gets
/// share_j of the total μ² (shares sum to 1), μ_total = mu_for_epsilon(ε, δ);
/// returns each stage's σ = sensitivity_j·√(steps_j)/(μ_total·√share_j).
///
/// Shares must be positive and sum to 1 within 1e-9 (they are then normalised,
/// so the stages compose to exactly μ_total).
pub fn calibrate_exact(
    epsilon: f64,
    delta: f64,
    stages: &[(u64, f64, f64)],
) -> Result<Vec<f64>, AccountingError> {
    calibrate_mu(mu_for_epsilon(epsilon, delta)?, stages)
}

/// Split a total μ (of a μ-GDP target: a risk, [`super::risk::Risk::mu`], or
/// the μ of an (ε, δ) target) across Gaussian stages exactly, as
/// [`calibrate_exact`] does: stage j gets share_j of μ², so its σ is
/// sensitivity_j·√(steps_j)/(μ·√share_j).
pub fn calibrate_mu(mu: f64, stages: &[(u64, f64, f64)]) -> Result<Vec<f64>, AccountingError> {
    // μ = 0 (no privacy loss at all) would need infinite noise.
    if super::gdp::check_mu(mu)? == 0.0 {
        return Err(AccountingError::Mu {
            value: mu,
            max: super::error::MAX_MU,
        });
    }
    if stages.is_empty() {
        return Err(AccountingError::NoStages);
    }
    let shares_text = || {
        stages
            .iter()
            .map(|s| s.2.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut total = 0.0;
    for &(steps, sensitivity, share) in stages {
        check_steps(steps)?;
        check_sensitivity(sensitivity)?;
        if !(share.is_finite() && share > 0.0 && share <= 1.0) {
            return Err(AccountingError::Shares {
                shares: shares_text(),
            });
        }
        total += share;
    }
    if (total - 1.0).abs() > 1e-9 {
        return Err(AccountingError::Shares {
            shares: shares_text(),
        });
    }
    Ok(stages
        .iter()
        .map(|&(steps, sensitivity, share)| {
            sensitivity * (steps as f64).sqrt() / (mu * (share / total).sqrt())
        })
        .collect())
}

/// σ for `steps` Gaussian steps of the given sensitivity composing exactly to
/// (ε, δ): s·√T/μ(ε, δ).
pub fn sigma_for_epsilon_exact(
    epsilon: f64,
    delta: f64,
    steps: u64,
    sensitivity: f64,
) -> Result<f64, AccountingError> {
    Ok(calibrate_exact(epsilon, delta, &[(steps, sensitivity, 1.0)])?[0])
}

/// Private FedRep's σ̂ for T rounds of a mean of n clipped (norm ≤ ψ) user
/// updates, under the chosen calibration. Exact uses the relation's
/// sensitivity; the paper's and authors' formulas are what they are (they
/// assume replace-one).
pub fn fedrep_sigma(
    calibration: Calibration,
    relation: Relation,
    clip: f64,
    steps: u64,
    n: usize,
    epsilon: f64,
    delta: f64,
) -> Result<f64, AccountingError> {
    // Validate through the exact path whatever the calibration.
    let exact = sigma_for_epsilon_exact(epsilon, delta, steps, relation.mean_sensitivity(clip, n))?;
    Ok(match calibration {
        Calibration::Exact => exact,
        Calibration::Paper => fedrep_paper_sigma(clip, steps, n, epsilon, delta),
        Calibration::AuthorsCode => fedrep_authors_code_sigma(clip, steps, n, epsilon, delta),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calibration_names_round_trip() {
        for c in [
            Calibration::Exact,
            Calibration::Paper,
            Calibration::AuthorsCode,
        ] {
            assert_eq!(
                serde_json::to_string(&c).unwrap(),
                format!("\"{}\"", c.name())
            );
        }
        assert_eq!(Calibration::default(), Calibration::Exact);
    }

    #[test]
    fn shares_must_be_positive_and_sum_to_one() {
        let bad = calibrate_exact(1.0, 1e-5, &[(1, 1.0, 0.5), (5, 1.0, 0.4)]);
        assert!(matches!(bad, Err(AccountingError::Shares { .. })));
        let bad = calibrate_exact(1.0, 1e-5, &[(1, 1.0, 0.0), (5, 1.0, 1.0)]);
        assert!(matches!(bad, Err(AccountingError::Shares { .. })));
        assert!(matches!(
            calibrate_exact(1.0, 1e-5, &[]),
            Err(AccountingError::NoStages)
        ));
        assert!(matches!(
            calibrate_exact(1.0, 1e-5, &[(0, 1.0, 1.0)]),
            Err(AccountingError::Steps { .. })
        ));
    }
}
