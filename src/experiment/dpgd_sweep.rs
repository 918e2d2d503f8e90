//! The "privacy for free" sweep (spec `dp_gd_random_features.md` §5, §7): DP-GD
//! on random features over a grid of widths p and privacy levels ε, against the
//! non-private minimum-norm solution θ* and early-stopped plain GD.
//!
//! Per seed and p the sweep draws the features once, solves θ* = Φ⁺Y, runs GD
//! (same η and T as DP-GD, no clip, no noise) and one DP-GD run per ε, with
//! - clip C = `clip_scale`·√p,
//! - τ = ηT = `time_scale`·d/p, η = 1/p (`eta_mode = inverse-p`, then T =
//!   `time_scale`·d) or a fixed η (T = round(τ/η)),
//! - σ from the caller's accountant (`sigma_for`): the sweep holds no privacy
//!   formula, it only says which calibration the config asks for.
//!
//! Loss versus T (Fig. 3 panels 2–3): for each p in `trace_p`, one DP-GD run at
//! ε = `trace_epsilon` per value of `trace_time_scales`, **each a separate run
//! with σ calibrated for its own T** (the paper's procedure). Intermediate
//! iterates of one long run are not used, because their noise was calibrated for
//! the final T. These runs use the fixed step `trace_eta` (as the paper's panels
//! do), so T = (ηTp/d)·d/(pη) differs across p and the raw and rescaled charts
//! differ; with η = 1/p they would coincide. These rows have method "dp-gd-trace".
//!
//! Work is cut into units ([`DpGdSweep::step`]): building the features of one
//! (seed, p), solving θ* for it, or a chunk of GD steps whose cost is bounded by
//! about [`WORK_PER_UNIT`] multiply–adds.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::error::ConfigError;
use super::fields::{
    parse_choice, parse_f64, parse_f64_list, parse_named, parse_u64, parse_usize, parse_usize_list,
};
use crate::algorithms::dp_gd_random_features::{DpGd, DpGdParams};
use crate::algorithms::min_norm::min_norm_least_squares;
use crate::data::random_features::{frozen_weights, Activation, RfFeatures, RfInputs, Target};
use crate::plot::{ChartSpec, LineStyle, Series};
use crate::rng::{self, Purpose};

/// Multiply–adds one `step()` may spend on GD (a step costs ≈ 2np).
pub const WORK_PER_UNIT: usize = 20_000_000;
/// Largest (n + n_test)·p (matrix entries held at once, 8 bytes each).
pub const MAX_FEATURE_ENTRIES: usize = 60_000_000;
/// Largest T of a single run.
pub const MAX_STEPS: usize = 200_000;

/// How η is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum EtaMode {
    /// η = 1/p, so T = time_scale·d (the repo's `main_RF.py`).
    #[default]
    InverseP,
    /// η = `eta` for every p, so T = round(time_scale·d/(p·η)).
    Fixed,
}

/// Which accountant the caller should use to turn (ε, δ, T, η) into σ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Calibration {
    /// The paper's Prop. 3.2: σ = √(ηT)·√(8 ln(1/δ))/ε (needs ε < 8 ln(1/δ)).
    #[default]
    Prop32,
    /// The smallest σ that a tight accountant certifies for the same mechanism.
    Exact,
}

/// Label model (the data module's [`Target`] without its parameter).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum TargetKind {
    /// y = sign(uᵀx).
    #[default]
    Sign,
    /// y = uᵀx + label_noise·ξ.
    Linear,
}

/// What the sweep asks the accountant: the σ for one DP-GD run. The mechanism
/// is T full-batch steps, each adding N(0, σ²·η·(2C/n)²) per coordinate to an
/// update of replace-one sensitivity 2ηC/n. Equivalently, each step releases
/// the clipped mean gradient ḡ (replace-one sensitivity `sensitivity` = 2C/n)
/// plus Gaussian noise of std (2C/n)·σ/√η, i.e. noise multiplier σ/√η on ḡ.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SigmaQuery {
    pub calibration: Calibration,
    pub epsilon: f64,
    pub delta: f64,
    pub steps: usize,
    pub eta: f64,
    /// Replace-one L2 sensitivity of the mean clipped gradient ḡ: 2C/n.
    pub sensitivity: f64,
}

/// What the sweep asks for the optional "ε spent" column: the ε that σ buys.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpentQuery {
    pub calibration: Calibration,
    pub sigma: f64,
    pub delta: f64,
    pub steps: usize,
    pub eta: f64,
    /// Replace-one L2 sensitivity of the mean clipped gradient ḡ: 2C/n.
    pub sensitivity: f64,
}

/// Every knob of the sweep. Field names are the `apply_field` keys.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DpGdConfig {
    /// Training samples.
    pub n: usize,
    /// Input dimension.
    pub d: usize,
    /// Widths p (number of random features), swept in the given order.
    pub p_grid: Vec<usize>,
    /// Test samples.
    pub n_test: usize,
    /// Privacy levels ε of the DP-GD runs.
    pub epsilons: Vec<f64>,
    pub delta: f64,
    /// C = clip_scale·√p.
    pub clip_scale: f64,
    /// τ = ηT = time_scale·d/p.
    pub time_scale: f64,
    pub eta_mode: EtaMode,
    /// η when `eta_mode` is fixed (ignored otherwise).
    pub eta: f64,
    pub activation: Activation,
    pub target: TargetKind,
    /// Label noise std of the linear target (ignored for sign).
    pub label_noise: f64,
    pub seed: u64,
    /// Number of seeds: seed, seed+1, …
    pub repeats: usize,
    pub calibration: Calibration,
    /// Widths for the loss-versus-T experiment (each must be in `p_grid`; empty = off).
    pub trace_p: Vec<usize>,
    pub trace_epsilon: f64,
    /// time_scale values (ηTp/d) of the loss-versus-T runs.
    pub trace_time_scales: Vec<f64>,
    /// Fixed η of the loss-versus-T runs (0 = the main `eta_mode`).
    pub trace_eta: f64,
}

const FIELDS: [&str; 21] = [
    "n",
    "d",
    "p_grid",
    "n_test",
    "epsilons",
    "delta",
    "clip_scale",
    "time_scale",
    "eta_mode",
    "eta",
    "activation",
    "target",
    "label_noise",
    "seed",
    "repeats",
    "calibration",
    "trace_p",
    "trace_epsilon",
    "trace_time_scales",
    "trace_eta",
    "preset",
];

pub const PRESETS: [&str; 3] = ["dpgd-browser", "dpgd-paper", "dpgd-quick"];

impl Default for DpGdConfig {
    fn default() -> Self {
        Self::preset("dpgd-browser").expect("built-in preset")
    }
}

