//! The configuration of a Private FedRep sweep (Snedeker et al., Fig. 1/2):
//! one struct, parsed from text field by field (page, URL, CLI `--set`),
//! validated once with messages a user can act on.

use crate::algorithms::fedrep::BatchMode;
use crate::algorithms::priv_altmin::{AltMinMode, PrivAltMinParams};
use crate::algorithms::private_init::PairNormalization;
use crate::data::shared_representation::{SharedRepresentationModel, Storage};
use crate::privacy::{Calibration, Relation};
use crate::scenarios::error::ConfigError;
use crate::scenarios::field::{Choice, Config, Field};
use crate::scenarios::Preset;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// How U_0 is obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum InitMode {
    /// Algorithm 2 with its own share of the budget.
    #[default]
    Private,
    /// The spectral estimator without clipping or noise (the authors' code);
    /// the run is then labelled "initialization not private".
    NonPrivate,
    /// U_0 = Q of a QR of a d×k N(0, 1) matrix drawn from the seed, the same
    /// for every run of the sweep (FedRep's linear simulation, Collins et al.).
    /// It does not look at the data, so it costs no privacy budget.
    Random,
}

impl InitMode {
    pub fn name(self) -> &'static str {
        match self {
            InitMode::Private => "private",
            InitMode::NonPrivate => "non-private",
            InitMode::Random => "random",
        }
    }
}

/// Distribution of the true heads v_i*.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Heads {
    /// v_i* ~ N(0, I_k), as the paper states.
    Gaussian,
    /// v_i* ~ N(0, I_k) normalized to unit length, as the authors' code does.
    #[default]
    Unit,
}

impl Heads {
    pub fn name(self) -> &'static str {
        match self {
            Heads::Gaussian => "gaussian",
            Heads::Unit => "unit",
        }
    }
}

/// Which users Priv-AltMin uses in which iteration (config form of [`AltMinMode`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum AltMinUsers {
    /// Jain et al.: T disjoint user groups, one per iteration (parallel
    /// composition: each user is released once).
    #[default]
    Disjoint,
    /// The Private FedRep authors' re-implementation: every user every
    /// iteration (T-fold composition).
    AllUsers,
}

impl AltMinUsers {
    pub fn name(self) -> &'static str {
        match self {
            AltMinUsers::Disjoint => "disjoint",
            AltMinUsers::AllUsers => "all-users",
        }
    }

    pub fn mode(self) -> AltMinMode {
        match self {
            AltMinUsers::Disjoint => AltMinMode::DisjointSubsets,
            AltMinUsers::AllUsers => AltMinMode::AllUsers,
        }
    }
}

/// Every setting of a Private FedRep sweep. Field names are the names used in
/// the page's inputs, the URL query and `--set key=value`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FedRepConfig {
    /// Users.
    pub n: usize,
    /// Feature dimension.
    pub d: usize,
    /// Representation size.
    pub k: usize,
    /// Points per user (S⁰ = the first ⌊m/2⌋, S¹ = the rest).
    pub m: usize,
    /// Target privacy levels ε.
    pub epsilons: Vec<f64>,
    pub delta: f64,
    /// Communication rounds T.
    pub rounds: usize,
    /// Server step size η.
    pub step: f64,
    /// Frobenius clip ψ of each user's gradient.
    pub clip: f64,
    /// Label noise standard deviation R.
    pub noise: f64,
    pub seed: u64,
    /// Number of datasets (seeds seed, seed+1, …): several seeds give a mean and a band.
    pub seeds: usize,
    pub calibration: Calibration,
    pub relation: Relation,
    pub init: InitMode,
    /// Share of the total budget (of μ² under exact composition) spent on the
    /// private initialization.
    pub init_share: f64,
    /// Frobenius clip ψ_init of each user's Z_i in Algorithm 2.
    pub init_clip: f64,
    pub init_normalization: PairNormalization,
    pub batch: BatchMode,
    pub heads: Heads,
    /// Local GD baseline: steps and step size.
    pub local_steps: usize,
    pub local_step: f64,
    /// Run the Priv-AltMin baseline (Jain et al. 2021) at every ε.
    pub altmin: bool,
    /// Priv-AltMin: disjoint user groups (Jain et al.) or all users each iteration.
    pub altmin_mode: AltMinUsers,
    /// Priv-AltMin iterations T (the paper: 5).
    pub altmin_rounds: usize,
    /// Priv-AltMin: L2 clip c_x of each sample's w = vec(x vᵀ).
    pub altmin_clip: f64,
    /// Priv-AltMin: labels clamped to [−c_y, c_y].
    pub altmin_label_clip: f64,
}

