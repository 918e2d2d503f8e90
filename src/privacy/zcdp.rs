//! Zero-concentrated DP (Bun & Steinke 2016). The Gaussian mechanism with
//! sensitivity s and noise σ is ρ = s²/(2σ²)-zCDP; composition adds ρ.

use super::error::{check_delta, check_epsilon, AccountingError};

/// Simple conversion (Bun & Steinke 2016, Prop. 1.3): ρ-zCDP implies
/// (ρ + 2√(ρ ln(1/δ)), δ)-DP.
pub fn epsilon_for_rho(rho: f64, delta: f64) -> Result<f64, AccountingError> {
    check_delta(delta)?;
    if !(rho.is_finite() && rho >= 0.0) {
        return Err(AccountingError::Rho { value: rho });
    }
    Ok(rho + 2.0 * (rho * -delta.ln()).sqrt())
}

/// The largest ρ whose simple conversion gives ε:
/// ρ = (√(ln(1/δ) + ε) − √(ln(1/δ)))², written as ε²/(√(L+ε) + √L)² to avoid
/// cancellation. For T steps of sensitivity s: σ = s·√(T/(2ρ)).
pub fn rho_for_epsilon(epsilon: f64, delta: f64) -> Result<f64, AccountingError> {
    check_epsilon(epsilon)?;
    check_delta(delta)?;
    let l = -delta.ln();
    let r = epsilon / ((l + epsilon).sqrt() + l.sqrt());
    Ok(r * r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rho_and_epsilon_are_inverse() {
        for eps in [1e-6, 0.3, 1.0, 10.0, 100.0] {
            for delta in [1e-300, 1e-6, 0.5, 1.0 - 1e-12] {
                let rho = rho_for_epsilon(eps, delta).unwrap();
                let back = epsilon_for_rho(rho, delta).unwrap();
                assert!(
                    (back - eps).abs() <= 1e-12 * eps.max(1.0),
                    "{eps} {delta} {back}"
                );
            }
        }
    }

    #[test]
    fn negative_or_non_finite_rho_is_an_error() {
        for rho in [-1.0, f64::NAN, f64::INFINITY] {
            assert!(matches!(
                epsilon_for_rho(rho, 1e-5),
                Err(AccountingError::Rho { .. })
            ));
        }
    }
}
