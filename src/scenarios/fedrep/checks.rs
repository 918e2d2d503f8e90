//! The `Config` impl of a Private FedRep sweep (Snedeker et al., Fig. 1/2):
//! its presets by name and `validate_all`, which checks every field at once
//! (bounds on memory and on the work the cost model estimates included, and
//! last the accountant's σ for every ε, plan.rs).

use super::config::{
    AltMinUsers, FedRepConfig, Heads, InitMode, MAX_SECONDS, MEMORY_BUDGET_BYTES, PRESETS,
};
use super::fields::field_table;
use super::plan;
use crate::algorithms::fedrep::BatchMode;
use crate::privacy::Calibration;
use crate::scenarios::config_common::presets;
use crate::scenarios::error::ConfigError;
use crate::scenarios::field::{fields_once, target, too_slow, Config, PrivacyTarget};

impl Config for FedRepConfig {
    fields_once!(FedRepConfig, field_table);

    /// The privacy target: ε values, or risks met through the exact
    /// accountant (the papers' formulas are calibrated to an (ε, δ) only).
    fn risk_target(&self) -> target::RiskTarget<'_> {
        let formula = "the paper's and the authors' formulas set σ from an (ε, δ)";
        self.target
            .gaussian_calibrated(self.delta, self.calibration, formula)
    }

    presets! {
        /// A named starting point.
        /// - `fedrep-paper`: the paper's Figure 1 setting with the exact accountant
        ///   and the private initialization (the defaults).
        /// - `fedrep-authors-code`: as the public code behind the paper
        ///   (docs/algorithms.md, "The public code behind the papers"):
        ///   unit heads, 5 training + 5 final points, σ̂ = ψ√(48T ln(1.25/δ))/(nε),
        ///   non-private spectral init, all points every round.
        /// - `fedrep-linear-sim`: FedRep's linear simulation (Collins et al. 2021,
        ///   Fig. 1 of the official notebook): d = 20, k = 2, n = 100,
        ///   T = 500, step 0.1, label noise 0.001, unit heads, random N(0, 1) init
        ///   (orthonormalized), every training point for head and gradient. Their
        ///   clients have 10 samples, all used for training; here m = 20 so that
        ///   |S⁰| = 10 trains and |S¹| = 10 refits the final heads. Differences
        ///   kept on purpose: the step multiplies the *mean* of the users'
        ///   gradients (theirs the sum over 100 clients of gradients with features
        ///   scaled by 1/√m), U is re-orthonormalized every round, and the figure
        ///   shows dist = sin of the largest principal angle (theirs its square).
        ///   Private runs at ε ∈ {10, 100} with ψ = 1: with only 100 users the
        ///   noise is large, so their curves stop at visible floors. Priv-AltMin off.
        "fedrep-paper" => FedRepConfig::default(),
        "fedrep-authors-code" => FedRepConfig {
            calibration: Calibration::AuthorsCode,
            init: InitMode::NonPrivate,
            batch: BatchMode::Full,
            heads: Heads::Unit,
            altmin: true,
            altmin_mode: AltMinUsers::AllUsers,
            altmin_rounds: 5,
            altmin_clip: 1e-4,
            altmin_label_clip: 1e-4,
            ..FedRepConfig::default()
        },
        "fedrep-linear-sim" => FedRepConfig {
            n: 100,
            d: 20,
            k: 2,
            m: 20,
            target: PrivacyTarget::epsilons(vec![10.0, 100.0]),
            delta: 1e-4,
            rounds: 500,
            step: 0.1,
            clip: 1.0,
            noise: 0.001,
            calibration: Calibration::Exact,
            init: InitMode::Random,
            batch: BatchMode::Full,
            heads: Heads::Unit,
            altmin: false,
            ..FedRepConfig::default()
        },
    }

    /// The rules across fields (each field's own are in its table).
    fn cross_checks(&self, failed: &[ConfigError]) -> Vec<ConfigError> {
        let mut errors = Vec::new();
        // A k or d already refused by its own range is not judged again here
        // (one message per field: "k must be between 1 and 32" says enough).
        let refused = |name: &str| failed.iter().any(|e| e.field() == name);
        if self.k > self.d && !refused("k") && !refused("d") {
            errors.push(ConfigError::invalid(
                "k",
                format!("k must be ≤ d (got k = {}, d = {})", self.k, self.d),
            ));
        }
        if self.batch == BatchMode::Fresh
            && self.m >= 4
            && self.rounds >= 1
            && self.m_train() / (2 * self.rounds) == 0
        {
            errors.push(ConfigError::invalid(
                "batch",
                format!(
                    "fresh batches need 2·b·T ≤ |S⁰|: with m = {} (|S⁰| = {}) and T = {} there is not one point per batch; choose batch = split or full, or raise m to at least {}",
                    self.m,
                    self.m_train(),
                    self.rounds,
                    4 * self.rounds
                ),
            ));
        }
        if self.altmin && self.altmin_mode == AltMinUsers::Disjoint && self.n < self.altmin_rounds {
            errors.push(ConfigError::invalid(
                "altmin_mode",
                format!(
                    "disjoint subsets give each of the T = {} Priv-AltMin iterations its own users, so they need n ≥ T (got n = {}); raise n, lower altmin_rounds to at most {}, or choose altmin_mode = all-users",
                    self.altmin_rounds, self.n, self.n
                ),
            ));
        }
        if failed
            .iter()
            .chain(&errors)
            .all(|e| !matches!(e.field(), "n" | "d" | "m" | "k"))
        {
            let bytes = self.memory_bytes();
            if bytes > MEMORY_BUDGET_BYTES {
                // An n that fits the memory budget and, the work being about
                // linear in n, the time limit too: the suggestion is accepted.
                let by_memory = self.n as f64 * MEMORY_BUDGET_BYTES as f64 / bytes as f64 * 0.9;
                let seconds = super::cost::sweep_seconds(self);
                let by_time = if seconds > MAX_SECONDS {
                    self.n as f64 * MAX_SECONDS / seconds * 0.9
                } else {
                    f64::INFINITY
                };
                errors.push(ConfigError::invalid(
                    "n",
                    format!(
                        "this setting needs about {} MB, over the {} MB budget; lower n (e.g. n = {}), m or d",
                        bytes >> 20,
                        MEMORY_BUDGET_BYTES >> 20,
                        by_memory.min(by_time).max(2.0) as usize
                    ),
                ));
            }
        }
        if failed.is_empty() && errors.is_empty() {
            errors.extend(too_slow(
                "n",
                super::cost::sweep_seconds(self),
                MAX_SECONDS,
                "n, d, m, rounds, local_steps or the number of ε",
            ));
        }
        // Last, the accountant: a σ it cannot give for some ε.
        if failed.is_empty() && errors.is_empty() {
            errors.extend(refused_sigma(self));
        }
        errors
    }
}

/// The accountant asked for every ε (Private FedRep's σ, and Priv-AltMin's
/// when it runs): a σ it cannot give, or one that is not a positive finite
/// number, is an error at `epsilons`, so it is reported before anything runs.
fn refused_sigma(config: &FedRepConfig) -> Vec<ConfigError> {
    let mut errors = Vec::new();
    for &e in &config.target.epsilons {
        let fedrep = plan::plan_private_fedrep(config, e).map(|p| p.sigma);
        let altmin = if config.altmin {
            plan::plan_priv_altmin(config, e).map(|p| p.sigma_w.min(p.sigma_b))
        } else {
            Ok(1.0)
        };
        for sigma in [fedrep, altmin] {
            let problem = match sigma {
                Ok(s) if s.is_finite() && s > 0.0 => continue,
                Ok(s) => format!("the noise would be σ = {s:e}"),
                Err(err) => err.to_string(),
            };
            errors.push(ConfigError::invalid(
                "epsilons",
                format!("at ε = {e}: {problem}; change ε, δ or the clips"),
            ));
        }
        if !errors.is_empty() {
            break;
        }
    }
    errors
}