impl Default for FedRepConfig {
    /// The paper's Figure 1 setting (App. B.4): n = 20000, d = 50, k = 2, m = 10,
    /// R = 0.01, T = 5, η = 2.5, ψ = 10, δ = 1e-6, ε ∈ {1, 2, 4, 6, 8}.
    fn default() -> Self {
        FedRepConfig {
            n: 20_000,
            d: 50,
            k: 2,
            m: 10,
            epsilons: vec![1.0, 2.0, 4.0, 6.0, 8.0],
            delta: 1e-6,
            rounds: 5,
            step: 2.5,
            clip: 10.0,
            noise: 0.01,
            seed: 1,
            seeds: 1,
            calibration: Calibration::Exact,
            relation: Relation::ReplaceOne,
            init: InitMode::Private,
            init_share: 0.02,
            init_clip: 1.0,
            init_normalization: PairNormalization::Unbiased,
            batch: BatchMode::Full,
            heads: Heads::Unit,
            local_steps: 5,
            local_step: 0.065,
            altmin: true,
            altmin_mode: AltMinUsers::Disjoint,
            altmin_rounds: 5,
            altmin_clip: ALTMIN_DEFAULT_CLIP,
            altmin_label_clip: ALTMIN_DEFAULT_LABEL_CLIP,
        }
    }
}

/// Wasm memory is at most 4 GiB and a browser tab dies well before that; a run
/// that would need more than this is refused with a suggestion.
pub const MEMORY_BUDGET_BYTES: u64 = 1 << 30;

/// The most work a sweep may be, in seconds on one core by the cost model
/// ([`super::cost`]): a sweep estimated longer is refused with the settings
/// to lower.
pub const MAX_SECONDS: f64 = 3600.0;

/// Above this, users' data is not kept in memory but regenerated on every
/// pass: slower, but memory no longer grows with n·m·d.
pub const STORE_LIMIT_BYTES: u64 = 256 << 20;

/// Priv-AltMin's default per-sample clip c_x: the paper's "clipping parameter
/// 10⁻⁴". Every sample is then clipped (‖x vᵀ‖ ≈ √d), so with the ridge scaled
/// by c² the value only sets units; what matters is c_y against |y| ≈ 1.
/// Measured at the default setting (disjoint, exact, seed 1, ε = 1/4/8):
/// c_y = 1e-4 (sign of y) with ridge 0.5·c² gave excess risk 0.86/0.076/0.035,
/// c_y = 1 about the same, c_y = 3 worse (2.0/0.34/0.073); smaller ridges
/// (0.01·c², 1e-4·c²) lowered the ε = 100 floor but were worse at every ε ≤ 8
/// (e.g. 1.9/0.20/0.049). So the defaults keep the paper's values.
pub const ALTMIN_DEFAULT_CLIP: f64 = 1e-4;
/// Priv-AltMin's default label clip c_y.
pub const ALTMIN_DEFAULT_LABEL_CLIP: f64 = 1e-4;
/// U-step ridge per statistic point, in units of c_x²: the re-implementation's
/// (2/(mn))·W̃ + 1e-8·I at c = 1e-4 is ridge 5e-9 = 0.5·c² per point. Scaling
/// with c² keeps the ridge's weight relative to W the same at any clip.
pub const ALTMIN_RIDGE_PER_CLIP2: f64 = 0.5;

/// The scenario's presets, in the page's order (the first is the default).
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "fedrep-paper",
        label: "Paper, Figure 1 (exact accountant, private init)",
    },
    Preset {
        name: "fedrep-authors-code",
        label: "As in the authors' code",
    },
    Preset {
        name: "fedrep-linear-sim",
        label: "FedRep's linear simulation (Collins et al.; angle over 500 rounds)",
    },
];

impl FedRepConfig {
    /// |S⁰|, the training points of each user.
    pub fn m_train(&self) -> usize {
        self.m / 2
    }

