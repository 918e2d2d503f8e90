//! The configuration of a Private FedRep sweep (Snedeker et al., Fig. 1/2):
//! one struct, parsed from text field by field (page, URL, CLI `--set`),
//! validated once with messages a user can act on.

use crate::algorithms::fedrep::BatchMode;
use crate::algorithms::priv_altmin::{AltMinMode, PrivAltMinParams};
use crate::algorithms::private_init::PairNormalization;
use crate::data::shared_representation::{SharedRepresentationModel, Storage};
use crate::privacy::{Calibration, Relation};
use crate::scenarios::field::PrivacyTarget;
use crate::scenarios::Preset;
use serde::{Deserialize, Serialize};

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
        crate::names::serde_name(&self)
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
        crate::names::serde_name(&self)
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
        crate::names::serde_name(&self)
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
    /// The privacy target: `epsilons`, or `risks` at `risk_fpr`.
    pub target: PrivacyTarget,
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
            target: PrivacyTarget::epsilons(vec![1.0, 2.0, 4.0, 6.0, 8.0]),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios::error::ConfigError;
    use crate::scenarios::field::Config;

    #[test]
    fn the_defaults_are_the_papers_figure_one_setting_and_valid() {
        let c = FedRepConfig::default();
        assert_eq!((c.n, c.d, c.k, c.m, c.rounds), (20_000, 50, 2, 10, 5));
        assert_eq!((c.step, c.clip, c.noise, c.delta), (2.5, 10.0, 0.01, 1e-6));
        assert_eq!(c.target.epsilons, vec![1.0, 2.0, 4.0, 6.0, 8.0]);
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
        // k = 20 is inside k's own range (1..=32), so the cross rule speaks.
        let e = FedRepConfig::from_pairs("fedrep-paper", [("d", "10"), ("k", "20")]).unwrap_err();
        assert!(e.iter().all(|e| e.field() == "k"), "{e:?}");
        let messages: Vec<String> = e.iter().map(|e| e.to_string()).collect();
        assert!(
            messages.contains(&"k: k must be ≤ d (got k = 20, d = 10)".to_string()),
            "{messages:?}"
        );
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
        c.target.epsilons = vec![0.5, 3.0];
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
