//! Questions to the accountant about Gaussian releases, answered under every
//! accountant at once: the ε that a σ spends, the σ that an ε needs, and the
//! ε of a list of stages. The CLI's `account` and the JS API ask these.

use super::calibration::sigma_for_epsilon_exact;
use super::error::{check_delta, check_epsilon};
use super::event::GaussianStage;
use super::gdp::epsilon_for_mu;
use super::rdp::{
    epsilon_classic, epsilon_improved, slope_for_epsilon_classic, slope_for_epsilon_improved,
};
use super::zcdp::{epsilon_for_rho, rho_for_epsilon};
use super::AccountingError;
use serde::{Deserialize, Serialize};

/// One answer per accountant (an ε spent, or a σ needed), with the order α
/// at which each RDP conversion answers. Both questions give it, flattened
/// into their JSON (the JS API's `EpsilonSpent` and `SigmaNeeded`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PerAccountant {
    /// Exact (GDP) composition: the tight answer.
    pub exact: f64,
    /// RDP with the improved conversion, and its optimal order α.
    pub rdp: f64,
    pub rdp_alpha: f64,
    /// RDP with the classic conversion.
    pub rdp_classic: f64,
    pub rdp_classic_alpha: f64,
    /// zCDP with the simple conversion ρ + 2√(ρ ln 1/δ).
    pub zcdp: f64,
}

/// The ε spent at δ by some Gaussian releases, per accountant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpsilonSpent {
    pub delta: f64,
    /// μ of the composition as a μ-GDP mechanism: √(Σ steps·(s/σ)²).
    pub mu: f64,
    #[serde(flatten)]
    pub epsilon: PerAccountant,
}

/// The σ per release that each accountant needs for a target (ε, δ).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SigmaNeeded {
    pub epsilon: f64,
    pub delta: f64,
    pub steps: u64,
    pub sensitivity: f64,
    #[serde(flatten)]
    pub sigma: PerAccountant,
}

/// The ε that these stages (each `steps` releases of sensitivity s and noise
/// σ) spend together at δ, under every accountant.
pub fn epsilon_for_stages(
    stages: &[GaussianStage],
    delta: f64,
) -> Result<EpsilonSpent, AccountingError> {
    check_delta(delta)?;
    if stages.is_empty() {
        return Err(AccountingError::NoStages);
    }
    for s in stages {
        s.validate()?;
    }
    let mu = stages.iter().map(|s| s.mu() * s.mu()).sum::<f64>().sqrt();
    let slope: f64 = stages.iter().map(GaussianStage::rdp_slope).sum();
    let rho: f64 = stages.iter().map(GaussianStage::rho).sum();
    let improved = epsilon_improved(slope, delta)?;
    let classic = epsilon_classic(slope, delta)?;
    Ok(EpsilonSpent {
        delta,
        mu,
        epsilon: PerAccountant {
            exact: epsilon_for_mu(mu, delta)?,
            rdp: improved.epsilon,
            rdp_alpha: improved.alpha,
            rdp_classic: classic.epsilon,
            rdp_classic_alpha: classic.alpha,
            zcdp: epsilon_for_rho(rho, delta)?,
        },
    })
}

/// The ε that `steps` releases of sensitivity `sensitivity` and noise `sigma` spend at δ.
pub fn epsilon_for_sigma(
    sigma: f64,
    delta: f64,
    steps: u64,
    sensitivity: f64,
) -> Result<EpsilonSpent, AccountingError> {
    epsilon_for_stages(
        &[GaussianStage::new(
            "releases",
            "Gaussian",
            sensitivity,
            sigma,
            steps,
        )],
        delta,
    )
}