    pub fn model(&self) -> SharedRepresentationModel {
        SharedRepresentationModel {
            n: self.n,
            d: self.d,
            k: self.k,
            m: self.m,
            m_train: self.m_train(),
            noise: self.noise,
            unit_heads: self.heads == Heads::Unit,
            seed: self.seed,
        }
    }

    /// Stored in memory when the dataset fits in [`STORE_LIMIT_BYTES`];
    /// otherwise regenerated from (seed, user) on every pass (same numbers).
    pub fn storage(&self) -> Storage {
        self.model().storage_for_budget(STORE_LIMIT_BYTES)
    }

    /// Memory of a sweep: the dataset when stored (nothing per user when
    /// streamed), per-user heads and the d×d statistic. (Priv-AltMin keeps
    /// nothing per user: it reads or regenerates its participants.)
    pub fn memory_bytes(&self) -> u64 {
        let data = match self.storage() {
            Storage::Stored => self.model().memory_bytes(),
            Storage::Streamed => 0,
        };
        let (n, d, k) = (self.n as u64, self.d as u64, self.k as u64);
        data + 8 * (d * d * 4 + n * k)
    }

    /// Priv-AltMin's parameters in this sweep, without noise (the σ's come
    /// from [`plan_priv_altmin`](super::fedrep_sweep::plan_priv_altmin)):
    /// the split is the mode's ([`AltMinMode::default_split`]); the U-step
    /// ridge is [`ALTMIN_RIDGE_PER_CLIP2`]·c_x² per statistic point and the
    /// head ridge the re-implementation's 1e-6.
    pub fn altmin_params(&self) -> PrivAltMinParams {
        let mode = self.altmin_mode.mode();
        PrivAltMinParams {
            rounds: self.altmin_rounds,
            feature_clip: self.altmin_clip,
            label_clip: self.altmin_label_clip,
            sigma_w: 0.0,
            sigma_b: 0.0,
            mode,
            split: mode.default_split(),
            ridge: ALTMIN_RIDGE_PER_CLIP2 * self.altmin_clip * self.altmin_clip,
            head_ridge: PrivAltMinParams::authors_code().head_ridge,
        }
    }
}

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

impl Choice for Calibration {
    const CHOICES: &'static [(Self, &'static str)] = &[
        (Calibration::Exact, "exact (GDP composition)"),
        (Calibration::Paper, "paper's formula (App. B.4)"),
        (Calibration::AuthorsCode, "authors' code formula"),
    ];
}

impl Choice for Relation {
    const CHOICES: &'static [(Self, &'static str)] = &[
        (Relation::ReplaceOne, "replace one user"),
        (Relation::AddRemoveOne, "add or remove one user"),
    ];
}

impl Choice for InitMode {
    const CHOICES: &'static [(Self, &'static str)] = &[
        (InitMode::Private, "private (Algorithm 2)"),
        (InitMode::NonPrivate, "non-private spectral"),
        (
            InitMode::Random,
            "random N(0, 1), orthonormalized (no budget)",
        ),
    ];
}

impl Choice for PairNormalization {
    const CHOICES: &'static [(Self, &'static str)] = &[
        (PairNormalization::Unbiased, "1/(m′(m′−1)) (unbiased)"),
        (PairNormalization::Printed, "2/(m(m−1)) (as printed)"),
    ];
}

impl Choice for BatchMode {
    const CHOICES: &'static [(Self, &'static str)] = &[
        (BatchMode::Full, "all of S⁰ for head and gradient"),
        (BatchMode::Split, "S⁰ split: head / gradient"),
        (BatchMode::Fresh, "fresh disjoint batches (analysed)"),
    ];
}

impl Choice for Heads {
    const CHOICES: &'static [(Self, &'static str)] = &[
        (Heads::Unit, "unit norm (authors' code)"),
        (Heads::Gaussian, "N(0, I) (paper's text)"),
    ];
}

impl Choice for AltMinUsers {
    const CHOICES: &'static [(Self, &'static str)] = &[
        (AltMinUsers::Disjoint, "disjoint groups (Jain et al.)"),
        (AltMinUsers::AllUsers, "all users (authors' code)"),
    ];
}

