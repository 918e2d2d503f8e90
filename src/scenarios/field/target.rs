//! The privacy target given as an attacker's success instead of an ε
//! (Kulynych & Gomez, "Attack-aware noise calibration for differential
//! privacy", NeurIPS 2024): `risks`, the attacker's true-positive rates, at the
//! false-positive rate `risk_fpr`. A risk fixes the μ of the Gaussian
//! trade-off curve through it ([`Risk::mu`]); a Gaussian run is calibrated to
//! that μ exactly, and a pure-ε run to the smallest ε whose region admits it.
//!
//! How the two lists interact: `risks` is empty ("none") unless the target is
//! given as risks. When it holds risks, they drive the run and `epsilons` is
//! derived from them: each risk's ε at δ (the run's target ε, what the charts'
//! ε axes, the result rows and the job keys carry). An `epsilons` given beside
//! `risks` that is not that derived list is ambiguous and refused at `risks`;
//! the derived list itself is accepted, so a run's settings read back as the
//! same run (`sweep --shard`, `merge`, a link).

use super::rules::Interval;
use super::{common, Config, Field, FieldValue, OptionalList};
use crate::privacy::gdp::{epsilon_for_mu, mu_for_epsilon};
use crate::privacy::report::fmt_num;
use crate::privacy::risk::{Risk, RiskError};
use crate::privacy::{AccountingError, PrivacyReport};
use crate::scenarios::config_common::PRIVACY;
use crate::scenarios::csv_out::{self, CsvFile};
use crate::scenarios::error::ConfigError;

/// The attacker's false-positive rate a risk is stated at unless set.
pub const DEFAULT_FPR: f64 = 0.01;

/// [`DEFAULT_FPR`], for a config read without `risk_fpr`.
pub fn default_fpr() -> f64 {
    DEFAULT_FPR
}

/// The setting that lists the target risks.
pub const RISKS: &str = "risks";
/// The setting of the attacker's false-positive rate.
pub const RISK_FPR: &str = "risk_fpr";

/// How the note of a run calibrated to a risk begins ([`RiskTarget::note`]).
pub const RISK_NOTE: &str = "Calibrated to a risk";

/// How a risk becomes the run's target ε.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Conversion {
    /// The run is μ-GDP, accounted at `delta`; it spends `scale`·ε there (the
    /// trace scenario's runs spend 2ε at 2δ). The target ε of a risk is the
    /// exact ε of its μ at `delta`, divided by `scale`.
    Gaussian { delta: f64, scale: f64 },
    /// Pure ε-DP (the exponential mechanism): the smallest ε whose region
    /// TPR ≤ e^ε·FPR, 1 − FPR ≤ e^ε·(1 − TPR) admits the risk.
    Pure,
}

/// A config's privacy target as the accountant reads it: the ε list in use,
/// and the risks that drive it when there are any.
#[derive(Clone, Debug, PartialEq)]
pub struct RiskTarget<'a> {
    pub epsilons: &'a [f64],
    pub risks: &'a [f64],
    pub fpr: f64,
    pub conversion: Conversion,
    /// Why these settings cannot be calibrated to a risk (a calibration by a
    /// paper's formula), at the field to change.
    pub refused: Option<ConfigError>,
}

impl<'a> RiskTarget<'a> {
    /// The target of a μ-GDP run accounted at `delta`.
    pub fn gaussian(epsilons: &'a [f64], risks: &'a [f64], fpr: f64, delta: f64) -> Self {
        RiskTarget {
            epsilons,
            risks,
            fpr,
            conversion: Conversion::Gaussian { delta, scale: 1.0 },
            refused: None,
        }
    }

    /// The target of a pure ε-DP run.
    pub fn pure(epsilons: &'a [f64], risks: &'a [f64], fpr: f64) -> Self {
        RiskTarget {
            conversion: Conversion::Pure,
            ..RiskTarget::gaussian(epsilons, risks, fpr, 0.5)
        }
    }