/// The σ per release that `steps` releases of sensitivity `sensitivity` need
/// to spend exactly (ε, δ), under every accountant.
pub fn sigma_for_epsilon(
    epsilon: f64,
    delta: f64,
    steps: u64,
    sensitivity: f64,
) -> Result<SigmaNeeded, AccountingError> {
    check_epsilon(epsilon)?;
    check_delta(delta)?;
    super::error::check_sensitivity(sensitivity)?;
    let exact = sigma_for_epsilon_exact(epsilon, delta, steps, sensitivity)?;
    let sigma_for_slope = |slope: f64| sensitivity * (steps as f64 / (2.0 * slope)).sqrt();
    let improved_slope = slope_for_epsilon_improved(epsilon, delta)?;
    let classic_slope = slope_for_epsilon_classic(epsilon, delta)?;
    let needed = SigmaNeeded {
        epsilon,
        delta,
        steps,
        sensitivity,
        sigma: PerAccountant {
            exact,
            rdp: sigma_for_slope(improved_slope),
            rdp_alpha: epsilon_improved(improved_slope, delta)?.alpha,
            rdp_classic: sigma_for_slope(classic_slope),
            rdp_classic_alpha: epsilon_classic(classic_slope, delta)?.alpha,
            zcdp: sigma_for_slope(rho_for_epsilon(epsilon, delta)?),
        },
    };
    // A σ past what a number can hold (a huge sensitivity) is refused, not printed as ∞.
    let s = &needed.sigma;
    for sigma in [s.exact, s.rdp, s.rdp_classic, s.zcdp] {
        super::error::check_sigma(sigma)?;
    }
    Ok(needed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sigma_one_spends_the_published_epsilons() {
        // σ = 1, one release of sensitivity 1, δ = 1e-5: the exact ε is 4.377178
        // and RDP (improved conversion, continuous α) 4.728387; the classic
        // conversion gives 5.298526 (the values `dp-explorer account` prints).
        let e = epsilon_for_sigma(1.0, 1e-5, 1, 1.0).unwrap().epsilon;
        assert!((e.exact - 4.377178).abs() < 1e-6, "{e:?}");
        assert!((e.rdp - 4.728387).abs() < 1e-6, "{e:?}");
        assert!((e.rdp_classic - 5.298526).abs() < 1e-6, "{e:?}");
        assert!(e.exact <= e.rdp && e.rdp <= e.rdp_classic && e.exact <= e.zcdp);
    }

    #[test]
    fn the_sigma_an_epsilon_needs_spends_that_epsilon() {
        let s = sigma_for_epsilon(1.0, 1e-5, 100, 0.5).unwrap().sigma;
        let back = epsilon_for_sigma(s.exact, 1e-5, 100, 0.5).unwrap().epsilon;
        assert!((back.exact - 1.0).abs() < 1e-9, "{back:?}");
        assert!(s.exact <= s.rdp && s.rdp <= s.rdp_classic && s.exact <= s.zcdp);
    }

    /// The JS API's `EpsilonSpent` and `SigmaNeeded` are flat objects.
    #[test]
    fn the_answers_serialize_flat() {
        let e = serde_json::to_value(epsilon_for_sigma(1.0, 1e-5, 1, 1.0).unwrap()).unwrap();
        let s = serde_json::to_value(sigma_for_epsilon(1.0, 1e-5, 1, 1.0).unwrap()).unwrap();
        for key in [
            "exact",
            "rdp",
            "rdp_alpha",
            "rdp_classic",
            "rdp_classic_alpha",
            "zcdp",
        ] {
            assert!(e[key].is_number() && s[key].is_number(), "{key}: {e} {s}");
        }
        assert_eq!(e.as_object().unwrap().len(), 8, "{e}");
        assert_eq!(s.as_object().unwrap().len(), 10, "{s}");
    }

    #[test]
    fn stages_compose_and_bad_ones_are_refused() {
        let a = GaussianStage::new("a", "G", 1.0, 2.0, 4);
        let b = GaussianStage::new("b", "G", 1.0, 2.0, 4);
        let both = epsilon_for_stages(&[a.clone(), b], 1e-6).unwrap();
        let one = epsilon_for_stages(&[GaussianStage { steps: 8, ..a }], 1e-6).unwrap();
        assert!((both.epsilon.exact - one.epsilon.exact).abs() < 1e-12);
        assert!(epsilon_for_stages(&[], 1e-6).is_err());
        assert!(epsilon_for_sigma(0.0, 1e-6, 1, 1.0).is_err());
        assert!(epsilon_for_sigma(1.0, 2.0, 1, 1.0).is_err());
    }
}