const PROBLEM: &str = "Problem";
const PRIVACY: &str = "Privacy";
const TRAINING: &str = "Training";
const ALTMIN: &str = "Priv-AltMin baseline (Jain et al. 2021)";
const OPEN: &str = "Details the paper leaves open";

/// Every setting of a Private FedRep sweep, in the page's order.
fn field_table() -> Vec<Field<FedRepConfig>> {
    type C = FedRepConfig;
    vec![
        Field::new("n", |c: &C| &c.n, |c: &mut C| &mut c.n)
            .label("users n")
            .group(PROBLEM),
        Field::new("d", |c: &C| &c.d, |c: &mut C| &mut c.d)
            .label("dimension d")
            .group(PROBLEM),
        Field::new("k", |c: &C| &c.k, |c: &mut C| &mut c.k)
            .label("representation k")
            .group(PROBLEM),
        Field::new("m", |c: &C| &c.m, |c: &mut C| &mut c.m)
            .label("points per user m")
            .help("half train (S⁰), half refit the final heads (S¹)")
            .group(PROBLEM),
        Field::new("epsilons", |c: &C| &c.epsilons, |c: &mut C| &mut c.epsilons)
            .label("ε values")
            .help("list 1,2,4 or range 1:8:1")
            .slider(0.1, 100.0, true)
            .group(PRIVACY),
        Field::new("delta", |c: &C| &c.delta, |c: &mut C| &mut c.delta)
            .label("δ")
            .group(PRIVACY),
        Field::new("rounds", |c: &C| &c.rounds, |c: &mut C| &mut c.rounds)
            .label("rounds T")
            .group(TRAINING),
        Field::new("eta", |c: &C| &c.step, |c: &mut C| &mut c.step)
            .label("step size η")
            .group(TRAINING)
            .aliases(&["step"]),
        Field::new("clip", |c: &C| &c.clip, |c: &mut C| &mut c.clip)
            .label("clip ψ")
            .help("Frobenius norm bound of each user's gradient")
            .group(TRAINING),
        Field::new("noise", |c: &C| &c.noise, |c: &mut C| &mut c.noise)
            .label("label noise R")
            .group(PROBLEM),
        Field::new("seed", |c: &C| &c.seed, |c: &mut C| &mut c.seed)
            .label("seed")
            .group(PROBLEM),
        Field::new("seeds", |c: &C| &c.seeds, |c: &mut C| &mut c.seeds)
            .label("seeds")
            .help("datasets seed, seed+1, …: the charts show their mean and a band")
            .group(PROBLEM),
        Field::new(
            "calibration",
            |c: &C| &c.calibration,
            |c: &mut C| &mut c.calibration,
        )
        .label("noise calibration")
        .group(PRIVACY),
        Field::new("relation", |c: &C| &c.relation, |c: &mut C| &mut c.relation)
            .label("neighbouring relation")
            .group(PRIVACY),
        Field::new("init", |c: &C| &c.init, |c: &mut C| &mut c.init)
            .label("initialization")
            .group(TRAINING),
        Field::new(
            "init_share",
            |c: &C| &c.init_share,
            |c: &mut C| &mut c.init_share,
        )
        .label("init share of budget")
        .help("share of μ² spent on the private initialization")
        .group(OPEN)
        .folded(),
        Field::new(
            "init_clip",
            |c: &C| &c.init_clip,
            |c: &mut C| &mut c.init_clip,
        )
        .label("init clip ψ_init")
        .group(OPEN)
        .folded(),
        Field::new(
            "init_normalization",
            |c: &C| &c.init_normalization,
            |c: &mut C| &mut c.init_normalization,
        )
        .label("init pair factor")
        .group(OPEN)
        .folded(),
        Field::new("batch", |c: &C| &c.batch, |c: &mut C| &mut c.batch)
            .label("batches")
            .group(OPEN)
            .folded(),
        Field::new("heads", |c: &C| &c.heads, |c: &mut C| &mut c.heads)
            .label("true heads v*")
            .group(OPEN)
            .folded(),
        Field::new(
            "local_steps",
            |c: &C| &c.local_steps,
            |c: &mut C| &mut c.local_steps,
        )
        .label("local GD steps")
        .group(OPEN)
        .folded(),
        Field::new(
            "local_step",
            |c: &C| &c.local_step,
            |c: &mut C| &mut c.local_step,
        )
        .label("local GD step size")
        .group(OPEN)
        .folded(),
        Field::new("altmin", |c: &C| &c.altmin, |c: &mut C| &mut c.altmin)
            .label("run Priv-AltMin")
            .group(ALTMIN),
        Field::new(
            "altmin_mode",
            |c: &C| &c.altmin_mode,
            |c: &mut C| &mut c.altmin_mode,
        )
        .label("users per iteration")
        .group(ALTMIN),
        Field::new(
            "altmin_rounds",
            |c: &C| &c.altmin_rounds,
            |c: &mut C| &mut c.altmin_rounds,
        )
        .label("iterations")
        .group(ALTMIN),
        Field::new(
            "altmin_clip",
            |c: &C| &c.altmin_clip,
            |c: &mut C| &mut c.altmin_clip,
        )
        .label("per-sample clip c_x")
        .group(ALTMIN),
        Field::new(
            "altmin_label_clip",
            |c: &C| &c.altmin_label_clip,
            |c: &mut C| &mut c.altmin_label_clip,
        )
        .label("label clip c_y")
        .group(ALTMIN),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_papers_figure_one_setting_and_valid() {
        let c = FedRepConfig::default();
        assert_eq!((c.n, c.d, c.k, c.m, c.rounds), (20_000, 50, 2, 10, 5));
        assert_eq!((c.step, c.clip, c.noise, c.delta), (2.5, 10.0, 0.01, 1e-6));
        assert_eq!(c.epsilons, vec![1.0, 2.0, 4.0, 6.0, 8.0]);
        assert!(c.validate().is_ok());
    }

    #[test]
    fn every_preset_is_valid_and_the_linear_simulation_starts_at_random() {
        for name in PRESETS.iter().map(|p| p.name) {
            let c = FedRepConfig::preset(name).unwrap();
            assert!(
                c.validate_all().is_empty(),
                "{name}: {:?}",
                c.validate_all()
            );
        }
        let c = FedRepConfig::preset("fedrep-linear-sim").unwrap();
        assert_eq!(c.init, InitMode::Random);
        let back = FedRepConfig::from_pairs(
            "fedrep-paper",
            c.to_fields().iter().map(|(k, v)| (*k, v.as_str())),
        )
        .unwrap();
        assert_eq!(back, c);
    }

    #[test]
    fn k_larger_than_d_is_refused_with_a_message_at_k() {
        let e = FedRepConfig::from_pairs("fedrep-paper", [("k", "60")]).unwrap_err();
        assert_eq!(e[0].field(), "k");
        assert_eq!(e[0].to_string(), "k: k must be ≤ d (got k = 60, d = 50)");
    }

    #[test]
    fn bad_inputs_each_name_their_field() {
        for (key, value) in [
            ("epsilons", "0"),
            ("epsilons", "-1,2"),
            ("delta", "1"),
            ("delta", "0"),
            ("n", "0"),
            ("n", "abc"),
            ("m", "3"),
            ("rounds", "0"),
            ("step", "-1"),
        ] {
            let e = FedRepConfig::from_pairs("fedrep-paper", [(key, value)]).unwrap_err();
            // An older name is reported under the setting's name (the page's input).
            let want = if key == "step" { "eta" } else { key };
            assert_eq!(e[0].field(), want, "{key}={value}: {}", e[0]);
        }
    }

    #[test]
    fn infeasible_fresh_batches_are_explained() {
        let e = FedRepConfig::from_pairs("fedrep-paper", [("batch", "fresh")]).unwrap_err();
        assert_eq!(e[0].field(), "batch");
        assert!(e[0].to_string().contains("2·b·T ≤ |S⁰|"));
        assert!(FedRepConfig::from_pairs(
            "fedrep-paper",
            [("batch", "fresh"), ("m", "20"), ("rounds", "5")]
        )
        .is_ok());
    }

    #[test]
    fn fields_round_trip_through_text() {
        let mut c = FedRepConfig::preset("fedrep-authors-code").unwrap();
        c.epsilons = vec![0.5, 3.0];
        c.delta = 1e-7;
        c.altmin_rounds = 7;
        c.altmin_clip = 0.25;
        c.altmin_label_clip = 2.5;
        let pairs = c.to_fields();
        let names: Vec<&str> = pairs.iter().map(|(k, _)| *k).collect();
        let table: Vec<&str> = FedRepConfig::fields().iter().map(|f| f.name).collect();
        assert_eq!(names, table);
        let back =
            FedRepConfig::from_pairs("fedrep-paper", pairs.iter().map(|(k, v)| (*k, v.as_str())))
                .unwrap();
        assert_eq!(back, c);
        c.altmin = false;
        c.altmin_mode = AltMinUsers::Disjoint;
        let pairs = c.to_fields();
        let back =
            FedRepConfig::from_pairs("fedrep-paper", pairs.iter().map(|(k, v)| (*k, v.as_str())))
                .unwrap();
        assert_eq!(back, c);
    }

    #[test]
    fn priv_altmin_is_on_by_default_as_jain_et_al_and_the_authors_preset_as_their_code() {
        let c = FedRepConfig::default();
        assert!(c.altmin);
        assert_eq!(c.altmin_mode, AltMinUsers::Disjoint);
        assert_eq!(
            (c.altmin_rounds, c.altmin_clip, c.altmin_label_clip),
            (5, 1e-4, 1e-4)
        );
        let p = FedRepConfig::preset("fedrep-authors-code").unwrap();
        assert_eq!(p.altmin_mode, AltMinUsers::AllUsers);
        // The re-implementation's U-step ridge and head ridge, split and clips.
        let mut want = PrivAltMinParams::authors_code();
        let got = p.altmin_params();
        want.ridge = got.ridge;
        assert_eq!(got, want);
        assert!((got.ridge - 5e-9).abs() < 1e-22);
    }

    #[test]
    fn bad_priv_altmin_settings_name_their_field_and_say_what_to_do() {
        for (key, value) in [
            ("altmin", "maybe"),
            ("altmin_mode", "some"),
            ("altmin_rounds", "0"),
            ("altmin_clip", "0"),
            ("altmin_label_clip", "-1"),
        ] {
            let e = FedRepConfig::from_pairs("fedrep-paper", [(key, value)]).unwrap_err();
            assert_eq!(e[0].field(), key, "{key}={value}: {}", e[0]);
        }
        let e = FedRepConfig::from_pairs("fedrep-paper", [("n", "3")]).unwrap_err();
        assert_eq!(e[0].field(), "altmin_mode");
        assert!(e[0].to_string().contains("n ≥ T"), "{}", e[0]);
        assert!(e[0].to_string().contains("all-users"), "{}", e[0]);
        assert!(FedRepConfig::from_pairs("fedrep-paper", [("n", "3"), ("altmin", "off")]).is_ok());
        assert!(FedRepConfig::from_pairs(
            "fedrep-paper",
            [("n", "3"), ("altmin_mode", "all-users")]
        )
        .is_ok());
    }

    #[test]
    fn a_memory_hungry_setting_is_refused_with_a_suggestion() {
        // Streamed data needs nothing per user but the heads: 8·n·k bytes.
        let e = FedRepConfig::from_pairs(
            "fedrep-paper",
            [("n", "10000000"), ("d", "100"), ("k", "20")],
        )
        .unwrap_err();
        assert_eq!(e[0].field(), "n");
        assert!(
            e[0].to_string().contains("MB") && e[0].to_string().contains("lower n (e.g. n = "),
            "{}",
            e[0]
        );
    }

    #[test]
    fn a_million_users_stream_their_data_instead_of_storing_it() {
        // Priv-AltMin included: it keeps no copy of the users' data either.
        let c = FedRepConfig::from_pairs("fedrep-paper", [("n", "1000000")]).unwrap();
        assert!(c.altmin);
        assert_eq!(c.storage(), Storage::Streamed);
        assert!(c.memory_bytes() < 64 << 20, "{} bytes", c.memory_bytes());
        assert_eq!(FedRepConfig::default().storage(), Storage::Stored);
    }

    #[test]
    fn unknown_fields_and_presets_are_named() {
        assert!(matches!(
            FedRepConfig::from_pairs("fedrep-paper", [("bogus", "1")]).unwrap_err()[0],
            ConfigError::UnknownField { .. }
        ));
        assert!(FedRepConfig::preset("nope").is_err());
    }
}
