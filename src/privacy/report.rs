//! What a run spends: every released Gaussian stage, composed by each
//! accountant, with the exact (GDP) ε as the headline number.

use super::calibration::Calibration;
use super::error::AccountingError;
use super::error::{check_delta, check_epsilon};

use super::event::{GaussianStage, PureStage};
use super::relation::Relation;
use super::{gdp, rdp, zcdp};
use serde::{Deserialize, Serialize};

/// The privacy spent by a run, under every accountant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PrivacyReport {
    pub relation: Relation,
    pub delta: f64,
    pub calibration: Calibration,
    /// What the user asked for.
    pub epsilon_target: f64,
    /// Every released Gaussian stage (init, rounds, …).
    pub stages: Vec<GaussianStage>,
    /// Every pure ε-DP release (the exponential mechanism), composed by adding ε.
    #[serde(default)]
    pub pure: Vec<PureStage>,
    /// ε actually spent at δ, exact GDP composition of all stages: the headline.
    pub epsilon_exact: f64,
    /// RDP, improved conversion, continuous α.
    pub epsilon_rdp: f64,
    pub rdp_alpha: f64,
    /// RDP, classic conversion, continuous α.
    pub epsilon_rdp_classic: f64,
    pub rdp_classic_alpha: f64,
    /// zCDP, simple conversion.
    pub epsilon_zcdp: f64,
    pub notes: Vec<String>,
    /// The sensitivities are high-probability bounds (a paper's variant with
    /// no clipping): the guarantee holds only on that likely event.
    #[serde(default)]
    pub high_probability_sensitivities: bool,
    /// The attacker's risk the run was calibrated to (Kulynych & Gomez 2024),
    /// when risks drive it rather than an ε: the point its trade-off curve
    /// passes through. (Always written: the shards' parts are a binary format
    /// that cannot skip a field.)
    #[serde(default)]
    pub risk: Option<super::risk::Risk>,
}

/// Relative slack for "spends the target": the solvers leave up to ~1e-12
/// (bisection, the evaluation error of ln δ(ε), and its safety margin).
const TARGET_SLACK: f64 = 1e-9;

impl PrivacyReport {
    pub fn from_stages(
        stages: Vec<GaussianStage>,
        delta: f64,
        relation: Relation,
        calibration: Calibration,
        epsilon_target: f64,
    ) -> Result<Self, AccountingError> {
        check_delta(delta)?;
        check_epsilon(epsilon_target)?;
        if stages.is_empty() {
            return Err(AccountingError::NoStages);
        }
        for s in &stages {
            s.validate()?;
        }
        let mu = stages.iter().map(|s| s.mu() * s.mu()).sum::<f64>().sqrt();
        let slope: f64 = stages.iter().map(GaussianStage::rdp_slope).sum();
        let rho: f64 = stages.iter().map(GaussianStage::rho).sum();
        let epsilon_exact = gdp::epsilon_for_mu(mu, delta)?;
        let improved = rdp::epsilon_improved(slope, delta)?;
        let classic = rdp::epsilon_classic(slope, delta)?;
        let epsilon_zcdp = zcdp::epsilon_for_rho(rho, delta)?;

        let mut notes = Vec::new();
        let over = epsilon_exact > epsilon_target * (1.0 + TARGET_SLACK);
        match calibration {
            Calibration::Exact if !over => notes.push(format!(
                "Noise is calibrated exactly: the {} noisy release(s) together spend ε = {} at δ = {}.",
                stages.iter().map(|s| s.steps).sum::<u64>(),
                fmt_eps(epsilon_exact),
                fmt_num(delta)
            )),
            Calibration::Exact => {}
            Calibration::Paper | Calibration::AuthorsCode => notes.push(format!(
                "Noise is set by {}; the exact accountant says this run spends ε = {} (target ε = {}).",
                match calibration {
                    Calibration::Paper => "the paper's formula",
                    _ => "the formula in the authors' code",
                },
                fmt_eps(epsilon_exact),
                fmt_num(epsilon_target)
            )),
        }
        if over {
            notes.push(format!(
                "Warning: this run spends ε = {} at δ = {}, more than the target ε = {}.",
                fmt_eps(epsilon_exact),
                fmt_num(delta),
                fmt_num(epsilon_target)
            ));
        }
        if improved.alpha_at_edge {
            notes.push(format!(
                "The best Rényi order is α = {}, outside the usual grid 1.1–63: grid-based RDP libraries would report a larger ε.",
                fmt_num(improved.alpha)
            ));
        }
        Ok(PrivacyReport {
            relation,
            delta,
            calibration,
            epsilon_target,
            stages,
            pure: Vec::new(),
            epsilon_exact,
            epsilon_rdp: improved.epsilon,
            rdp_alpha: improved.alpha,
            epsilon_rdp_classic: classic.epsilon,
            rdp_classic_alpha: classic.alpha,
            epsilon_zcdp,
            notes,
            high_probability_sensitivities: false,
            risk: None,
        })
    }