impl DpGdConfig {
    /// Built-in configurations:
    /// - `dpgd-browser`: Fig. 3's shape at a browser size (d = 20, n = 400, n/d = 20
    ///   as the spec advises), p from 20 to 8000 around p = n; ε ∈ {1, 2, 4}.
    /// - `dpgd-paper`: the paper's d = 100, n = 2000, n_test = 1000, p up to 16000
    ///   (memory: Φ and Φ_test are (n + n_test)·p doubles). Native speed: minutes.
    /// - `dpgd-quick`: d = 10, n = 100 for tests and a first look (well under a second).
    pub fn preset(name: &str) -> Result<Self, ConfigError> {
        let browser = DpGdConfig {
            n: 400,
            d: 20,
            p_grid: vec![20, 50, 100, 200, 300, 400, 500, 800, 1600, 3200, 8000],
            n_test: 400,
            epsilons: vec![1.0, 2.0, 4.0],
            delta: 1.0 / 400.0,
            clip_scale: 0.5,
            time_scale: 4.0,
            eta_mode: EtaMode::InverseP,
            eta: 3e-5,
            activation: Activation::Tanh,
            target: TargetKind::Sign,
            label_noise: 0.0,
            seed: 1,
            repeats: 1,
            calibration: Calibration::Prop32,
            trace_p: vec![800, 3200, 8000],
            trace_epsilon: 4.0,
            trace_time_scales: vec![0.5, 1.0, 2.0, 4.0, 8.0, 16.0],
            trace_eta: 5e-4,
        };
        match name.trim().to_ascii_lowercase().as_str() {
            "dpgd-browser" => Ok(browser),
            "dpgd-paper" => Ok(DpGdConfig {
                n: 2000,
                d: 100,
                p_grid: vec![50, 125, 316, 794, 1258, 1995, 2000, 3162, 5011, 7943, 16000],
                n_test: 1000,
                delta: 1.0 / 2000.0,
                time_scale: 5.0,
                trace_p: vec![3162, 7943, 16000],
                trace_time_scales: vec![1.0, 2.0, 5.0, 10.0],
                trace_eta: 3e-5,
                ..browser
            }),
            "dpgd-quick" => Ok(DpGdConfig {
                n: 100,
                d: 10,
                p_grid: vec![10, 25, 50, 100, 200, 500, 2000],
                n_test: 200,
                delta: 1.0 / 100.0,
                trace_p: vec![500, 2000],
                trace_time_scales: vec![1.0, 4.0, 16.0],
                trace_eta: 5e-4,
                ..browser
            }),
            _ => Err(ConfigError::UnknownPreset {
                name: name.chars().take(40).collect(),
                known: PRESETS.join(", "),
            }),
        }
    }

    /// Sets one field from text (the page, the URL, `--set key=value`). The
    /// key "preset" replaces the whole config by that preset.
    pub fn apply_field(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        let key = key.trim();
        match key {
            "n" => self.n = parse_usize(key, value)?,
            "d" => self.d = parse_usize(key, value)?,
            "p_grid" => self.p_grid = parse_usize_list(key, value)?,
            "n_test" => self.n_test = parse_usize(key, value)?,
            "epsilons" => self.epsilons = parse_f64_list(key, value)?,
            "delta" => self.delta = parse_f64(key, value)?,
            "clip_scale" => self.clip_scale = parse_f64(key, value)?,
            "time_scale" => self.time_scale = parse_f64(key, value)?,
            "eta_mode" => {
                self.eta_mode = parse_named(
                    key,
                    value,
                    &[
                        ("inverse-p", EtaMode::InverseP),
                        ("1/p", EtaMode::InverseP),
                        ("fixed", EtaMode::Fixed),
                    ],
                )?
            }
            "eta" => self.eta = parse_f64(key, value)?,
            "activation" => {
                let name = parse_choice(key, value, &Activation::NAMES)?;
                self.activation = Activation::from_name(name).expect("listed name");
            }
            "target" => {
                self.target = parse_named(
                    key,
                    value,
                    &[("sign", TargetKind::Sign), ("linear", TargetKind::Linear)],
                )?
            }
            "label_noise" => self.label_noise = parse_f64(key, value)?,
            "seed" => self.seed = parse_u64(key, value)?,
            "repeats" => self.repeats = parse_usize(key, value)?,
            "calibration" => {
                self.calibration = parse_named(
                    key,
                    value,
                    &[
                        ("prop32", Calibration::Prop32),
                        ("exact", Calibration::Exact),
                    ],
                )?
            }
            "trace_p" => {
                let v = value.trim();
                self.trace_p = if v.is_empty() || v.eq_ignore_ascii_case("none") {
                    Vec::new()
                } else {
                    parse_usize_list(key, value)?
                };
            }
            "trace_epsilon" => self.trace_epsilon = parse_f64(key, value)?,
            "trace_time_scales" => self.trace_time_scales = parse_f64_list(key, value)?,
            "trace_eta" => self.trace_eta = parse_f64(key, value)?,
            "preset" => *self = Self::preset(value)?,
            _ => return Err(ConfigError::unknown_field(key, &FIELDS)),
        }
        Ok(())
    }

