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
//! - A target risk, TPR t at FPR a, fixes μ = Φ⁻¹(1 − a) − Φ⁻¹(1 − t), the
//!   Gaussian curve through (a, t) (Kulynych & Gomez, "Attack-aware noise
//!   calibration for differential privacy", NeurIPS 2024); its ε at δ is the
//!   exact GDP conversion ([`gdp::epsilon_for_mu`]). A pure ε-DP mechanism
//!   allows that risk from ε = max(ln(t/a), ln((1 − a)/(1 − t))).

use super::audit::{phi, phi_inverse};
use super::error::AccountingError;
use super::gdp;
use thiserror::Error;

/// A target risk refused, naming the field at fault.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum RiskError {
    #[error("the attacker's false-positive rate (fpr) must be a number strictly between 0 and 1 (got {value})")]
    Fpr { value: f64 },
    #[error("the attacker's true-positive rate (tpr) must be a number strictly between 0 and 1 (got {value})")]
    Tpr { value: f64 },
    #[error("the attacker's true-positive rate (tpr = {tpr}) must exceed its false-positive rate (fpr = {fpr}): at tpr ≤ fpr the attack is no better than a coin flip, which any noise allows")]
    TprNotAboveFpr { tpr: f64, fpr: f64 },
    #[error(transparent)]
    Accounting(#[from] AccountingError),
}

impl RiskError {
    /// The field at fault: "fpr", "tpr" or, for the accountant's refusal, "delta".
    pub fn field(&self) -> &'static str {
        match self {
            RiskError::Fpr { .. } => "fpr",
            RiskError::Tpr { .. } | RiskError::TprNotAboveFpr { .. } => "tpr",
            RiskError::Accounting(_) => "delta",
        }
    }
}

/// A risk an attacker may reach: true-positive rate `tpr` at false-positive rate `fpr`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Risk {
    pub tpr: f64,
    pub fpr: f64,
}

impl Risk {
    /// The target, refused unless 0 < fpr < tpr < 1 (both finite).
    pub fn new(tpr: f64, fpr: f64) -> Result<Self, RiskError> {
        let inside = |x: f64| x.is_finite() && x > 0.0 && x < 1.0;
        if !inside(fpr) {
            return Err(RiskError::Fpr { value: fpr });
        }
        if !inside(tpr) {
            return Err(RiskError::Tpr { value: tpr });
        }
        if tpr <= fpr {
            return Err(RiskError::TprNotAboveFpr { tpr, fpr });
        }
        Ok(Risk { tpr, fpr })
    }

    /// μ of the Gaussian trade-off curve through (fpr, tpr):
    /// Φ⁻¹(1 − a) − Φ⁻¹(1 − t), computed as Φ⁻¹(t) − Φ⁻¹(a) (the same by
    /// symmetry, without 1 − a's rounding). A μ-GDP run reaches this TPR at
    /// this FPR and no more.
    pub fn mu(&self) -> f64 {
        phi_inverse(self.tpr) - phi_inverse(self.fpr)
    }

    /// ε at δ of the μ-GDP run that allows exactly this risk (the crate's
    /// exact conversion).
    pub fn epsilon(&self, delta: f64) -> Result<f64, RiskError> {
        Ok(gdp::epsilon_for_mu(self.mu(), delta)?)
    }

    /// The smallest pure ε (δ = 0) whose region TPR ≤ e^ε·FPR,
    /// 1 − FPR ≤ e^ε·(1 − TPR) admits this risk: max(ln(t/a), ln((1 − a)/(1 − t))).
    pub fn pure_epsilon(&self) -> f64 {
        let (t, a) = (self.tpr, self.fpr);
        (t / a).ln().max(((1.0 - a) / (1.0 - t)).ln())
    }
}

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
    use crate::privacy::relative_error as rel;

    /// (FPR a, TPR t, μ, ε at δ = 1e-6), computed independently.
    const TABLE: [(f64, f64, f64, f64); 3] = [
        (0.01, 0.05, 0.681494, 3.174390),
        (0.01, 0.10, 1.044796, 5.136816),
        (0.01, 0.20, 1.484727, 7.713342),
    ];

    #[test]
    fn mu_and_epsilon_of_a_target_risk_match_the_reference_table() {
        for (a, t, mu, eps) in TABLE {
            let risk = Risk::new(t, a).unwrap();
            assert!(rel(risk.mu(), mu) < 1e-6, "μ({t} at {a}) = {}", risk.mu());
            let got = risk.epsilon(1e-6).unwrap();
            assert!(rel(got, eps) < 1e-6, "ε({t} at {a}) = {got}");
            // The curve of that μ passes through the target.
            assert!((tpr_at(risk.mu(), a) - t).abs() < 1e-10);
        }
    }

    #[test]
    fn a_target_outside_zero_fpr_tpr_one_is_refused_naming_its_field() {
        for (t, a, field) in [
            (0.1, 0.0, "fpr"),
            (0.1, 1.0, "fpr"),
            (0.1, f64::NAN, "fpr"),
            (1.0, 0.01, "tpr"),
            (f64::INFINITY, 0.01, "tpr"),
            (0.01, 0.01, "tpr"),
            (0.005, 0.01, "tpr"),
        ] {
            let e = Risk::new(t, a).unwrap_err();
            assert_eq!(e.field(), field, "({t}, {a}): {e}");
            assert!(e.to_string().contains(field), "{e}");
        }
        let bad_delta = Risk::new(0.1, 0.01).unwrap().epsilon(0.0).unwrap_err();
        assert_eq!(bad_delta.field(), "delta");
    }

    #[test]
    fn the_pure_epsilon_is_the_smallest_region_through_the_target() {
        // t = 0.1 at a = 0.01: ln 10 from TPR ≤ e^ε·FPR; the other edge binds near t → 1.
        let r = Risk::new(0.1, 0.01).unwrap();
        assert!((r.pure_epsilon() - 10f64.ln()).abs() < 1e-15);
        let r = Risk::new(0.999, 0.5).unwrap();
        assert!((r.pure_epsilon() - (0.5f64 / 0.001).ln()).abs() < 1e-12);
        // At that ε the target sits on the region's edge, just inside.
        for (t, a) in [(0.1, 0.01), (0.999, 0.5), (0.6, 0.3)] {
            let e = Risk::new(t, a).unwrap().pure_epsilon();
            let edge = crate::privacy::attacker::tpr_bound(e, 0.0, a);
            assert!((edge - t).abs() < 1e-12, "({t}, {a}): edge {edge}");
        }
    }

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