    /// The report of everything `event` releases: its Gaussian stages composed
    /// by every accountant, and a note for each part that is not private.
    pub fn from_event(
        event: &super::event::PrivacyEvent,
        delta: f64,
        relation: Relation,
        calibration: Calibration,
        epsilon_target: f64,
    ) -> Result<Self, AccountingError> {
        let stages = event.gaussian_stages();
        let pure = event.pure_stages();
        let pure_epsilon: f64 = pure.iter().map(|p| p.epsilon * p.steps as f64).sum();
        let mut report = if stages.is_empty() && !pure.is_empty() {
            Self::pure_only(pure_epsilon, relation, calibration, epsilon_target)?
        } else {
            let mut r = Self::from_stages(stages, delta, relation, calibration, epsilon_target)?;
            if pure_epsilon > 0.0 {
                // Basic composition of (ε₁, δ) with (ε₂, 0): (ε₁ + ε₂, δ), under every accountant.
                r.epsilon_exact += pure_epsilon;
                r.epsilon_rdp += pure_epsilon;
                r.epsilon_rdp_classic += pure_epsilon;
                r.epsilon_zcdp += pure_epsilon;
                r.add_note(format!(
                    "the pure ε-DP releases add ε = {} by basic composition",
                    fmt_num(pure_epsilon)
                ));
            }
            r
        };
        report.pure = pure;
        report.notes.extend(event.non_private_parts());
        Ok(report)
    }

    /// The report of pure ε-DP releases only: δ = 0 and every accountant gives
    /// the same ε (their sum).
    fn pure_only(
        epsilon: f64,
        relation: Relation,
        calibration: Calibration,
        epsilon_target: f64,
    ) -> Result<Self, AccountingError> {
        check_epsilon(epsilon_target)?;
        Ok(PrivacyReport {
            relation,
            delta: 0.0,
            calibration,
            epsilon_target,
            stages: Vec::new(),
            pure: Vec::new(),
            epsilon_exact: epsilon,
            epsilon_rdp: epsilon,
            rdp_alpha: f64::NAN,
            epsilon_rdp_classic: epsilon,
            rdp_classic_alpha: f64::NAN,
            epsilon_zcdp: epsilon,
            notes: vec![format!(
                "A pure ε-DP mechanism: δ = 0, and every accountant gives ε = {} (no Gaussian noise to compose).",
                fmt_eps(epsilon)
            )],
            high_probability_sensitivities: false,
            risk: None,
        })
    }

    /// Appends a note, e.g. "Initialization is not private."
    pub fn add_note(&mut self, note: impl Into<String>) {
        self.notes.push(note.into());
    }

    /// Adds each of `notes` (none: nothing).
    pub fn add_notes<S: Into<String>>(&mut self, notes: impl IntoIterator<Item = S>) {
        self.notes.extend(notes.into_iter().map(Into::into));
    }

    /// μ of the whole run: √(Σ μ_j²).
    pub fn mu_total(&self) -> f64 {
        self.stages
            .iter()
            .map(|s| s.mu() * s.mu())
            .sum::<f64>()
            .sqrt()
    }

    /// μ of the whole run when every release is Gaussian (the run is then μ-GDP
    /// and its trade-off curve is exact); none with a pure ε-DP release.
    pub fn gaussian_mu(&self) -> Option<f64> {
        (self.pure.is_empty() && !self.stages.is_empty()).then(|| self.mu_total())
    }

    /// One-paragraph plain-language reading of the headline (exact) ε, for
    /// users as the unit of privacy.
    pub fn plain_language(&self) -> String {
        self.plain_language_for("user")
    }

    /// The same, for a scenario whose unit of privacy is `unit` ("user",
    /// "training sample"): what ε and δ bound, in words, then how strong
    /// that is.
    pub fn plain_language_for(&self, unit: &str) -> String {
        self.reading(unit, strength(self.epsilon_exact, unit))
    }

