//! Typed accounting errors. Each message names the quantity, the range it must
//! lie in and the value received, so a user can fix the input directly.

use thiserror::Error;

/// Largest ε the accountant accepts as a target. Beyond it a privacy guarantee
/// says nothing useful (e^100 ≈ 2.7·10⁴³), and the numerics stay well inside f64.
pub const MAX_EPSILON: f64 = 100.0;

/// Largest number of steps of one Gaussian stage.
pub const MAX_STEPS: u64 = 1_000_000_000;

/// Largest total μ (√steps·s/σ summed in squares) the accountant evaluates; a
/// larger μ means the mechanism adds essentially no noise.
pub const MAX_MU: f64 = 1e100;

#[derive(Debug, Clone, PartialEq, Error)]
pub enum AccountingError {
    #[error("ε must be a finite number in (0, {}] (got {})", num(.max), num(.value))]
    Epsilon { value: f64, max: f64 },
    #[error("δ must be strictly between 0 and 1 (got {}); δ is the additive slack of (ε, δ)-DP (every membership test has TPR ≤ e^ε·FPR + δ), so it must be small but positive, e.g. 1e-5", num(.value))]
    Delta { value: f64 },
    #[error("σ (noise standard deviation) must be a positive finite number (got {}); σ = 0 adds no noise and cannot be accounted: leave that stage out and label the run as not private", num(.value))]
    Sigma { value: f64 },
    #[error("the number of steps must be between 1 and {max} (got {value})")]
    Steps { value: u64, max: u64 },
    #[error("the sensitivity must be a positive finite number (got {})", num(.value))]
    Sensitivity { value: f64 },
    #[error("μ (the Gaussian-DP parameter) must be a finite number in [0, {}] (got {}); a larger μ means the noise is negligible", num(.max), num(.value))]
    Mu { value: f64, max: f64 },
    #[error("ρ (zCDP) must be a non-negative finite number (got {})", num(.value))]
    Rho { value: f64 },
    #[error("the RDP slope Σ steps·s²/(2σ²) must be a positive finite number (got {})", num(.value))]
    RdpSlope { value: f64 },
    #[error("budget shares must be positive and sum to 1 (got {shares})")]
    Shares { shares: String },
    #[error("there is nothing to account: no private Gaussian stage was given")]
    NoStages,
}

/// A number in a message: plain when short, 1e300 rather than 301 digits.
fn num(x: &f64) -> String {
    let plain = format!("{x}");
    if plain.len() > 12 {
        format!("{x:e}")
    } else {
        plain
    }
}

/// ε must be finite and in (0, MAX_EPSILON].
pub fn check_epsilon(epsilon: f64) -> Result<f64, AccountingError> {
    if epsilon.is_finite() && epsilon > 0.0 && epsilon <= MAX_EPSILON {
        Ok(epsilon)
    } else {
        Err(AccountingError::Epsilon {
            value: epsilon,
            max: MAX_EPSILON,
        })
    }
}

/// δ must lie strictly inside (0, 1).
pub fn check_delta(delta: f64) -> Result<f64, AccountingError> {
    if delta > 0.0 && delta < 1.0 {
        Ok(delta)
    } else {
        Err(AccountingError::Delta { value: delta })
    }
}

/// σ must be positive and finite.
pub fn check_sigma(sigma: f64) -> Result<f64, AccountingError> {
    if sigma.is_finite() && sigma > 0.0 {
        Ok(sigma)
    } else {
        Err(AccountingError::Sigma { value: sigma })
    }
}

/// The number of steps must be in [1, MAX_STEPS].
pub fn check_steps(steps: u64) -> Result<u64, AccountingError> {
    if (1..=MAX_STEPS).contains(&steps) {
        Ok(steps)
    } else {
        Err(AccountingError::Steps {
            value: steps,
            max: MAX_STEPS,
        })
    }
}

/// A sensitivity must be positive and finite.
pub fn check_sensitivity(sensitivity: f64) -> Result<f64, AccountingError> {
    if sensitivity.is_finite() && sensitivity > 0.0 {
        Ok(sensitivity)
    } else {
        Err(AccountingError::Sensitivity { value: sensitivity })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_inputs_are_rejected_with_a_typed_error() {
        assert!(check_epsilon(1.0).is_ok());
        for e in [0.0, -1.0, 100.5, f64::NAN, f64::INFINITY] {
            assert!(matches!(
                check_epsilon(e),
                Err(AccountingError::Epsilon { .. })
            ));
        }
        for d in [0.0, 1.0, -0.1, 2.0, f64::NAN] {
            assert!(matches!(check_delta(d), Err(AccountingError::Delta { .. })));
        }
        for s in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(matches!(check_sigma(s), Err(AccountingError::Sigma { .. })));
            assert!(matches!(
                check_sensitivity(s),
                Err(AccountingError::Sensitivity { .. })
            ));
        }
        assert!(matches!(check_steps(0), Err(AccountingError::Steps { .. })));
        assert!(check_steps(1_000_000).is_ok());
    }

    #[test]
    fn messages_name_the_quantity_and_the_value() {
        let msg = check_delta(1.5).unwrap_err().to_string();
        assert!(msg.contains("δ") && msg.contains("1.5"), "{msg}");
        let msg = check_sigma(0.0).unwrap_err().to_string();
        assert!(msg.contains("not private"), "{msg}");
    }
}