    /// A run that spends `scale`·ε (at the δ given).
    pub fn scaled(mut self, scale: f64) -> Self {
        if let Conversion::Gaussian { delta, .. } = self.conversion {
            self.conversion = Conversion::Gaussian { delta, scale };
        }
        self
    }

    /// Refused as a risk target unless `exact` (σ from the exact accountant):
    /// a paper's formula is calibrated to an (ε, δ), not to a trade-off curve.
    pub fn exact_only(mut self, exact: bool, field: &str, how: &str) -> Self {
        if !exact {
            self.refused = Some(ConfigError::invalid(
                field,
                format!("a target given as risks is met exactly by the GDP accountant: {how}"),
            ));
        }
        self
    }

    /// Whether risks drive the run (else `epsilons` does).
    pub fn drives(&self) -> bool {
        !self.risks.is_empty()
    }

    /// The risk of TPR `tpr`, refused at `risks` or `risk_fpr`.
    fn risk(&self, tpr: f64) -> Result<Risk, ConfigError> {
        Risk::new(tpr, self.fpr).map_err(|e| {
            let field = match e {
                RiskError::Fpr { .. } => RISK_FPR,
                _ => RISKS,
            };
            ConfigError::invalid(field, e.to_string())
        })
    }

    /// The target ε of each risk (in `risks`' order).
    pub fn derived_epsilons(&self) -> Result<Vec<f64>, ConfigError> {
        self.risks
            .iter()
            .map(|&tpr| {
                let risk = self.risk(tpr)?;
                match self.conversion {
                    Conversion::Pure => Ok(risk.pure_epsilon()),
                    Conversion::Gaussian { delta, scale } => epsilon_for_mu(risk.mu(), delta)
                        .map(|eps| eps / scale)
                        .map_err(|e| ConfigError::invalid(RISKS, format!("the risk {tpr}: {e}"))),
                }
            })
            .collect()
    }

    /// The risk the run at target `epsilon` is calibrated to, if risks drive it.
    pub fn risk_at(&self, epsilon: f64) -> Option<Risk> {
        if !self.drives() {
            return None;
        }
        let i = self
            .epsilons
            .iter()
            .position(|&e| e.to_bits() == epsilon.to_bits())?;
        Risk::new(*self.risks.get(i)?, self.fpr).ok()
    }

    /// Marks the report of the run at target `epsilon` with the risk that
    /// drives it, if one does: the risk itself and a note saying how it set
    /// the noise.
    pub fn mark(&self, report: &mut PrivacyReport, epsilon: f64) {
        if let Some(risk) = self.risk_at(epsilon) {
            report.risk = Some(risk);
        }
        report.add_notes(self.note(epsilon));
    }

    /// What the report of the run at target `epsilon` says of its risk, if a
    /// risk drives it.
    fn note(&self, epsilon: f64) -> Option<String> {
        let risk = self.risk_at(epsilon)?;
        let (t, a) = (fmt_num(risk.tpr), fmt_num(risk.fpr));
        Some(match self.conversion {
            Conversion::Gaussian { .. } => format!(
                "{RISK_NOTE} (Kulynych & Gomez 2024): an attacker's true-positive rate of at most {t} at a false-positive rate of {a}. The Gaussian trade-off curve through that point has μ = Φ⁻¹(1 − {a}) − Φ⁻¹(1 − {t}) = {}, and the noise is set so that the whole run composes to exactly that μ; the target ε is that μ's ε at δ.",
                fmt_num(risk.mu())
            ),
            Conversion::Pure => format!(
                "{RISK_NOTE}: an attacker's true-positive rate of at most {t} at a false-positive rate of {a}. A pure ε-DP mechanism bounds every attack by TPR ≤ e^ε·FPR and 1 − FPR ≤ e^ε·(1 − TPR), so the run uses the smallest ε that admits that point, max(ln({t}/{a}), ln((1 − {a})/(1 − {t}))) = {}.",
                fmt_num(risk.pure_epsilon())
            ),
        })
    }