    /// The same, for data of `n` people: with δ ≥ 1/n the grade of ε gives way
    /// to what such a δ allows (publishing one person's record at random meets
    /// it), so a small ε beside a large δ is never called strong.
    pub fn plain_language_among(&self, unit: &str, n: usize) -> String {
        let size = if n > 0 && self.delta >= 1.0 / n as f64 {
            format!("But δ ≥ 1/n (n = {n}), so the guarantee is weak whatever ε says.")
        } else {
            strength(self.epsilon_exact, unit)
        };
        self.reading(unit, size)
    }

    /// What ε and δ bound, in words, then `size`: how strong that is. With
    /// δ > 0 the bound is on sets of outcomes (e^ε times plus δ), and δ is not
    /// the chance that an outcome's privacy loss exceeds ε: for a Gaussian run
    /// that chance is stated exactly, Φ(−ε/μ + μ/2) (Dong, Roth & Su 2022).
    fn reading(&self, unit: &str, size: String) -> String {
        let eps = self.epsilon_exact;
        let change = match self.relation {
            Relation::ReplaceOne => format!("one {unit}'s data replaced by anyone else's"),
            Relation::AddRemoveOne => format!("one {unit}'s data added or removed"),
        };
        let head = format!(
            "This run is (ε = {eps_s}, δ = {delta})-differentially private for each {unit}.",
            eps_s = fmt_eps(eps),
            delta = fmt_num(self.delta),
        );
        let factor = exp_factor(eps);
        let bound = if self.delta == 0.0 {
            format!(
                "Whatever everyone else's data, any outcome of the run (everything it releases) becomes at \
                 most e^ε {factor} times as likely with {change}, with no exception (δ = 0: a pure guarantee)."
            )
        } else {
            let tail = match self.gaussian_mu() {
                Some(mu) => {
                    let p = super::risk::loss_above(mu, eps);
                    format!(
                        " Single outcomes can be more than e^ε times as likely: with this run's Gaussian \
                         noise (μ = {}) the privacy loss exceeds ε with a chance of exactly {} \
                         (Φ(−ε/μ + μ/2), {} × δ); δ is not that chance.",
                        fmt_num(mu),
                        fmt_num(p),
                        fmt_num(p / self.delta)
                    )
                }
                None => " δ is not the chance that a single outcome's privacy loss exceeds ε: (ε, δ) \
                         bounds the chance of a loss above any ε′ > ε by δ/(1 − e^(ε − ε′)), e.g. by 2δ \
                         above ε + ln 2."
                    .to_string(),
            };
            format!(
                "Whatever everyone else's data, the probability of any set of outcomes of the run \
                 (everything it releases) becomes at most e^ε {factor} times as large, plus δ, with \
                 {change}: every membership test has true-positive rate ≤ e^ε × false-positive rate + δ.{tail}"
            )
        };
        format!("{head} {bound} {size}")
    }
}

/// How strong a guarantee of this ε is, in graded words. A hair of
/// tolerance: ε is rounded up (never understated) by the solver.
fn strength(eps: f64, unit: &str) -> String {
    let at_most = |x: f64| eps <= x * (1.0 + 1e-9);
    if at_most(0.1) {
        format!("That is a very strong guarantee: the run barely depends on any one {unit}.")
    } else if at_most(1.0) {
        "That is a strong guarantee, the range usually recommended.".into()
    } else if at_most(3.0) {
        "That is a moderate guarantee.".into()
    } else if at_most(10.0) {
        "That is a weak guarantee: useful against casual inference, not against a determined attacker.".into()
    } else {
        "That is a very weak guarantee: the noise still hides something, but the formal bound says little.".into()
    }
}

/// "≈ 2.72" for small ε, "≈ 10^43" for large ones (never overflows).
fn exp_factor(eps: f64) -> String {
    if eps < 20.0 {
        format!("≈ {}", fmt_num(eps.exp()))
    } else {
        format!("≈ 10^{:.0}", eps / std::f64::consts::LN_10)
    }
}

/// Four significant digits; scientific for very small or large magnitudes.
/// An ε spent, for reading: four significant digits rounded *up*, so the text
/// never shows less than the run spends (4.377178 → "4.378"). A value within
/// 1e-9 (relative) above a four-digit number shows as that number: that is the
/// size of the solvers' own safety margins (exact calibration to ε = 1 reports
/// 1 + ~1e-12), not privacy spent.
pub fn fmt_eps(x: f64) -> String {
    if !(x.is_finite() && x > 0.0) {
        return fmt_num(x);
    }
    let scale = 10f64.powi(3 - x.log10().floor() as i32);
    fmt_num((x * scale * (1.0 - 1e-9)).ceil() / scale)
}

