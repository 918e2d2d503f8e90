//! Risk ↔ μ-GDP: a run whose releases are all Gaussian is μ-GDP for its
//! composed μ (Dong, Roth & Su, "Gaussian Differential Privacy", JRSS-B 2022),
//! and μ says exactly what a membership attacker can do.
//!
//! - The trade-off curve (Dong, Roth & Su, Def. 2.7): every test of "in"
//!   against "out" at false-positive rate α has
//!   TPR ≤ 1 − Φ(Φ⁻¹(1 − α) − μ) = Φ(Φ⁻¹(α) + μ).
//! - The privacy loss of the Gaussian pair N(μ, 1) against N(0, 1) is itself
//!   Gaussian, L ~ N(μ²/2, μ²) when the person is in, so the chance that it
//!   exceeds ε is exactly P(L > ε) = Φ(−ε/μ + μ/2). It is not δ: (ε, δ)-DP
//!   bounds every test (TPR ≤ e^ε·FPR + δ), not the chance of a loss above ε.

use super::audit::{phi, phi_inverse};

/// The μ-GDP trade-off curve as the highest TPR any test can have at
/// false-positive rate `fpr`: 1 − Φ(Φ⁻¹(1 − FPR) − μ), computed as
/// Φ(Φ⁻¹(FPR) + μ) (the same by symmetry, without 1 − FPR's rounding).
pub fn tpr_at(mu: f64, fpr: f64) -> f64 {
    if fpr <= 0.0 {
        return 0.0;
    }
    if fpr >= 1.0 {
        return 1.0;
    }
    phi(phi_inverse(fpr) + mu)
}

/// The chance that the privacy loss of a μ-GDP (Gaussian) run exceeds ε,
/// Φ(−ε/μ + μ/2), for the person whose data is in. 0 for μ = 0 (no loss),
/// and for a neighbouring pair at a smaller μ the chance is smaller (it grows
/// with μ), so this is the worst case over the run's neighbours.
pub fn loss_above(mu: f64, epsilon: f64) -> f64 {
    if mu <= 0.0 {
        return 0.0;
    }
    phi(-epsilon / mu + mu / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::privacy::gdp::{delta_for_epsilon, epsilon_for_mu};

    /// P(L > ε) by summing the Gaussian loss's density, not through Φ: the
    /// loss is N(μ²/2, μ²), so integrate its tail numerically (Simpson).
    fn tail_by_quadrature(mu: f64, epsilon: f64) -> f64 {
        let (mean, sd) = (mu * mu / 2.0, mu);
        let density = |x: f64| {
            let z = (x - mean) / sd;
            (-0.5 * z * z).exp() / (sd * (2.0 * std::f64::consts::PI).sqrt())
        };
        let (a, b, n) = (epsilon, mean + 40.0 * sd, 200_000);
        let h = (b - a) / n as f64;
        let mut sum = density(a) + density(b);
        for i in 1..n {
            sum += density(a + i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
        }
        sum * h / 3.0
    }

    #[test]
    fn the_loss_tail_is_the_gaussian_loss_tail() {
        for (mu, eps) in [(0.5, 1.0), (1.0, 2.0), (2.0, 1.0), (0.2367, 2.0)] {
            let want = tail_by_quadrature(mu, eps);
            let got = loss_above(mu, eps);
            assert!(
                ((got - want) / want).abs() < 1e-7,
                "μ = {mu}, ε = {eps}: {got} vs {want}"
            );
        }
        assert_eq!(loss_above(0.0, 1.0), 0.0);
    }

    #[test]
    fn the_trade_off_curve_is_one_minus_phi_of_the_shifted_quantile() {
        // 1 − Φ(Φ⁻¹(1 − α) − μ) as written in the paper, at FPRs where 1 − α loses nothing.
        for (mu, fpr) in [(0.5, 0.25), (1.0, 0.01), (2.0, 0.5), (0.68, 0.125)] {
            let direct = 1.0 - phi(phi_inverse(1.0 - fpr) - mu);
            assert!(
                (tpr_at(mu, fpr) - direct).abs() < 1e-12,
                "μ = {mu}, α = {fpr}"
            );
        }
        // μ = 0: a coin flip; the ends are fixed.
        assert!((tpr_at(0.0, 0.3) - 0.3).abs() < 1e-12);
        assert_eq!((tpr_at(1.0, 0.0), tpr_at(1.0, 1.0)), (0.0, 1.0));
    }

    #[test]
    fn the_loss_exceeds_epsilon_far_more_often_than_delta() {
        // δ(ε) = P(L > ε) − e^ε·Φ(−ε/μ − μ/2) < P(L > ε): δ is never the chance
        // of a loss above ε, and at small δ the gap is large.
        for mu in [0.2, 0.5, 1.0, 3.0] {
            let eps = epsilon_for_mu(mu, 1e-6).unwrap();
            let tail = loss_above(mu, eps);
            assert!(tail > 2.0 * delta_for_epsilon(mu, eps), "μ = {mu}: {tail}");
        }
    }
}