    /// Checks every field; messages say what to change.
    pub fn validate(&self) -> Result<(), ConfigError> {
        ConfigError::reject_if(
            self.d == 0 || self.d > 2000,
            "d",
            "between 1 and 2000",
            self.d,
        )?;
        ConfigError::reject_if(
            self.n < 2 || self.n > 20_000,
            "n",
            "between 2 and 20000",
            self.n,
        )?;
        ConfigError::reject_if(
            self.n_test == 0 || self.n_test > 20_000,
            "n_test",
            "between 1 and 20000",
            self.n_test,
        )?;
        if self.p_grid.is_empty() {
            return Err(ConfigError::invalid(
                "p_grid",
                "give at least one width, e.g. 100,400,1600",
            ));
        }
        if let Some(&p) = self.p_grid.iter().find(|&&p| p == 0) {
            return Err(ConfigError::out_of_range(
                "p_grid",
                "≥ 1 for every width",
                p,
            ));
        }
        let mut sorted = self.p_grid.clone();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            return Err(ConfigError::invalid("p_grid", "list each width once"));
        }
        let p_max = *sorted.last().expect("non-empty");
        let entries = (self.n + self.n_test).saturating_mul(p_max);
        if entries > MAX_FEATURE_ENTRIES {
            return Err(ConfigError::invalid(
                "p_grid",
                format!(
                    "the largest width {p_max} with n + n_test = {} needs {} MB of features; \
                     keep (n + n_test)·p ≤ {MAX_FEATURE_ENTRIES} (lower p, n or n_test)",
                    self.n + self.n_test,
                    entries * 8 / 1_000_000
                ),
            ));
        }
        ConfigError::reject_if(
            !(self.delta > 0.0 && self.delta < 1.0),
            "delta",
            "strictly between 0 and 1",
            self.delta,
        )?;
        if self.epsilons.is_empty() {
            return Err(ConfigError::invalid(
                "epsilons",
                "give at least one ε, e.g. 1,2,4",
            ));
        }
        for &eps in &self.epsilons {
            self.check_epsilon("epsilons", eps)?;
        }
        ConfigError::reject_if(
            !(self.clip_scale > 0.0 && self.clip_scale.is_finite()),
            "clip_scale",
            "> 0 (C = clip_scale·√p)",
            self.clip_scale,
        )?;
        ConfigError::reject_if(
            !(self.time_scale > 0.0 && self.time_scale.is_finite()),
            "time_scale",
            "> 0 (ηT = time_scale·d/p)",
            self.time_scale,
        )?;
        // GD on L is stable for η < n/λ₁(K) with λ₁(K) ≲ p·(1 + n/d) for a
        // 1-Lipschitz activation, so η ≤ d/p keeps every run stable.
        let eta_limit = self.d as f64 / p_max as f64;
        ConfigError::reject_if(
            self.eta_mode == EtaMode::Fixed && !(self.eta > 0.0 && self.eta <= eta_limit),
            "eta",
            &format!("in (0, d/p] = (0, {eta_limit:.3e}] for p up to {p_max}, where GD is stable"),
            self.eta,
        )?;
        ConfigError::reject_if(
            !(self.label_noise >= 0.0 && self.label_noise.is_finite()),
            "label_noise",
            "≥ 0",
            self.label_noise,
        )?;
        ConfigError::reject_if(
            self.repeats == 0 || self.repeats > 20,
            "repeats",
            "between 1 and 20",
            self.repeats,
        )?;
        if let Some(&p) = self.trace_p.iter().find(|p| !self.p_grid.contains(p)) {
            return Err(ConfigError::invalid(
                "trace_p",
                format!("width {p} is not in p_grid; add it there or remove it here"),
            ));
        }
        if !self.trace_p.is_empty() {
            self.check_epsilon("trace_epsilon", self.trace_epsilon)?;
            if self.trace_time_scales.is_empty() {
                return Err(ConfigError::invalid(
                    "trace_time_scales",
                    "give at least one value, e.g. 1,2,4,8",
                ));
            }
            if let Some(&t) = self
                .trace_time_scales
                .iter()
                .find(|t| !(t.is_finite() && **t > 0.0))
            {
                return Err(ConfigError::out_of_range(
                    "trace_time_scales",
                    "> 0 for every value",
                    t,
                ));
            }
            let traced_max = self.trace_p.iter().copied().max().unwrap_or(1);
            let limit = self.d as f64 / traced_max as f64;
            ConfigError::reject_if(
                !(self.trace_eta >= 0.0 && self.trace_eta <= limit),
                "trace_eta",
                &format!(
                    "0 (use eta_mode) or in (0, d/p] = (0, {limit:.3e}] for p up to {traced_max}"
                ),
                self.trace_eta,
            )?;
        }
        // Step counts.
        for &p in &self.p_grid {
            let mut runs = vec![(self.schedule(p, self.time_scale).1, "eta", "time_scale")];
            if self.trace_p.contains(&p) {
                for &ts in &self.trace_time_scales {
                    runs.push((
                        self.trace_schedule(p, ts).1,
                        "trace_eta",
                        "trace_time_scales",
                    ));
                }
            }
            for (steps, eta_field, scale_field) in runs {
                if steps > MAX_STEPS {
                    let fixed = if eta_field == "eta" {
                        self.eta_mode == EtaMode::Fixed
                    } else {
                        self.trace_eta > 0.0 || self.eta_mode == EtaMode::Fixed
                    };
                    let field = if fixed { eta_field } else { scale_field };
                    return Err(ConfigError::invalid(
                        field,
                        format!("p = {p} would need T = {steps} steps (limit {MAX_STEPS}); raise eta or lower the time scale"),
                    ));
                }
            }
        }
        Ok(())
    }

    fn check_epsilon(&self, field: &str, eps: f64) -> Result<(), ConfigError> {
        ConfigError::reject_if(!(eps > 0.0 && eps.is_finite()), field, "> 0", eps)?;
        if self.calibration == Calibration::Prop32 {
            let bound = 8.0 * (1.0 / self.delta).ln();
            if eps >= bound {
                return Err(ConfigError::invalid(
                    field,
                    format!(
                        "ε = {eps} is outside Prop. 3.2's range ε < 8 ln(1/δ) = {bound:.3}; \
                         lower ε or use calibration = exact"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Each field as the text [`Self::apply_field`] reads back (forms, URLs),
    /// in the page's order.
    pub fn to_fields(&self) -> Vec<(&'static str, String)> {
        fn list<T: std::fmt::Display>(v: &[T]) -> String {
            v.iter()
                .map(|x| format!("{x}"))
                .collect::<Vec<_>>()
                .join(",")
        }
        vec![
            ("n", self.n.to_string()),
            ("d", self.d.to_string()),
            ("p_grid", list(&self.p_grid)),
            ("n_test", self.n_test.to_string()),
            ("epsilons", list(&self.epsilons)),
            ("delta", format!("{}", self.delta)),
            (
                "calibration",
                match self.calibration {
                    Calibration::Prop32 => "prop32",
                    Calibration::Exact => "exact",
                }
                .into(),
            ),
            ("clip_scale", format!("{}", self.clip_scale)),
            ("time_scale", format!("{}", self.time_scale)),
            (
                "eta_mode",
                match self.eta_mode {
                    EtaMode::InverseP => "inverse-p",
                    EtaMode::Fixed => "fixed",
                }
                .into(),
            ),
            ("eta", format!("{}", self.eta)),
            ("activation", self.activation.name().into()),
            (
                "target",
                match self.target {
                    TargetKind::Sign => "sign",
                    TargetKind::Linear => "linear",
                }
                .into(),
            ),
            ("label_noise", format!("{}", self.label_noise)),
            ("seed", self.seed.to_string()),
            ("repeats", self.repeats.to_string()),
            (
                "trace_p",
                if self.trace_p.is_empty() {
                    "none".into()
                } else {
                    list(&self.trace_p)
                },
            ),
            ("trace_epsilon", format!("{}", self.trace_epsilon)),
            ("trace_time_scales", list(&self.trace_time_scales)),
            ("trace_eta", format!("{}", self.trace_eta)),
        ]
    }

    /// (η, T) for width p at a time scale (ηT = time_scale·d/p).
    pub fn schedule(&self, p: usize, time_scale: f64) -> (f64, usize) {
        let tau = time_scale * self.d as f64 / p as f64;
        let eta = match self.eta_mode {
            EtaMode::InverseP => 1.0 / p as f64,
            EtaMode::Fixed => self.eta,
        };
        let steps = (tau / eta).round().max(1.0);
        let steps = if steps > 1e12 {
            usize::MAX
        } else {
            steps as usize
        };
        (eta, steps)
    }

    /// (η, T) of a loss-versus-T run: `trace_eta` if set, else as [`Self::schedule`].
    pub fn trace_schedule(&self, p: usize, time_scale: f64) -> (f64, usize) {
        if self.trace_eta > 0.0 {
            let steps = (time_scale * self.d as f64 / (p as f64 * self.trace_eta))
                .round()
                .max(1.0);
            (
                self.trace_eta,
                if steps > 1e12 {
                    usize::MAX
                } else {
                    steps as usize
                },
            )
        } else {
            self.schedule(p, time_scale)
        }
    }

    /// C = clip_scale·√p.
    pub fn clip(&self, p: usize) -> f64 {
        self.clip_scale * (p as f64).sqrt()
    }

    fn data_target(&self) -> Target {
        match self.target {
            TargetKind::Sign => Target::Sign,
            TargetKind::Linear => Target::Linear {
                noise: self.label_noise,
            },
        }
    }
}

/// One result row. Non-applicable numbers are NaN (empty in CSV, null in JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DpGdRow {
    /// "dp-gd", "gd" (same η and T, no clip, no noise), "min-norm" (θ*),
    /// "zero" (the trivial predictor θ = 0) or "dp-gd-trace" (the loss-versus-T runs).
    pub method: String,
    pub p: usize,
    /// Target ε (NaN for non-private methods).
    pub epsilon: f64,
    pub delta: f64,
    pub seed: u64,
    /// T (0 for min-norm).
    pub steps: usize,
    pub eta: f64,
    /// C (NaN when not clipping).
    pub clip: f64,
    /// ηTp/d (NaN for min-norm).
    pub time_scale: f64,
    /// Noise multiplier σ from the accountant (0 for non-private methods).
    pub sigma: f64,
    /// Per-coordinate std of the noise added per step, √η·(2C/n)·σ.
    pub noise_std: f64,
    pub test_loss: f64,
    pub train_loss: f64,
    /// test_loss − test loss of θ* at the same (p, seed).
    pub excess_risk: f64,
    /// Fraction of (sample, step) pairs whose gradient was clipped.
    pub clipped_fraction: f64,
    /// ε an accountant assigns to the σ used (filled from the optional
    /// `epsilon_spent` closure, NaN otherwise or for non-private methods).
    pub epsilon_spent: f64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum RunKind {
    Gd,
    Dp,
    Trace,
}

#[derive(Clone, Debug)]
struct RunSpec {
    kind: RunKind,
    epsilon: f64,
    params: DpGdParams,
    epsilon_spent: f64,
}

#[derive(Clone, Debug)]
enum Job {
    Features {
        rep: usize,
        p_index: usize,
    },
    MinNorm {
        rep: usize,
        p_index: usize,
    },
    Run {
        rep: usize,
        p_index: usize,
        run: RunSpec,
    },
}

type SigmaFn = Box<dyn Fn(&SigmaQuery) -> f64>;
type SpentFn = Box<dyn Fn(&SpentQuery) -> f64>;

/// The step-wise runner. Holds the features of one (seed, p) at a time.
pub struct DpGdSweep {
    config: DpGdConfig,
    jobs: Vec<Job>,
    next_job: usize,
    units_done: usize,
    units_total: usize,
    inputs: Option<(usize, RfInputs)>,
    features: Option<Arc<RfFeatures>>,
    min_norm_test_loss: f64,
    active: Option<DpGd>,
    rows: Vec<DpGdRow>,
    trace: Vec<DpGdRow>,
}

impl DpGdSweep {
    /// Validates `config` and plans every job. `sigma_for` is the accountant:
    /// it must return a finite σ ≥ 0 for each DP-GD run it is asked about.
    pub fn new(
        config: DpGdConfig,
        sigma_for: impl Fn(&SigmaQuery) -> f64 + 'static,
    ) -> Result<Self, ConfigError> {
        Self::build(config, Box::new(sigma_for), None)
    }

    /// As [`DpGdSweep::new`], also filling `epsilon_spent` of private rows.
    pub fn with_epsilon_spent(
        config: DpGdConfig,
        sigma_for: impl Fn(&SigmaQuery) -> f64 + 'static,
        epsilon_spent: impl Fn(&SpentQuery) -> f64 + 'static,
    ) -> Result<Self, ConfigError> {
        Self::build(config, Box::new(sigma_for), Some(Box::new(epsilon_spent)))
    }

    fn build(
        config: DpGdConfig,
        sigma_for: SigmaFn,
        spent_for: Option<SpentFn>,
    ) -> Result<Self, ConfigError> {
        config.validate()?;
        let mut jobs = Vec::new();
        let mut units_total = 0;
        let n = config.n;
        // The accountant may be slow (bisection): ask once per (ε, T, η, 2C/n).
        type Asked = ((u64, usize, u64, u64), f64, f64);
        let mut asked: Vec<Asked> = Vec::new();
        let mut private = |field: &str, eps: f64, p: usize, time_scale: f64, kind: RunKind| {
            let (eta, steps) = match kind {
                RunKind::Trace => config.trace_schedule(p, time_scale),
                _ => config.schedule(p, time_scale),
            };
            let sensitivity = 2.0 * config.clip(p) / n as f64;
            let key = (eps.to_bits(), steps, eta.to_bits(), sensitivity.to_bits());
            let (sigma, epsilon_spent) = match asked.iter().find(|a| a.0 == key) {
                Some(&(_, sigma, spent)) => (sigma, spent),
                None => {
                    let sigma = sigma_for(&SigmaQuery {
                        calibration: config.calibration,
                        epsilon: eps,
                        delta: config.delta,
                        steps,
                        eta,
                        sensitivity,
                    });
                    let spent = spent_for.as_ref().map_or(f64::NAN, |f| {
                        f(&SpentQuery {
                            calibration: config.calibration,
                            sigma,
                            delta: config.delta,
                            steps,
                            eta,
                            sensitivity,
                        })
                    });
                    asked.push((key, sigma, spent));
                    (sigma, spent)
                }
            };
            if !(sigma.is_finite() && sigma >= 0.0) {
                return Err(ConfigError::invalid(
                    field,
                    format!(
                        "the accountant gave no usable σ for ε = {eps}, T = {steps} (got {sigma})"
                    ),
                ));
            }
            Ok(RunSpec {
                kind,
                epsilon: eps,
                params: DpGdParams {
                    eta,
                    steps,
                    clip: Some(config.clip(p)),
                    sigma,
                },
                epsilon_spent,
            })
        };
        for rep in 0..config.repeats {
            for (p_index, &p) in config.p_grid.iter().enumerate() {
                jobs.push(Job::Features { rep, p_index });
                jobs.push(Job::MinNorm { rep, p_index });
                units_total += 2;
                let (eta, steps) = config.schedule(p, config.time_scale);
                let mut runs = vec![RunSpec {
                    kind: RunKind::Gd,
                    epsilon: f64::NAN,
                    params: DpGdParams::plain(eta, steps),
                    epsilon_spent: f64::NAN,
                }];
                for &eps in &config.epsilons {
                    runs.push(private("epsilons", eps, p, config.time_scale, RunKind::Dp)?);
                }
                if config.trace_p.contains(&p) {
                    for &ts in &config.trace_time_scales {
                        runs.push(private(
                            "trace_epsilon",
                            config.trace_epsilon,
                            p,
                            ts,
                            RunKind::Trace,
                        )?);
                    }
                }
                let chunk = chunk_steps(n, p);
                for run in runs {
                    units_total += run.params.steps.div_ceil(chunk);
                    jobs.push(Job::Run { rep, p_index, run });
                }
            }
        }
        Ok(DpGdSweep {
            config,
            jobs,
            next_job: 0,
            units_done: 0,
            units_total,
            inputs: None,
            features: None,
            min_norm_test_loss: f64::NAN,
            active: None,
            rows: Vec::new(),
            trace: Vec::new(),
        })
    }

    /// Does one bounded unit of work; returns true once everything is done.
    pub fn step(&mut self) -> bool {
        let Some(job) = self.jobs.get(self.next_job).cloned() else {
            return true;
        };
        match job {
            Job::Features { rep, p_index } => {
                let seed = self.seed(rep);
                let c = &self.config;
                if self.inputs.as_ref().map(|(r, _)| *r) != Some(rep) {
                    self.features = None;
                    let inputs = RfInputs::generate(seed, c.d, c.n, c.n_test, c.data_target());
                    self.inputs = Some((rep, inputs));
                }
                let inputs = &self.inputs.as_ref().expect("just set").1;
                let p = c.p_grid[p_index];
                self.features = None; // free the previous width first
                let w = frozen_weights(seed, p, c.d);
                self.features = Some(Arc::new(RfFeatures::build(inputs, &w, c.activation)));
                self.finish_job();
            }
            Job::MinNorm { rep, p_index } => {
                let data = self.features.clone().expect("features are built first");
                let sol = min_norm_least_squares(&data.phi, &data.y);
                let test = data.test_loss(&sol.theta);
                self.min_norm_test_loss = test;
                // θ = 0: no product with Φ needed.
                let null_test = data.null_test_loss();
                let zero_row = DpGdRow {
                    method: "zero".into(),
                    p: self.config.p_grid[p_index],
                    epsilon: f64::NAN,
                    delta: self.config.delta,
                    seed: self.seed(rep),
                    steps: 0,
                    eta: f64::NAN,
                    clip: f64::NAN,
                    time_scale: f64::NAN,
                    sigma: 0.0,
                    noise_std: 0.0,
                    test_loss: null_test,
                    train_loss: data.null_train_loss(),
                    excess_risk: null_test - test,
                    clipped_fraction: f64::NAN,
                    epsilon_spent: f64::NAN,
                };
                self.rows.push(DpGdRow {
                    method: "min-norm".into(),
                    p: self.config.p_grid[p_index],
                    epsilon: f64::NAN,
                    delta: self.config.delta,
                    seed: self.seed(rep),
                    steps: 0,
                    eta: f64::NAN,
                    clip: f64::NAN,
                    time_scale: f64::NAN,
                    sigma: 0.0,
                    noise_std: 0.0,
                    test_loss: test,
                    train_loss: data.train_loss(&sol.theta),
                    excess_risk: 0.0,
                    clipped_fraction: f64::NAN,
                    epsilon_spent: f64::NAN,
                });
                self.rows.push(zero_row);
                self.finish_job();
            }
            Job::Run { rep, p_index, run } => {
                let p = self.config.p_grid[p_index];
                let seed = self.seed(rep);
                if self.active.is_none() {
                    let data = self.features.clone().expect("features are built first");
                    // Runs with the same (p, ε, η, T) share their noise stream.
                    let key = rng::combine(
                        rng::combine(
                            rng::combine(p as u64, run.epsilon.to_bits()),
                            run.params.eta.to_bits(),
                        ),
                        run.params.steps as u64,
                    );
                    let noise = rng::stream(seed, Purpose::MechanismNoise, key);
                    let gd = DpGd::new(data, run.params, noise).expect("parameters were validated");
                    self.active = Some(gd);
                }
                let gd = self.active.as_mut().expect("just set");
                gd.advance(chunk_steps(self.config.n, p));
                self.units_done += 1;
                if gd.is_done() {
                    let gd = self.active.take().expect("active run");
                    let test = gd.test_loss();
                    let private = run.kind != RunKind::Gd;
                    let row = DpGdRow {
                        method: match run.kind {
                            RunKind::Gd => "gd",
                            RunKind::Dp => "dp-gd",
                            RunKind::Trace => "dp-gd-trace",
                        }
                        .into(),
                        p,
                        epsilon: run.epsilon,
                        delta: self.config.delta,
                        seed,
                        steps: run.params.steps,
                        eta: run.params.eta,
                        clip: run.params.clip.unwrap_or(f64::NAN),
                        time_scale: run.params.eta * run.params.steps as f64 * p as f64
                            / self.config.d as f64,
                        sigma: run.params.sigma,
                        noise_std: gd.noise_std(),
                        test_loss: test,
                        train_loss: gd.train_loss(),
                        excess_risk: test - self.min_norm_test_loss,
                        clipped_fraction: if private {
                            gd.mean_clipped_fraction()
                        } else {
                            f64::NAN
                        },
                        epsilon_spent: run.epsilon_spent,
                    };
                    if run.kind == RunKind::Trace {
                        self.trace.push(row);
                    } else {
                        self.rows.push(row);
                    }
                    self.next_job += 1;
                }
                if self.next_job == self.jobs.len() {
                    self.release();
                }
            }
        }
        self.is_done()
    }

    fn finish_job(&mut self) {
        self.units_done += 1;
        self.next_job += 1;
        if self.next_job == self.jobs.len() {
            self.release();
        }
    }

    fn release(&mut self) {
        self.features = None;
        self.inputs = None;
    }

    /// Runs every remaining unit.
    pub fn run_to_end(&mut self) {
        while !self.step() {}
    }

    pub fn is_done(&self) -> bool {
        self.next_job >= self.jobs.len()
    }

    /// (units done, total units).
    pub fn progress(&self) -> (usize, usize) {
        (self.units_done, self.units_total)
    }

    pub fn config(&self) -> &DpGdConfig {
        &self.config
    }

    /// What the sweep is doing now, in words (for a progress line).
    pub fn phase_label(&self) -> String {
        let Some(job) = self.jobs.get(self.next_job) else {
            return "done".into();
        };
        let c = &self.config;
        let seed_note = |rep: usize| {
            if c.repeats > 1 {
                format!(" (seed {} of {})", rep + 1, c.repeats)
            } else {
                String::new()
            }
        };
        match job {
            Job::Features { rep, p_index } => format!(
                "random features, p = {}{}",
                c.p_grid[*p_index],
                seed_note(*rep)
            ),
            Job::MinNorm { rep, p_index } => {
                format!("θ* = Φ⁺Y at p = {}{}", c.p_grid[*p_index], seed_note(*rep))
            }
            Job::Run { rep, p_index, run } => {
                let what = match run.kind {
                    RunKind::Gd => "GD (non-private)".to_string(),
                    RunKind::Dp => format!("DP-GD, ε = {}", fmt_eps(run.epsilon)),
                    RunKind::Trace => format!(
                        "DP-GD vs T, ε = {}, T = {}",
                        fmt_eps(run.epsilon),
                        run.params.steps
                    ),
                };
                let done = self.active.as_ref().map_or(0, DpGd::steps_done);
                format!(
                    "{what} at p = {}: step {done} of {}{}",
                    c.p_grid[*p_index],
                    run.params.steps,
                    seed_note(*rep)
                )
            }
        }
    }

    /// Rows of methods "min-norm", "zero", "gd" and "dp-gd", in completion order.
    pub fn rows(&self) -> &[DpGdRow] {
        &self.rows
    }

    /// Rows of the loss-versus-T experiment (method "dp-gd-trace").
    pub fn trace(&self) -> &[DpGdRow] {
        &self.trace
    }

    fn seed(&self, rep: usize) -> u64 {
        self.config.seed.wrapping_add(rep as u64)
    }
}

/// GD steps per unit at width p (a step costs ≈ 2np multiply–adds).
fn chunk_steps(n: usize, p: usize) -> usize {
    (WORK_PER_UNIT / (2 * n * p).max(1)).max(1)
}

/// CSV columns, in order.
pub const CSV_HEADER: &str =
    "method,p,epsilon,delta,seed,steps,eta,clip,time_scale,sigma,noise_std,\
test_loss,train_loss,excess_risk,clipped_fraction,epsilon_spent";

/// Writes a header and one line per row. NaN is written as an empty field.
pub fn write_csv(rows: &[DpGdRow], out: &mut impl std::io::Write) -> std::io::Result<()> {
    writeln!(out, "{CSV_HEADER}")?;
    for r in rows {
        writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            r.method,
            r.p,
            num(r.epsilon),
            num(r.delta),
            r.seed,
            r.steps,
            num(r.eta),
            num(r.clip),
            num(r.time_scale),
            num(r.sigma),
            num(r.noise_std),
            num(r.test_loss),
            num(r.train_loss),
            num(r.excess_risk),
            num(r.clipped_fraction),
            num(r.epsilon_spent),
        )?;
    }
    Ok(())
}

fn num(x: f64) -> String {
    if x.is_nan() {
        String::new()
    } else {
        format!("{x}")
    }
}

/// Mean test loss over seeds of rows matching `keep`, grouped by `key`, sorted by key.
fn mean_by<K: Fn(&DpGdRow) -> f64>(
    rows: &[DpGdRow],
    keep: impl Fn(&DpGdRow) -> bool,
    key: K,
) -> Vec<(f64, f64)> {
    let mut groups: Vec<(f64, f64, usize)> = Vec::new();
    for r in rows.iter().filter(|r| keep(r)) {
        let k = key(r);
        match groups.iter_mut().find(|g| g.0 == k) {
            Some(g) => {
                g.1 += r.test_loss;
                g.2 += 1;
            }
            None => groups.push((k, r.test_loss, 1)),
        }
    }
    let mut points: Vec<(f64, f64)> = groups
        .into_iter()
        .map(|(k, s, c)| (k, s / c as f64))
        .collect();
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    points
}

fn distinct(mut v: Vec<f64>) -> Vec<f64> {
    v.retain(|x| !x.is_nan());
    v.sort_by(f64::total_cmp);
    v.dedup();
    v
}

fn fmt_eps(e: f64) -> String {
    format!("{e}")
}

/// Charts of a finished (or partial) sweep; `rows` may mix main and trace rows
/// (pass `[sweep.rows(), sweep.trace()].concat()`). Test losses are averaged
/// over seeds.
/// 1. test loss vs ε (log x) for up to four widths p > n, with "predict 0";
/// 2. test loss vs p (log x, log y): θ*, early-stopped GD and DP-GD per ε;
/// 3. loss vs T (log x) and 4. the same against ηTp/d, one curve per traced p.
pub fn charts(rows: &[DpGdRow]) -> Vec<ChartSpec> {
    let main: Vec<DpGdRow> = rows
        .iter()
        .filter(|r| r.method != "dp-gd-trace")
        .cloned()
        .collect();
    let trace: Vec<DpGdRow> = rows
        .iter()
        .filter(|r| r.method == "dp-gd-trace")
        .cloned()
        .collect();
    let epsilons = distinct(
        main.iter()
            .filter(|r| r.method == "dp-gd")
            .map(|r| r.epsilon)
            .collect(),
    );
    let widths: Vec<usize> = distinct(main.iter().map(|r| r.p as f64).collect())
        .into_iter()
        .map(|p| p as usize)
        .collect();
    let null_mean = mean_by(&main, |r| r.method == "zero", |_| 0.0)
        .first()
        .map_or(1.0, |pt| pt.1);
    let null_level = Series {
        name: "predict 0".into(),
        points: vec![(f64::NAN, null_mean)],
        style: LineStyle::Dotted,
        color: 7,
        horizontal: true,
        band: Vec::new(),
        faded: false,
        in_legend: true,
    };
    let mut charts = Vec::new();

    // 1. Test loss vs ε for a few widths.
    let dp_widths: Vec<usize> = widths
        .iter()
        .copied()
        .filter(|&p| main.iter().any(|r| r.p == p && r.method == "dp-gd"))
        .collect();
    let shown = pick_spread(&dp_widths, 4);
    let mut series = Vec::new();
    for (k, &p) in shown.iter().enumerate() {
        series.push(Series {
            name: format!("DP-GD, p = {p}"),
            points: mean_by(&main, |r| r.method == "dp-gd" && r.p == p, |r| r.epsilon),
            style: LineStyle::Solid,
            color: k,
            horizontal: false,
            band: Vec::new(),
            faded: false,
            in_legend: true,
        });
    }
    if let Some(&p) = shown.last() {
        let pts = mean_by(
            &main,
            |r| r.method == "min-norm" && r.p == p,
            |r| r.p as f64,
        );
        if let Some(&(_, y)) = pts.first() {
            series.push(Series {
                name: format!("θ* (non-private), p = {p}"),
                points: vec![(f64::NAN, y)],
                style: LineStyle::Dashed,
                color: 5,
                horizontal: true,
                band: Vec::new(),
                faded: false,
                in_legend: true,
            });
        }
    }
    series.push(null_level.clone());
    let first_x = epsilons.first().copied().unwrap_or(1.0);
    charts.push(ChartSpec {
        title: "Test loss vs ε: wider models are not hurt by privacy".into(),
        x_label: "ε".into(),
        y_label: "test MSE".into(),
        log_x: true,
        log_y: false,
        x_hint: None,
        series: fix_horizontal(series, first_x),
    });

    // 2. Test loss vs p.
    let mut series = vec![
        Series {
            name: "θ* = Φ⁺Y (non-private)".into(),
            points: mean_by(&main, |r| r.method == "min-norm", |r| r.p as f64),
            style: LineStyle::Dashed,
            color: 5,
            horizontal: false,
            band: Vec::new(),
            faded: false,
            in_legend: true,
        },
        Series {
            name: "GD, same η and T (non-private)".into(),
            points: mean_by(&main, |r| r.method == "gd", |r| r.p as f64),
            style: LineStyle::Dotted,
            color: 6,
            horizontal: false,
            band: Vec::new(),
            faded: false,
            in_legend: true,
        },
    ];
    for (k, &eps) in epsilons.iter().enumerate() {
        series.push(Series {
            name: format!("DP-GD, ε = {}", fmt_eps(eps)),
            points: mean_by(
                &main,
                |r| r.method == "dp-gd" && r.epsilon == eps,
                |r| r.p as f64,
            ),
            style: LineStyle::Solid,
            color: k,
            horizontal: false,
            band: Vec::new(),
            faded: false,
            in_legend: true,
        });
    }
    series.push(null_level.clone());
    let first_p = widths.first().map_or(1.0, |&p| p as f64);
    charts.push(ChartSpec {
        title: "Test loss vs width p: θ* peaks at p = n, DP-GD does not".into(),
        x_label: "p (number of random features)".into(),
        y_label: "test MSE".into(),
        log_x: true,
        log_y: true,
        x_hint: None,
        series: fix_horizontal(series, first_p),
    });

    // 3–4. Loss vs T, raw and rescaled.
    let traced = distinct(trace.iter().map(|r| r.p as f64).collect());
    let trace_eps = trace.first().map_or(f64::NAN, |r| r.epsilon);
    let mut raw = Vec::new();
    let mut rescaled = Vec::new();
    for (k, &p) in traced.iter().enumerate() {
        let keep = |r: &DpGdRow| r.p as f64 == p;
        raw.push(Series {
            name: format!("p = {p}"),
            points: mean_by(&trace, keep, |r| r.steps as f64),
            style: LineStyle::Solid,
            color: k,
            horizontal: false,
            band: Vec::new(),
            faded: false,
            in_legend: true,
        });
        rescaled.push(Series {
            name: format!("p = {p}"),
            points: mean_by(&trace, keep, |r| r.time_scale),
            style: LineStyle::Solid,
            color: k,
            horizontal: false,
            band: Vec::new(),
            faded: false,
            in_legend: true,
        });
    }
    charts.push(ChartSpec {
        title: format!(
            "Test loss vs T (ε = {}): the best T falls with p",
            fmt_eps(trace_eps)
        ),
        x_label: "T (steps)".into(),
        y_label: "test MSE".into(),
        log_x: true,
        log_y: false,
        x_hint: None,
        series: raw,
    });
    charts.push(ChartSpec {
        title: format!(
            "Test loss vs ηTp/d (ε = {}): curves collapse",
            fmt_eps(trace_eps)
        ),
        x_label: "ηT·p/d".into(),
        y_label: "test MSE".into(),
        log_x: true,
        log_y: false,
        x_hint: None,
        series: rescaled,
    });
    charts
}

/// Horizontal series carry one point; give it a real x.
fn fix_horizontal(mut series: Vec<Series>, x: f64) -> Vec<Series> {
    for s in series.iter_mut().filter(|s| s.horizontal) {
        for pt in s.points.iter_mut() {
            pt.0 = x;
        }
    }
    series
}

/// Up to `k` entries spread across `v` (first, last and evenly in between).
fn pick_spread(v: &[usize], k: usize) -> Vec<usize> {
    if v.len() <= k {
        return v.to_vec();
    }
    let mut out: Vec<usize> = (0..k).map(|i| v[i * (v.len() - 1) / (k - 1)]).collect();
    out.dedup();
    out
}

/// Mean test loss of θ* and of one method per width, for quick inspection.
pub fn mean_test_loss(rows: &[DpGdRow], method: &str, epsilon: Option<f64>) -> Vec<(usize, f64)> {
    mean_by(
        rows,
        |r| r.method == method && epsilon.is_none_or(|e| r.epsilon == e),
        |r| r.p as f64,
    )
    .into_iter()
    .map(|(p, l)| (p as usize, l))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stand-in accountant for tests: the paper's Prop. 3.2.
    fn prop32(q: &SigmaQuery) -> f64 {
        (q.eta * q.steps as f64).sqrt() * (8.0 * (1.0 / q.delta).ln()).sqrt() / q.epsilon
    }

    fn tiny() -> DpGdConfig {
        let mut c = DpGdConfig::preset("dpgd-quick").unwrap();
        c.n = 20;
        c.d = 4;
        c.n_test = 30;
        c.delta = 0.05;
        c.p_grid = vec![10, 20, 60];
        c.epsilons = vec![1.0, 4.0];
        c.trace_p = vec![60];
        c.trace_time_scales = vec![1.0, 4.0];
        c.trace_eta = 0.01;
        c
    }

    #[test]
    fn presets_validate_and_unknown_ones_are_named() {
        for name in PRESETS {
            DpGdConfig::preset(name).unwrap().validate().unwrap();
        }
        let e = DpGdConfig::preset("nope").unwrap_err();
        assert_eq!(e.field(), "preset");
        assert!(e.to_string().contains("dpgd-browser"));
    }

    #[test]
    fn every_field_can_be_set_from_text() {
        let mut c = DpGdConfig::default();
        let settings = [
            ("n", "300"),
            ("d", "15"),
            ("p_grid", "30, 300, 900"),
            ("n_test", "200"),
            ("epsilons", "0.5 2"),
            ("delta", "1e-3"),
            ("clip_scale", "1"),
            ("time_scale", "2"),
            ("eta_mode", "fixed"),
            ("eta", "1e-3"),
            ("activation", "sin"),
            ("target", "linear"),
            ("label_noise", "0.1"),
            ("seed", "9"),
            ("repeats", "2"),
            ("calibration", "exact"),
            ("trace_p", "300"),
            ("trace_epsilon", "2"),
            ("trace_time_scales", "1:3:1"),
            ("trace_eta", "0"),
        ];
        assert_eq!(settings.len() + 1, FIELDS.len());
        for (k, v) in settings {
            c.apply_field(k, v).unwrap();
        }
        assert_eq!(c.p_grid, vec![30, 300, 900]);
        assert_eq!(c.eta_mode, EtaMode::Fixed);
        assert_eq!(c.activation, Activation::Sin);
        assert_eq!(c.target, TargetKind::Linear);
        assert_eq!(c.calibration, Calibration::Exact);
        assert_eq!(c.trace_time_scales, vec![1.0, 2.0, 3.0]);
        c.validate().unwrap();
        // Serde round trip (the page stores configs as JSON).
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(serde_json::from_str::<DpGdConfig>(&json).unwrap(), c);
        c.apply_field("preset", "dpgd-paper").unwrap();
        assert_eq!(c.n, 2000);
        c.apply_field("trace_p", "none").unwrap();
        assert!(c.trace_p.is_empty());
    }

    #[test]
    fn bad_values_name_their_field() {
        let mut c = DpGdConfig::default();
        assert_eq!(c.apply_field("n", "many").unwrap_err().field(), "n");
        assert_eq!(
            c.apply_field("activation", "relu").unwrap_err().field(),
            "activation"
        );
        assert_eq!(
            c.apply_field("colour", "red").unwrap_err().field(),
            "colour"
        );
        let check = |edit: &dyn Fn(&mut DpGdConfig), field: &str| {
            let mut c = DpGdConfig::default();
            edit(&mut c);
            let e = c.validate().unwrap_err();
            assert_eq!(e.field(), field, "{e}");
            e.to_string()
        };
        check(&|c| c.delta = 1.0, "delta");
        check(&|c| c.p_grid = vec![100, 100], "p_grid");
        let msg = check(&|c| c.p_grid = vec![100_000], "p_grid");
        assert!(msg.contains("MB"), "{msg}");
        let msg = check(&|c| c.epsilons = vec![100.0], "epsilons");
        assert!(msg.contains("8 ln(1/δ)"), "{msg}");
        check(&|c| c.trace_p = vec![123], "trace_p");
        check(&|c| c.trace_eta = 1.0, "trace_eta");
        check(
            &|c| {
                c.eta_mode = EtaMode::Fixed;
                c.eta = 1.0;
            },
            "eta",
        );
        check(
            &|c| {
                c.eta_mode = EtaMode::Fixed;
                c.eta = 1e-9;
            },
            "eta",
        );
        check(&|c| c.repeats = 0, "repeats");
        // Outside Prop. 3.2's range is fine when an exact accountant calibrates.
        let c = DpGdConfig {
            epsilons: vec![100.0],
            calibration: Calibration::Exact,
            ..DpGdConfig::default()
        };
        c.validate().unwrap();
    }

    #[test]
    fn an_unusable_sigma_is_reported_before_running() {
        let e = DpGdSweep::new(tiny(), |_| f64::NAN).err().unwrap();
        assert_eq!(e.field(), "epsilons");
    }

    #[test]
    fn rows_cover_every_method_width_and_epsilon() {
        let c = tiny();
        let mut calls = 0;
        let mut s = DpGdSweep::with_epsilon_spent(c.clone(), prop32, |q| q.sigma).unwrap();
        let total = s.progress().1;
        while !s.step() {
            calls += 1;
        }
        assert_eq!(calls + 1, total);
        assert!(s.step(), "stepping a finished sweep is a no-op");
        let rows = s.rows();
        // Per p: min-norm, zero, gd, one dp-gd per ε.
        assert_eq!(rows.len(), c.p_grid.len() * (3 + c.epsilons.len()));
        assert_eq!(s.trace().len(), c.trace_time_scales.len());
        for r in rows {
            assert!(r.test_loss.is_finite() && r.train_loss.is_finite(), "{r:?}");
            match r.method.as_str() {
                "dp-gd" => {
                    assert_eq!(r.clip, c.clip(r.p));
                    assert_eq!(r.steps, (c.time_scale * c.d as f64).round() as usize);
                    assert!((r.time_scale - c.time_scale).abs() < 1e-12);
                    assert_eq!(r.epsilon_spent, r.sigma, "filled from the second closure");
                    let min_norm = rows
                        .iter()
                        .find(|m| m.method == "min-norm" && m.p == r.p)
                        .unwrap();
                    assert!((r.excess_risk - (r.test_loss - min_norm.test_loss)).abs() < 1e-12);
                }
                "gd" => assert!(r.epsilon.is_nan() && r.sigma == 0.0 && r.noise_std == 0.0),
                "min-norm" => assert_eq!(r.excess_risk, 0.0),
                "zero" => assert!((r.test_loss - 1.0).abs() < 1e-12),
                other => panic!("unexpected method {other}"),
            }
        }
        // Trace runs use the fixed η, so T = ts·d/(p·η).
        for (r, ts) in s.trace().iter().zip(&c.trace_time_scales) {
            assert_eq!(r.method, "dp-gd-trace");
            assert_eq!(r.eta, c.trace_eta);
            assert_eq!(
                r.steps,
                (ts * c.d as f64 / (60.0 * c.trace_eta)).round() as usize
            );
        }
    }

    #[test]
    fn csv_has_a_header_and_empty_fields_for_nan() {
        let mut s = DpGdSweep::new(tiny(), prop32).unwrap();
        s.run_to_end();
        let mut out = Vec::new();
        write_csv(s.rows(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        for col in [
            "method",
            "p",
            "epsilon",
            "delta",
            "seed",
            "test_loss",
            "train_loss",
            "excess_risk",
            "clipped_fraction",
            "sigma",
            "epsilon_spent",
        ] {
            assert!(header.contains(&col), "missing column {col}");
        }
        let first: Vec<&str> = lines.next().unwrap().split(',').collect();
        assert_eq!(first.len(), header.len());
        assert_eq!(first[0], "min-norm");
        assert_eq!(first[2], "", "NaN ε is an empty field");
    }

    #[test]
    fn charts_describe_the_four_panels() {
        let mut s = DpGdSweep::new(tiny(), prop32).unwrap();
        s.run_to_end();
        let all = [s.rows(), s.trace()].concat();
        let cs = charts(&all);
        assert_eq!(cs.len(), 4);
        assert!(cs[0].log_x && cs[1].log_x && cs[1].log_y);
        let theta = &cs[1].series[0];
        assert_eq!(theta.points.len(), 3);
        assert!(
            cs[1]
                .series
                .iter()
                .filter(|s| s.name.starts_with("DP-GD"))
                .count()
                == 2
        );
        assert_eq!(cs[2].series.len(), 1);
        assert_eq!(cs[3].series[0].points.len(), 2);
        for c in &cs {
            for s in &c.series {
                assert!(
                    s.points.iter().all(|p| p.0.is_finite() && p.1.is_finite()),
                    "{}",
                    s.name
                );
            }
        }
    }
}