pub fn fmt_num(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    let a = x.abs();
    if !(1e-3..1e6).contains(&a) {
        let s = format!("{x:.3e}");
        // 1.000e-5 → 1e-5
        match s.split_once('e') {
            Some((m, e)) => {
                let m = m.trim_end_matches('0').trim_end_matches('.');
                format!("{m}e{e}")
            }
            None => s,
        }
    } else {
        let digits = (3 - a.log10().floor() as i32).max(0) as usize;
        let s = format!("{x:.digits$}");
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_formatted_for_people() {
        assert_eq!(fmt_num(4.377178), "4.377");
        assert_eq!(fmt_eps(4.377178), "4.378");
        assert_eq!(fmt_eps(1.0 + 1e-12), "1");
        assert_eq!(fmt_eps(0.5403925847999149), "0.5404");
        assert_eq!(fmt_eps(1.00011), "1.001");
        assert_eq!(fmt_num(1e-5), "1e-5");
        assert_eq!(fmt_num(79.6), "79.6");
        assert_eq!(fmt_num(0.0), "0");
        assert_eq!(exp_factor(100.0), "≈ 10^43");
    }

    /// The report of one stage (sensitivity 1) at δ = 1e-5, replace-one.
    fn one_stage_report(
        sigma: f64,
        steps: u64,
        calibration: Calibration,
        target: f64,
    ) -> Result<PrivacyReport, AccountingError> {
        let st = GaussianStage::new("rounds", "mean", 1.0, sigma, steps);
        PrivacyReport::from_stages(vec![st], 1e-5, Relation::ReplaceOne, calibration, target)
    }

    #[test]
    fn a_stage_with_zero_noise_cannot_be_accounted() {
        let r = one_stage_report(0.0, 5, Calibration::Exact, 1.0);
        assert!(matches!(r, Err(AccountingError::Sigma { .. })));
    }

    #[test]
    fn plain_language_names_epsilon_delta_and_the_relation() {
        let r = one_stage_report(1.0, 1, Calibration::Paper, 4.0).unwrap();
        let text = r.plain_language();
        assert!(
            text.contains("ε = 4.378") && text.contains("δ = 1e-5"),
            "{text}"
        );
        assert!(text.contains("for each user"), "{text}");
        assert!(text.contains("one user's data replaced"), "{text}");
        // e^ε is rounded, not rounded up; the size is graded.
        assert!(text.contains("e^ε ≈ 79.61 times"), "{text}");
        // δ > 0 bounds sets of outcomes; the chance of a loss above ε is stated, not δ.
        let p = crate::privacy::risk::loss_above(1.0, r.epsilon_exact);
        assert!(
            text.contains(&format!(
                "exceeds ε with a chance of exactly {}",
                fmt_num(p)
            )),
            "{text}"
        );
        // The old, false reading of δ (split so a search for it finds only live text).
        assert!(
            !text.contains(concat!("probability of at ", "most δ")),
            "{text}"
        );
        assert!(text.contains("weak guarantee"), "{text}");
        let sample = r.plain_language_for("training sample");
        assert!(sample.contains("for each training sample"), "{sample}");
        assert_eq!(
            strength(0.05, "user").split(':').next(),
            Some("That is a very strong guarantee")
        );
        assert!(strength(1.0 + 1e-12, "user").contains("strong guarantee, the range"));
        assert!(strength(2.0, "user").contains("moderate"));
        assert!(strength(50.0, "user").contains("very weak"));
        assert!(r.notes.iter().any(|n| n.contains("more than the target")));
        assert!(r.notes.iter().any(|n| n.contains("paper's formula")));
    }

    #[test]
    fn a_delta_of_one_over_n_is_never_called_strong() {
        // A small ε at δ = 1e-5: graded by ε among fewer than 100,000 people, weak from
        // n = 100,000 (δ = 1/n) up, where publishing one record at random meets δ.
        let r = one_stage_report(50.0, 1, Calibration::Exact, 0.2).unwrap();
        let few = r.plain_language_among("sample", 99_999);
        assert!(few.contains("very strong guarantee"), "{few}");
        for n in [100_000, 1_000_000] {
            let many = r.plain_language_among("sample", n);
            assert!(
                many.contains(&format!("δ ≥ 1/n (n = {n})")) && !many.contains("strong"),
                "{many}"
            );
        }
    }
}
