//! The `Config` impl of a Private FedRep sweep (Snedeker et al., Fig. 1/2):
//! its presets by name and `validate_all`, which checks every field at once
//! (bounds on memory and on the work the cost model estimates included).

use super::config::{
    AltMinUsers, FedRepConfig, Heads, InitMode, MAX_SECONDS, MEMORY_BUDGET_BYTES, PRESETS,
};
use super::fields::field_table;
use crate::algorithms::fedrep::BatchMode;
use crate::privacy::Calibration;
use crate::scenarios::error::ConfigError;
use crate::scenarios::field::{Config, Field};
use std::sync::OnceLock;

impl Config for FedRepConfig {
    fn fields() -> &'static [Field<Self>] {
        static FIELDS: OnceLock<Vec<Field<FedRepConfig>>> = OnceLock::new();
        FIELDS.get_or_init(field_table)
    }

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
    fn preset(name: &str) -> Result<Self, ConfigError> {
        // Preset names are matched like the DP-GD ones: trimmed, any case.
        match name.trim().to_ascii_lowercase().as_str() {
            "fedrep-paper" => Ok(FedRepConfig::default()),
            "fedrep-authors-code" => Ok(FedRepConfig {
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
            }),
            "fedrep-linear-sim" => Ok(FedRepConfig {
                n: 100,
                d: 20,
                k: 2,
                m: 20,
                epsilons: vec![10.0, 100.0],
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
            }),
            other => Err(ConfigError::UnknownPreset {
                name: other.chars().filter(|c| !c.is_control()).take(40).collect(),
                known: PRESETS
                    .iter()
                    .map(|p| p.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
        }
    }

    /// All problems at once, so the page can mark every bad field.
    fn validate_all(&self) -> Vec<ConfigError> {
        let mut errors = Vec::new();
        let mut check = |ok: bool, e: ConfigError| {
            if !ok {
                errors.push(e)
            }
        };
        check(
            self.n >= 2,
            ConfigError::out_of_range("n", "at least 2 users", self.n),
        );
        check(
            self.n <= 10_000_000,
            ConfigError::out_of_range("n", "at most 10,000,000", self.n),
        );
        check(
            self.d >= 1,
            ConfigError::out_of_range("d", "at least 1", self.d),
        );
        check(
            self.d <= 1000,
            ConfigError::out_of_range("d", "at most 1000", self.d),
        );
        check(
            self.k >= 1,
            ConfigError::out_of_range("k", "at least 1", self.k),
        );
        check(
            self.k <= self.d,
            ConfigError::invalid(
                "k",
                format!("k must be ≤ d (got k = {}, d = {})", self.k, self.d),
            ),
        );
        check(
            self.k <= 32,
            ConfigError::out_of_range("k", "at most 32", self.k),
        );
        check(
            self.m >= 4,
            ConfigError::invalid(
                "m",
                format!("m must be at least 4: half the points train (Alg. 2 needs pairs), half refit the heads (got m = {})", self.m),
            ),
        );
        check(
            self.m <= 10_000,
            ConfigError::out_of_range("m", "at most 10,000", self.m),
        );
        for &e in &self.epsilons {
            // Below 0.001 the noise needed outgrows every number a run can hold.
            if !(1e-3..=100.0).contains(&e) {
                errors.push(ConfigError::invalid(
                    "epsilons",
                    format!(
                        "every ε must be in [0.001, 100] (got {})",
                        crate::privacy::report::fmt_num(e)
                    ),
                ));
                break;
            }
        }
        let mut check = |ok: bool, e: ConfigError| {
            if !ok {
                errors.push(e)
            }
        };
        check(
            !self.epsilons.is_empty(),
            ConfigError::invalid("epsilons", "give at least one ε"),
        );
        check(
            self.delta > 0.0 && self.delta < 1.0,
            ConfigError::out_of_range("delta", "in (0, 1)", self.delta),
        );
        check(
            self.delta >= 1e-300,
            ConfigError::out_of_range("delta", "at least 1e-300", self.delta),
        );
        check(
            (1..=20).contains(&self.seeds),
            ConfigError::out_of_range("seeds", "between 1 and 20", self.seeds),
        );
        check(
            (1..=1000).contains(&self.rounds),
            ConfigError::out_of_range("rounds", "between 1 and 1000", self.rounds),
        );
        check(
            self.step > 0.0 && self.step <= 1e3,
            ConfigError::out_of_range("eta", "in (0, 1000]", self.step),
        );
        check(
            // A clip of 1e6 already lets any gradient through: larger ones only
            // scale the noise towards overflow.
            self.clip > 0.0 && self.clip <= 1e6,
            ConfigError::out_of_range("clip", "in (0, 1e6]", self.clip),
        );
        check(
            self.noise >= 0.0 && self.noise <= 1e3,
            ConfigError::out_of_range("noise", "in [0, 1000]", self.noise),
        );
        check(
            self.init_share > 0.0 && self.init_share < 1.0,
            ConfigError::out_of_range("init_share", "in (0, 1)", self.init_share),
        );
        check(
            self.init_clip > 0.0 && self.init_clip <= 1e6,
            ConfigError::out_of_range("init_clip", "in (0, 1e6]", self.init_clip),
        );
        check(
            self.local_steps <= 100_000,
            ConfigError::out_of_range("local_steps", "at most 100,000", self.local_steps),
        );
        check(
            // Gradient descent on a user's few points diverges long before this.
            self.local_step > 0.0 && self.local_step <= 10.0,
            ConfigError::out_of_range("local_step", "in (0, 10]", self.local_step),
        );
        if self.batch == BatchMode::Fresh && self.m >= 4 && self.rounds >= 1 {
            let b = self.m_train() / (2 * self.rounds);
            check(
                b >= 1,
                ConfigError::invalid(
                    "batch",
                    format!(
                        "fresh batches need 2·b·T ≤ |S⁰|: with m = {} (|S⁰| = {}) and T = {} there is not one point per batch; choose batch = split or full, or raise m to at least {}",
                        self.m,
                        self.m_train(),
                        self.rounds,
                        4 * self.rounds
                    ),
                ),
            );
        }
        check(
            (1..=1000).contains(&self.altmin_rounds),
            ConfigError::out_of_range("altmin_rounds", "between 1 and 1000", self.altmin_rounds),
        );
        check(
            // The sensitivities scale with c_x² and c_x·c_y: keep them representable.
            (1e-12..=1e6).contains(&self.altmin_clip),
            ConfigError::out_of_range("altmin_clip", "in [1e-12, 1e6]", self.altmin_clip),
        );
        check(
            (1e-12..=1e6).contains(&self.altmin_label_clip),
            ConfigError::out_of_range(
                "altmin_label_clip",
                "in [1e-12, 1e6]",
                self.altmin_label_clip,
            ),
        );
        if self.altmin && self.altmin_mode == AltMinUsers::Disjoint && self.n < self.altmin_rounds {
            check(
                false,
                ConfigError::invalid(
                    "altmin_mode",
                    format!(
                        "disjoint subsets give each of the T = {} Priv-AltMin iterations its own users, so they need n ≥ T (got n = {}); raise n, lower altmin_rounds to at most {}, or choose altmin_mode = all-users",
                        self.altmin_rounds, self.n, self.n
                    ),
                ),
            );
        }
        if errors
            .iter()
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
        if errors.is_empty() {
            let seconds = super::cost::sweep_seconds(self);
            if seconds > MAX_SECONDS {
                errors.push(ConfigError::invalid(
                    "n",
                    format!(
                        "this sweep would take about {:.1} h on one core (the limit is {} h); lower n, d, m, rounds, local_steps or the number of ε",
                        seconds / 3600.0,
                        MAX_SECONDS / 3600.0
                    ),
                ));
            }
        }
        errors
    }
}
