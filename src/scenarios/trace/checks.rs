//! The trace-regression settings' checks and presets (`impl Config`): each
//! field's own rules are in its table (config.rs); here the rules that tie
//! fields together and the accountant's σ (plan.rs), so config.rs need not
//! import plan.rs.

use super::config::*;
use crate::data::trace_regression::DataPath;
use crate::scenarios::config_common::{presets, too_big};
use crate::scenarios::error::ConfigError;
use crate::scenarios::field::{
    common, fields_once, target, too_slow, Config, OptionalList, PrivacyTarget,
};

impl Config for TraceConfig {
    fields_once!(TraceConfig, field_table);

    /// The privacy target: ε values, or risks for the whole run (start and
    /// iterations), which spends 2ε at 2δ (Theorem 3); only the clipped
    /// variant is calibrated exactly.
    fn risk_target(&self) -> target::RiskTarget<'_> {
        self.target
            .gaussian((2.0 * self.delta).min(0.5))
            .scaled(2.0)
            .exact_only(
                self.variant == Variant::Clipped,
                "variant",
                "choose variant = clipped (the paper's variant sets its noise by its own formulas)",
            )
    }

    presets! {
        "trace-paper" => TraceConfig::default(),
        "trace-lstar" => TraceConfig {
            n: vec![50_000],
            target: PrivacyTarget::epsilons(vec![1.0]),
            lstar_grid: OptionalList(vec![1, 2, 3, 4, 5, 6, 8, 10, 12, 15]),
            ..TraceConfig::default()
        },
        "trace-weak" => TraceConfig {
            privacy: PrivacyKind::Weak,
            n: vec![10_000, 50_000, 200_000],
            repeats: 10,
            ..TraceConfig::default()
        },
    }

    fn cross_checks(&self, failed: &[ConfigError]) -> Vec<ConfigError> {
        let mut errors = Vec::new();
        let rmax = self.d1.min(self.d2);
        if !(1..=rmax).contains(&self.r) {
            errors.push(ConfigError::out_of_range(
                "r",
                &format!("between 1 and min(d1, d2) = {rmax}"),
                self.r,
            ));
        }
        if self.singular_values.len() != self.r {
            errors.push(ConfigError::invalid(
                "singular_values",
                format!(
                    "give r = {} values, largest first (got {})",
                    self.r,
                    self.singular_values.len()
                ),
            ));
        }
        let p = self.d1 * self.d2;
        if let Some(&n) = self.n.iter().find(|&&n| n < p) {
            errors.push(ConfigError::invalid(
                "n",
                format!("every sample size must be at least d1·d2 = {p} (got {n})"),
            ));
        }
        if !failed.is_empty() || !errors.is_empty() {
            return errors;
        }
        if self.variant == Variant::Clipped && self.data == DataPath::Sufficient {
            errors.push(ConfigError::invalid(
                "variant",
                "the clipped variant clips each sample, so it needs the samples: choose data = direct",
            ));
        }
        if self.data == DataPath::Direct {
            let largest = self.n.iter().copied().max().unwrap_or(0);
            let bytes = 8.0 * largest as f64 * (p + 1) as f64;
            errors.extend(too_big(
                "data",
                bytes,
                1.0e9,
                &format!("n = {largest} matrices of {p} numbers"),
                "choose data = sufficient, or lower n",
            ));
        }
        errors.extend(common::refused_epsilon(&self.target.epsilons, |eps| {
            super::plan::plan(self, self.n[0], eps, self.variant, self.privacy)
        }));
        errors.extend(too_slow(
            "repeats",
            self.estimated_seconds(),
            MAX_SECONDS,
            "repeats, n, d1·d2 or the ε list",
        ));
        errors
    }
}