    /// The whole run's μ at target `epsilon`: its risk's μ exactly when risks
    /// drive the run, else the μ of (scale·ε, δ).
    pub fn mu(&self, epsilon: f64) -> Result<f64, AccountingError> {
        match (self.risk_at(epsilon), self.conversion) {
            (Some(risk), _) => Ok(risk.mu()),
            (None, Conversion::Gaussian { delta, scale }) => mu_for_epsilon(scale * epsilon, delta),
            // A pure-ε run has no μ; its calibration never asks.
            (None, Conversion::Pure) => Err(AccountingError::Mu {
                value: f64::NAN,
                max: crate::privacy::error::MAX_MU,
            }),
        }
    }
}

/// `results.csv` of a run driven by risks, with the columns `risk_tpr` and
/// `risk_fpr` appended: each private row's risk (found by its `epsilon`,
/// the target ε the risk implies), empty for the others. A file without an
/// `epsilon` column, or a run driven by ε, is left as it is, so every
/// ε-calibrated file keeps its bytes.
pub fn with_risk_columns(text: &str, target: &RiskTarget) -> String {
    // Asked first: every view of every run passes here, and most are driven by ε.
    if !target.drives() {
        return text.to_string();
    }
    let records = csv_out::records(text);
    let Some((header, rows)) = records.split_first() else {
        return text.to_string();
    };
    let Some(column) = header.iter().position(|h| h == "epsilon") else {
        return text.to_string();
    };
    let mut file = CsvFile::new(
        header
            .iter()
            .map(String::as_str)
            .chain(["risk_tpr", "risk_fpr"]),
    );
    for row in rows {
        let risk = row
            .get(column)
            .and_then(|cell| cell.parse::<f64>().ok())
            .and_then(|eps| target.risk_at(eps));
        let (tpr, fpr) = risk.map_or((String::new(), String::new()), |r| {
            (csv_out::number(r.tpr), csv_out::number(r.fpr))
        });
        file.row(row.iter().cloned().chain([tpr, fpr]));
    }
    file.finish()
}

/// The target risks: empty ("none") unless the target is given as risks;
/// each an attacker's true-positive rate in (0, 1), listed once.
pub fn risks<C: 'static>(
    get: fn(&C) -> &OptionalList<f64>,
    get_mut: fn(&mut C) -> &mut OptionalList<f64>,
) -> Field<C> {
    Field::new(RISKS, get, get_mut)
        .label("attacker's success (TPR)")
        .help("instead of ε: the attacker's true-positive rate at the false-positive rate below, e.g. 0.05,0.2 (none = the ε values drive)")
        .slider(0.02, 0.98, true)
        .group(PRIVACY)
        .essential()
        .range(Interval::open(0.0, 1.0))
        .item("risk")
        .distinct()
}

/// The attacker's false-positive rate the risks are stated at, in (0, 1).
pub fn risk_fpr<C: 'static>(get: fn(&C) -> &f64, get_mut: fn(&mut C) -> &mut f64) -> Field<C> {
    Field::new(RISK_FPR, get, get_mut)
        .label("attacker's false-positive rate")
        .help("the share of outsiders the attacker may wrongly accuse (with risks)")
        .group(PRIVACY)
        .essential()
        .range(Interval::open(0.0, 1.0))
}

/// After the settings given are read: when risks drive, sets `epsilons` to
/// the list they imply, or refuses at `risks` an `epsilons` given beside them
/// that is another list (`epsilons_given`: whether the pairs held one). A risk
/// that is refused leaves `epsilons` as it is, for [`check`] to name.
pub(super) fn settle<C: Config>(config: &mut C, epsilons_given: bool) -> Option<ConfigError> {
    let target = config.risk_target();
    if !target.drives() || target.refused.is_some() {
        return None;
    }
    let derived = target.derived_epsilons().ok()?.print();
    let field = C::field(common::EPSILONS)?;
    if epsilons_given && field.get(config) != derived {
        return Some(ambiguous(&field.get(config), &derived));
    }
    field.set(config, &derived).err()
}

