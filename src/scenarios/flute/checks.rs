//! The FLUTE settings' checks and presets (`impl Config`): each field's own
//! rules are in its table (config.rs); here the rules that tie fields together,
//! and the accountant's σ for every ε (plan.rs), so config.rs need not import plan.rs.

use super::config::*;
use crate::data::under_parameterized::Spectrum;
use crate::scenarios::config_common::{presets, too_big};
use crate::scenarios::error::ConfigError;
use crate::scenarios::field::{common, fields_once, target, too_slow, Config, OptionalList};

impl Config for FluteConfig {
    fields_once!(FluteConfig, field_table);

    /// The privacy target: ε values, or risks (every FLUTE run is calibrated
    /// exactly).
    fn risk_target(&self) -> target::RiskTarget<'_> {
        self.target.gaussian(self.delta)
    }

    presets! {
        "flute-c1" => FluteConfig {
            fedrep_summed: true,
            ..FluteConfig::default()
        },
        "flute-gamma" => FluteConfig {
            n: 10,
            m: 10,
            k: 6,
            rounds: 600,
            ablation_m: OptionalList(vec![8, 9, 10, 11]),
            ..FluteConfig::default()
        },
        "flute-example1" => FluteConfig {
            n: 5,
            m: 40,
            d: 10,
            k: 1,
            rank: 5,
            spectrum: Spectrum::Example1,
            noise: 0.01,
            rounds: 400,
            ..FluteConfig::default()
        },
        "flute-overparam" => FluteConfig {
            k: 3,
            rank: 3,
            noise: 0.0,
            rounds: 600,
            ..FluteConfig::default()
        },
        "flute-private" => FluteConfig {
            n: 2000,
            private: true,
            // Private FedRep tuned on seeds 1–3 (step, clip, init clip) so that
            // its distance to U_k falls with ε: at step 1, ψ = 0.2 and ψ_init = 10
            // it did not learn in 150 rounds (its start was all noise).
            fedrep_step: 1.5,
            fedrep_clip: 0.5,
            init_clip: 1.0,
            ..FluteConfig::default()
        },
    }

    fn cross_checks(&self, failed: &[ConfigError]) -> Vec<ConfigError> {
        let mut errors = Vec::new();
        if self.k > self.d {
            errors.push(ConfigError::out_of_range(
                "k",
                &format!("at most d = {}", self.d),
                self.k,
            ));
        }
        let rank_max = self.d.min(self.n);
        if self.spectrum == Spectrum::Decaying && !(1..=rank_max).contains(&self.rank) {
            errors.push(ConfigError::out_of_range(
                "rank",
                &format!("between 1 and min(d, M) = {rank_max}"),
                self.rank,
            ));
        }
        if self.spectrum == Spectrum::Example1 && self.n > self.d {
            errors.push(ConfigError::invalid(
                "n",
                format!(
                    "Example 1 gives each client its own direction: at most d = {} clients",
                    self.d
                ),
            ));
        }
        // Fig. 4: γ₁ > 2γ₂ was not used because ‖BW‖_F "usually diverges": the
        // penalty −γ₁‖BW‖² then outgrows the balancing term.
        if self.gamma1 > 2.0 * self.gamma2 * (1.0 + 1e-12) {
            errors.push(ConfigError::invalid(
                "gamma1",
                format!(
                    "γ₁ = {} is more than 2γ₂ = {}: the regularizer is then unbounded below and ‖BW‖ diverges (the paper, Fig. 4, does not use it)",
                    self.gamma1,
                    2.0 * self.gamma2
                ),
            ));
        }
        if !failed.is_empty() || !errors.is_empty() {
            return errors;
        }
        let largest_m = self
            .ablation_m
            .iter()
            .copied()
            .chain([self.m])
            .max()
            .unwrap_or(self.m);
        let bytes = 8.0 * self.n as f64 * largest_m as f64 * (self.d + 1) as f64;
        errors.extend(too_big(
            "n",
            bytes,
            1.5e9,
            "M·N·(d + 1) numbers",
            "lower n, m or d",
        ));
        if self.private {
            errors.extend(common::refused_epsilon(&self.target.epsilons, |eps| {
                super::plan::plan(self, eps)
            }));
        }
        errors.extend(too_slow(
            "rounds",
            self.estimated_seconds(),
            MAX_SECONDS,
            "rounds, n, m, seeds or the ε list",
        ));
        errors
    }
}
