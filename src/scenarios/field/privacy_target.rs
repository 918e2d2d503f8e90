//! The privacy target as every scenario's config holds it (its member
//! `target`): the ε list, or the attack risks that drive it
//! ([`target`](super::target)), with its rows of the field table. Each
//! scenario wrote the same three fields, their defaults and their rows
//! again; here once, so that the target reads, prints and is checked alike
//! in every scenario.
//!
//! The settings stay flat for the user (`epsilons`, `risks`, `risk_fpr` and
//! the scenario's `delta`, as `--set`, the URL and the page name them): only
//! the struct nests. What leaves a run is the field table's text (a shard's
//! settings, the jobs' fingerprints, `describe`), not the struct: shard parts
//! (postcard) hold rows and reports. Were a config ever written with
//! postcard, a nested struct's fields go in place, one after the other, the
//! bytes of the three flat fields it replaced; `#[serde(flatten)]`, which
//! postcard cannot read back, is not used. `delta` stays the config's own
//! field, right after the target as before: the pure ε-DP scenario has none.

use super::target::{self, RiskTarget};
use super::{Field, OptionalList};
use crate::privacy::Calibration;
use serde::{Deserialize, Serialize};

/// The target privacy levels of a sweep: the ε values, or the risks that
/// drive them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PrivacyTarget {
    /// Target privacy levels ε (derived from `risks` when they drive).
    pub epsilons: Vec<f64>,
    /// The target as attack risks (the attacker's TPR at `risk_fpr`); when
    /// set, they drive the run and `epsilons` is derived ([`target`]).
    #[serde(default)]
    pub risks: OptionalList<f64>,
    #[serde(default = "crate::scenarios::field::target::default_fpr")]
    pub risk_fpr: f64,
}

impl PrivacyTarget {
    /// The target given as these ε values (no risks, the default FPR).
    pub fn epsilons(epsilons: Vec<f64>) -> Self {
        PrivacyTarget {
            epsilons,
            risks: OptionalList(Vec::new()),
            risk_fpr: target::DEFAULT_FPR,
        }
    }

    /// The accountant's view of a μ-GDP run accounted at `delta`.
    pub fn gaussian(&self, delta: f64) -> RiskTarget<'_> {
        RiskTarget::gaussian(&self.epsilons, &self.risks, self.risk_fpr, delta)
    }

    /// The accountant's view of a μ-GDP run accounted at `delta` whose σ its
    /// `calibration` setting sets: risks are met only through the exact
    /// accountant, which calibrates to the trade-off curve (Kulynych & Gomez,
    /// NeurIPS 2024), so they are refused at `calibration` under a paper's
    /// formula, which sets σ from an (ε, δ) (`formula` says whose). The rule of
    /// every scenario with a `calibration` setting (DP-GD, FedRep), once.
    pub fn gaussian_calibrated(
        &self,
        delta: f64,
        calibration: impl Into<Calibration>,
        formula: &str,
    ) -> RiskTarget<'_> {
        let how = format!("choose calibration = exact ({formula})");
        let exact = calibration.into() == Calibration::Exact;
        self.gaussian(delta).exact_only(exact, "calibration", &how)
    }

    /// The accountant's view of a pure ε-DP run.
    pub fn pure(&self) -> RiskTarget<'_> {
        RiskTarget::pure(&self.epsilons, &self.risks, self.risk_fpr)
    }
}

/// The privacy target's rows of a field table, in the page's order:
/// `epsilons`, `risks`, `delta` (where the guarantee has a δ), `risk_fpr`.
/// Each starts as the shared field ([`common`](super::common), [`target`]);
/// a scenario shapes one with its own bound or help
/// (`.epsilons(|f| f.at_least(1e-3))`) and takes them with
/// [`TargetRows::rows`]. Made by `target_rows!`.
pub struct TargetRows<C> {
    epsilons: Field<C>,
    risks: Field<C>,
    delta: Option<Field<C>>,
    risk_fpr: Field<C>,
}

impl<C: 'static> TargetRows<C> {
    /// The shared rows (without δ); `target_rows!` builds them on the
    /// config's `target` member.
    pub fn new(epsilons: Field<C>, risks: Field<C>, risk_fpr: Field<C>) -> Self {
        TargetRows {
            epsilons,
            risks,
            delta: None,
            risk_fpr,
        }
    }

    /// The δ of the scenario's (ε, δ) guarantee, shown after `risks`.
    pub fn with_delta(mut self, delta: Field<C>) -> Self {
        self.delta = Some(delta);
        self
    }

    /// `epsilons` as `shape` makes it (a bound the scenario's numerics need,
    /// its own help or slider).
    pub fn epsilons(mut self, shape: impl FnOnce(Field<C>) -> Field<C>) -> Self {
        self.epsilons = shape(self.epsilons);
        self
    }

    /// `risks` as `shape` makes it.
    pub fn risks(mut self, shape: impl FnOnce(Field<C>) -> Field<C>) -> Self {
        self.risks = shape(self.risks);
        self
    }

    /// `delta` as `shape` makes it (nothing without one).
    pub fn delta(mut self, shape: impl FnOnce(Field<C>) -> Field<C>) -> Self {
        self.delta = self.delta.map(shape);
        self
    }

    /// The rows, in the page's order.
    pub fn rows(self) -> Vec<Field<C>> {
        [
            Some(self.epsilons),
            Some(self.risks),
            self.delta,
            Some(self.risk_fpr),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

/// The [`TargetRows`] of the config `C` in scope (`type C = …`, as in a
/// `field_table`), on its `target` member: `target_rows!(delta)`
/// with the (ε, δ) guarantee's `delta` member, `target_rows!()` for a pure
/// ε-DP scenario.
macro_rules! target_rows {
    ($($delta:ident)?) => {
        $crate::scenarios::field::privacy_target::TargetRows::new(
            $crate::scenarios::field::common::epsilons(
                |c: &C| &c.target.epsilons,
                |c: &mut C| &mut c.target.epsilons,
            ),
            $crate::scenarios::field::target::risks(
                |c: &C| &c.target.risks,
                |c: &mut C| &mut c.target.risks,
            ),
            $crate::scenarios::field::target::risk_fpr(
                |c: &C| &c.target.risk_fpr,
                |c: &mut C| &mut c.target.risk_fpr,
            ),
        )
        $(.with_delta($crate::scenarios::field::common::delta(
            |c: &C| &c.$delta,
            |c: &mut C| &mut c.$delta,
        )))?
    };
}
pub(crate) use target_rows;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::privacy::Calibration;

    /// Under a paper's formula risks are refused at `calibration`, in the words
    /// DP-GD gave when it wrote the rule itself; the exact accountant takes them.
    #[test]
    fn risks_are_refused_at_calibration_unless_it_is_exact() {
        let target = PrivacyTarget {
            epsilons: Vec::new(),
            risks: OptionalList(vec![0.1]),
            risk_fpr: target::DEFAULT_FPR,
        };
        let formula = "Prop. 3.2 sets σ from an (ε, δ)";
        let refused = target
            .gaussian_calibrated(1e-5, Calibration::Paper, formula)
            .refused;
        assert_eq!(
            refused.map(|e| e.to_string()).as_deref(),
            Some(
                "calibration: a target given as risks is met exactly by the GDP accountant: \
                 choose calibration = exact (Prop. 3.2 sets σ from an (ε, δ))"
            )
        );
        let exact = target.gaussian_calibrated(1e-5, Calibration::Exact, formula);
        assert!(exact.refused.is_none());
    }
}