fn ambiguous(given: &str, derived: &str) -> ConfigError {
    ConfigError::invalid(
        RISKS,
        format!("give the privacy target once: as ε values or as risks, not both (the ε values {given} were given beside risks that imply {derived}); set risks = none to use the ε values"),
    )
}

/// When risks drive: each risk refused by the accountant's rules (at `risks`
/// or `risk_fpr`, unless a field rule there already said why), a calibration
/// that cannot meet a risk, and an ε list that is not the one the risks imply.
pub(super) fn check<C: Config>(config: &C, failed: &[ConfigError]) -> Vec<ConfigError> {
    let target = config.risk_target();
    if !target.drives() {
        return Vec::new();
    }
    if let Some(refused) = target.refused {
        return vec![refused];
    }
    if failed
        .iter()
        .any(|e| e.field() == RISKS || e.field() == RISK_FPR)
    {
        return Vec::new();
    }
    match target.derived_epsilons() {
        Err(e) => vec![e],
        Ok(derived) if derived.as_slice() != target.epsilons => {
            vec![ambiguous(
                &target.epsilons.to_vec().print(),
                &derived.print(),
            )]
        }
        Ok(_) => Vec::new(),
    }
}

/// When risks drive, the ε list is theirs: an error about it is about them.
pub(super) fn name_the_risks<C: Config>(config: &C, errors: Vec<ConfigError>) -> Vec<ConfigError> {
    if !config.risk_target().drives() {
        return errors;
    }
    errors
        .into_iter()
        .map(|e| match e.field() {
            common::EPSILONS => {
                ConfigError::invalid(RISKS, format!("the ε these risks imply is refused: {e}"))
            }
            _ => e,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const EPS: [f64; 2] = [3.0, 7.0];

    #[test]
    fn a_risk_drives_its_runs_mu_and_an_epsilon_its_own() {
        let risks = [0.05, 0.2];
        let derived = RiskTarget::gaussian(&EPS, &risks, 0.01, 1e-6)
            .derived_epsilons()
            .unwrap();
        let t = RiskTarget::gaussian(&derived, &risks, 0.01, 1e-6);
        // The spec's values (μ = Φ⁻¹(0.99) − Φ⁻¹(0.95), ε at 1e-6).
        assert!((t.mu(derived[0]).unwrap() - 0.681494).abs() < 1e-6);
        assert!((derived[0] - 3.174390).abs() / 3.174390 < 1e-6);
        assert_eq!(t.risk_at(derived[1]).unwrap().tpr, 0.2);
        // An ε that is not a risk's: the μ of (ε, δ).
        assert_eq!(t.mu(1.0).unwrap(), mu_for_epsilon(1.0, 1e-6).unwrap());
        // Scaled: the run spends 2ε at the δ given.
        let half = RiskTarget::gaussian(&EPS, &risks, 0.01, 2e-6)
            .scaled(2.0)
            .derived_epsilons()
            .unwrap();
        let whole = epsilon_for_mu(Risk::new(0.05, 0.01).unwrap().mu(), 2e-6).unwrap();
        assert_eq!(half[0], whole / 2.0);
    }

    #[test]
    fn a_pure_target_goes_through_the_pure_region() {
        let risks = [0.05];
        let t = RiskTarget::pure(&EPS, &risks, 0.01);
        // max(ln(0.05/0.01), ln(0.99/0.95)) = ln 5.
        assert!((t.derived_epsilons().unwrap()[0] - 5f64.ln()).abs() < 1e-15);
    }

    #[test]
    fn a_risk_at_or_below_the_fpr_is_refused_at_risks_and_a_bad_fpr_at_risk_fpr() {
        let low = [0.01];
        let e = RiskTarget::gaussian(&EPS, &low, 0.01, 1e-6)
            .derived_epsilons()
            .unwrap_err();
        assert_eq!(e.field(), RISKS);
        let ok = [0.1];
        let e = RiskTarget::gaussian(&EPS, &ok, 1.0, 1e-6)
            .derived_epsilons()
            .unwrap_err();
        assert_eq!(e.field(), RISK_FPR);
    }
}
