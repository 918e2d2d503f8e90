//! The settings of the "privacy for free" sweep (Bombari & Mondelli, Fig. 3):
//! DP-GD on random features over widths p and privacy levels ε. One field
//! table, the presets, and checks that report every bad field at once.

use crate::data::random_features::{Activation, Target};
use crate::privacy::error::MAX_EPSILON;
use crate::privacy::Calibration;
use crate::scenarios::config_common::{PRIVACY, PROBLEM};
use crate::scenarios::error::ConfigError;
use crate::scenarios::field::rules::Interval;
use crate::scenarios::field::{
    choices, common, field, sections, target_rows, Field, OptionalList, PrivacyTarget,
};
use crate::scenarios::Preset;
use serde::{Deserialize, Serialize};

/// Multiply–adds one `step()` may spend on GD (a step costs ≈ 2np).
pub const WORK_PER_UNIT: usize = 20_000_000;
/// Largest (n + n_test)·p (matrix entries held at once, 8 bytes each).
pub const MAX_FEATURE_ENTRIES: usize = 60_000_000;
/// The most work a sweep may be, in seconds on one core by the cost model.
pub const MAX_SECONDS: f64 = 3600.0;
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

/// How (ε, δ, T, η) is turned into σ: the two of the accountant's
/// calibrations ([`Calibration`]) that DP-GD offers, each the accountant's
/// value by [`Calibration::from`]. Its settings' names are its serde names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum DpGdCalibration {
    /// [`Calibration::Paper`], the paper's formula: Prop. 3.2, σ =
    /// √(ηT)·√(8 ln(1/δ))/ε (needs ε < 8 ln(1/δ)).
    #[default]
    Prop32,
    /// [`Calibration::Exact`]: the smallest σ that a tight accountant
    /// certifies for the same mechanism.
    Exact,
}

impl From<DpGdCalibration> for Calibration {
    fn from(c: DpGdCalibration) -> Self {
        match c {
            DpGdCalibration::Prop32 => Calibration::Paper,
            DpGdCalibration::Exact => Calibration::Exact,
        }
    }
}

/// How each width is simulated (both are Algorithm 1; docs/algorithms.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum SimPath {
    /// The kernel path where it pays: p ≥ n and n ≥ [`KERNEL_MIN_N`].
    #[default]
    Auto,
    /// θ ∈ R^p stepped with Φ stored: two products with Φ per step, O(np).
    Direct,
    /// The n-dimensional simulation through K = ΦΦᵀ, exact in distribution:
    /// O(n²) per step, Φ never stored.
    Kernel,
}

/// Below this n the `auto` path stays direct, one run at a time: the kernel
/// path's set-up (an n×n factorization) does not pay, and the stored outputs of
/// the small presets (tests/fixtures) stay byte for byte. From this n on, the
/// direct runs of a width step together (`DpGdBatch`).
pub const KERNEL_MIN_N: usize = 256;

/// Largest n on the kernel path (K and its eigenvectors are 2·n² doubles).
pub const KERNEL_MAX_N: usize = 6000;

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
    pub calibration: DpGdCalibration,
    pub epsilon: f64,
    /// The run's μ when a risk drives it (exact calibration only): σ is set
    /// from it instead of from (ε, δ).
    pub risk_mu: Option<f64>,
    pub delta: f64,
    pub steps: usize,
    pub eta: f64,
    /// Replace-one L2 sensitivity of the mean clipped gradient ḡ: 2C/n.
    pub sensitivity: f64,
}

/// What the sweep asks for the optional "ε spent" column: the ε that σ buys.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpentQuery {
    pub calibration: DpGdCalibration,
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
    /// The privacy target of the DP-GD runs: `epsilons`, or `risks` at
    /// `risk_fpr` (not the `trace_epsilon` runs).
    pub target: PrivacyTarget,
    pub delta: f64,
    /// C = clip_scale·√p.
    pub clip_scale: f64,
    /// τ = ηT = time_scale·d/p.
    pub time_scale: f64,
    pub eta_mode: EtaMode,
    /// η when `eta_mode` is fixed (ignored otherwise).
    pub eta: f64,
    pub activation: Activation,
    /// How the labels y are drawn (the setting `target`; `target` is the
    /// privacy target here as in every scenario).
    pub label_model: TargetKind,
    /// Label noise std of the linear target (ignored for sign).
    pub label_noise: f64,
    pub seed: u64,
    /// Number of seeds: seed, seed+1, …
    pub repeats: usize,
    pub calibration: DpGdCalibration,
    /// Widths for the loss-versus-T experiment (each must be in `p_grid`; empty = off).
    pub trace_p: OptionalList,
    pub trace_epsilon: f64,
    /// time_scale values (ηTp/d) of the loss-versus-T runs.
    pub trace_time_scales: Vec<f64>,
    /// Fixed η of the loss-versus-T runs (0 = the main `eta_mode`).
    pub trace_eta: f64,
    /// How each width is simulated: `auto`, `direct` or `kernel`.
    #[serde(default)]
    pub path: SimPath,
}

/// The scenario's presets, in the page's order (the first is the default).
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "dpgd-browser",
        label: "Figure 3's shape at browser size (d = 20, n = 400)",
    },
    Preset {
        name: "dpgd-quick",
        label: "Quick look (d = 10, n = 100)",
    },
    Preset {
        name: "dpgd-paper",
        label: "Paper size (d = 100, n = 2000; slow)",
    },
    Preset {
        name: "dpgd-paper-full",
        label: "Paper's full width range, p up to 2·10⁵ (d = 100, n = 2000; minutes, native)",
    },
];

/// The paper's width grid (Fig. 3, the public code's `logspace(1.5, 5.3, 20)`
/// cast to integers): 31 to 199526.
pub const PAPER_WIDTHS: [usize; 20] = [
    31, 50, 79, 125, 199, 316, 501, 794, 1258, 1995, 3162, 5011, 7943, 12589, 19952, 31622, 50118,
    79432, 125892, 199526,
];

impl Default for DpGdConfig {
    /// The `dpgd-browser` preset.
    fn default() -> Self {
        browser_preset()
    }
}

/// Fig. 3's shape at a browser size (d = 20, n = 400, n/d = 20), p from 20 to
/// 8000 around p = n; ε ∈ {1, 2, 4}.
pub(super) fn browser_preset() -> DpGdConfig {
    DpGdConfig {
        n: 400,
        d: 20,
        p_grid: vec![20, 50, 100, 200, 300, 400, 500, 800, 1600, 3200, 8000],
        n_test: 400,
        target: PrivacyTarget::epsilons(vec![1.0, 2.0, 4.0]),
        delta: 1.0 / 400.0,
        clip_scale: 0.5,
        time_scale: 4.0,
        eta_mode: EtaMode::InverseP,
        eta: 3e-5,
        activation: Activation::Tanh,
        label_model: TargetKind::Sign,
        label_noise: 0.0,
        seed: 1,
        repeats: 1,
        calibration: DpGdCalibration::Prop32,
        trace_p: OptionalList(vec![800, 3200, 8000]),
        trace_epsilon: 4.0,
        trace_time_scales: vec![0.5, 1.0, 2.0, 4.0, 8.0, 16.0],
        trace_eta: 5e-4,
        path: SimPath::Auto,
    }
}

choices!(EtaMode {
    InverseP => "η = 1/p (T = scale·d)",
    Fixed => "fixed η (below)",
} aliases {
    "1/p" => InverseP,
});

choices!(DpGdCalibration {
    Prop32 => "paper's Prop. 3.2",
    Exact => "exact (GDP composition)",
});

choices!(Activation {
    Tanh => "tanh",
    Sin => "sin",
});

choices!(SimPath {
    Auto => "auto (kernel for p ≥ n, n ≥ 256)",
    Direct => "direct (θ in R^p)",
    Kernel => "kernel (n-dimensional, exact in distribution)",
});

choices!(TargetKind {
    Sign => "sign(uᵀx)",
    Linear => "uᵀx + noise",
});

const TRAINING: &str = "DP-GD training";
const TRACE: &str = "Loss versus T (separate runs, σ calibrated for each T)";

/// Below 0.001 the noise outgrows every number a run can hold; above 100
/// the accountant's solvers leave their range.
const EPSILONS: Interval = Interval::closed(1e-3, MAX_EPSILON);

/// Every setting of the sweep, in the page's order, with its rules.
pub(super) fn field_table() -> Vec<Field<DpGdConfig>> {
    type C = DpGdConfig;
    sections([
        (
            PROBLEM,
            vec![
                field!(n).label("training samples n").essential().range(2..=20_000),
                field!(d).label("input dimension d").range(1..=2000),
                field!(p_grid)
            .label("widths p")
            .essential()
            .help("number of random features; list, e.g. 50,400,1600")
            .at_least(1)
            .item("width")
            .non_empty()
            .distinct(),
                field!(n_test)
            .label("test samples n_test")
            .range(1..=20_000),
            ],
        ),
        (
            PRIVACY,
            target_rows!(delta)
                .epsilons(|f| f.range(EPSILONS))
                .rows(),
        ),
        (
            PRIVACY,
            vec![
                field!(calibration)
            .label("noise calibration")
            .help("Prop. 3.2: σ = √(ηT)·√(8 ln(1/δ))/ε, valid for ε < 8 ln(1/δ). Exact: the smallest σ for which the T noisy steps (sensitivity 2C/n each) compose to exactly (ε, δ)."),
            ],
        ),
        (
            TRAINING,
            vec![
                // Below 1e-12 every gradient is clipped to (nearly) nothing, and at
        // the smallest numbers the sensitivity 2C/n and the noise underflow
        // to 0 (5e-324 gave σ = 0): the bound FedRep's clips have too.
        field!(clip_scale)
            .label("clip scale")
            .help("C = scale·√p")
            .range(1e-12..=1e3)
            .note("C = clip_scale·√p"),
                field!(time_scale)
            .label("time scale")
            .help("ηT = scale·d/p")
            .positive()
            .note("ηT = time_scale·d/p"),
                field!(eta_mode).label("step size η"),
                field!(eta).label("fixed η"),
            ],
        ),
        (
            PROBLEM,
            vec![
                field!(activation).label("activation"),
                field!("target" => label_model).label("labels y"),
                field!(label_noise)
            .label("label noise (linear labels)")
            .range(0.0..=1e3),
                field!(seed via common::seed),
            ],
        ),
        (
            TRAINING,
            vec![
                field!(repeats via common::seeds)
            .aliases(&["repeats"]),
            ],
        ),
        (
            TRACE,
            vec![
                field!(trace_p)
            .label("widths p")
            .help("each in the widths above; “none” = off"),
                field!(trace_epsilon).label("ε of these runs"),
                field!(trace_time_scales)
            .label("time scales ηTp/d")
            .help("list"),
                field!(trace_eta)
            .label("η of these runs")
            .help("0 = as above"),
            ],
        ),
        (
            TRAINING,
            vec![
                field!(path)
            .label("simulation path")
            .help("direct: θ in R^p, Φ stored. kernel: the same algorithm simulated exactly in distribution through K = ΦΦᵀ in n dimensions, Φ never stored (fast for p ≥ n). auto: kernel for p ≥ n when n ≥ 256."),
            ],
        ),
    ])
}

impl DpGdConfig {
    /// The widths (at least one, each ≥ 1 and listed once: the field's
    /// rules) within memory: the kernel path's n, the direct path's features.
    pub(super) fn check_widths(&self) -> Result<(), ConfigError> {
        let mut sorted = self.p_grid.clone();
        sorted.sort_unstable();
        if self.p_grid.iter().any(|&p| self.uses_kernel(p)) && self.n > KERNEL_MAX_N {
            return Err(ConfigError::invalid(
                "n",
                format!(
                    "the kernel path holds K = ΦΦᵀ and its eigenvectors (2·n² numbers): n must be at most {KERNEL_MAX_N}; lower n or use path = direct"
                ),
            ));
        }
        // Φ and Φ_test are stored on the direct path only.
        let Some(p_max) = sorted.iter().rev().copied().find(|&p| !self.uses_kernel(p)) else {
            return Ok(());
        };
        let entries = self.n.saturating_add(self.n_test).saturating_mul(p_max);
        if entries > MAX_FEATURE_ENTRIES {
            return Err(ConfigError::invalid(
                "p_grid",
                format!(
                    "the largest width {p_max} with n + n_test = {} needs {} MB of features; \
                     keep (n + n_test)·p ≤ {MAX_FEATURE_ENTRIES} (lower p, n or n_test)",
                    self.n.saturating_add(self.n_test),
                    entries.saturating_mul(8) / 1_000_000
                ),
            ));
        }
        Ok(())
    }

    /// The loss-versus-T runs: widths from `p_grid`, their ε, time scales and η.
    pub(super) fn check_trace(&self) -> Result<(), ConfigError> {
        if let Some(&p) = self.trace_p.iter().find(|p| !self.p_grid.contains(p)) {
            return Err(ConfigError::invalid(
                "trace_p",
                format!("width {p} is not in p_grid; add it there or remove it here"),
            ));
        }
        if self.trace_p.is_empty() {
            return Ok(());
        }
        ConfigError::reject_if(
            !EPSILONS.contains(self.trace_epsilon),
            "trace_epsilon",
            &EPSILONS.requirement(false),
            self.trace_epsilon,
        )?;
        self.check_prop32("trace_epsilon", self.trace_epsilon)?;
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
            &format!("0 (use eta_mode) or in (0, d/p] = (0, {limit:.3e}] for p up to {traced_max}"),
            self.trace_eta,
        )
    }

    /// No run longer than [`MAX_STEPS`]; the message names the setting to change.
    pub(super) fn check_step_counts(&self) -> Result<(), ConfigError> {
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

    /// Prop. 3.2's calibration holds for ε < 8 ln(1/δ) only.
    pub(super) fn check_prop32(&self, field: &str, eps: f64) -> Result<(), ConfigError> {
        if self.calibration == DpGdCalibration::Prop32 {
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

    /// Whether width p runs on the kernel path (`path`; `auto` = p ≥ n at
    /// n ≥ [`KERNEL_MIN_N`], where its 2n² per step beats the direct 2np; below
    /// p = n the direct runs of a width step together as a batch, whose
    /// products with Φ are cheaper than the kernel's with K).
    pub fn uses_kernel(&self, p: usize) -> bool {
        match self.path {
            SimPath::Direct => false,
            SimPath::Kernel => true,
            SimPath::Auto => p >= self.n && self.n >= KERNEL_MIN_N,
        }
    }

    /// C = clip_scale·√p.
    pub fn clip(&self, p: usize) -> f64 {
        self.clip_scale * (p as f64).sqrt()
    }

    pub(super) fn data_target(&self) -> Target {
        match self.label_model {
            TargetKind::Sign => Target::Sign,
            TargetKind::Linear => Target::Linear {
                noise: self.label_noise,
            },
        }
    }
}

#[cfg(test)]
mod clip_scale_tests {
    use super::*;
    use crate::scenarios::field::Config;
    use crate::scenarios::{self, Shard};

    /// The smallest clip scale is refused at clip_scale (it once reached the
    /// accountant as σ = 0), and the smallest one taken runs to a finite,
    /// accounted end at the largest n.
    #[test]
    fn clip_scale_is_refused_at_its_field_below_1e_12() {
        for tiny in ["5e-324", "1e-300", "9e-13"] {
            let errors = DpGdConfig::from_pairs("dpgd-quick", [("clip_scale", tiny)]).unwrap_err();
            assert_eq!(errors[0].field(), "clip_scale", "{tiny}: {errors:?}");
        }
        let pairs = [
            ("clip_scale", "1e-12"),
            ("n", "20000"),
            ("p_grid", "10"),
            ("trace_p", "none"),
            ("epsilons", "0.001,100"),
            ("calibration", "exact"),
        ];
        let (_, mut run) = scenarios::start("dpgd-quick", &pairs, Shard::WHOLE).unwrap();
        scenarios::run_to_end(run.as_mut()).unwrap();
        assert!(run.view().privacy.len() >= 2);
    }
}

#[cfg(test)]
mod calibration_tests {
    use super::*;
    use crate::names::serde_name;
    use crate::scenarios::field::parse_choice;

    /// DP-GD's calibrations are the accountant's: each setting's name reads
    /// back as itself, and each stands for one of the accountant's calibrations
    /// (the one its privacy report states; the exact one under the same name).
    #[test]
    fn dpgd_calibrations_read_back_and_name_the_accountants() {
        let all = [DpGdCalibration::Prop32, DpGdCalibration::Exact];
        for c in all {
            assert_eq!(
                parse_choice::<DpGdCalibration>("calibration", serde_name(&c)),
                Ok(c)
            );
        }
        assert_eq!(serde_name(&DpGdCalibration::Prop32), "prop32");
        assert_eq!(
            Calibration::from(DpGdCalibration::Prop32),
            Calibration::Paper
        );
        assert_eq!(
            serde_name(&Calibration::from(DpGdCalibration::Exact)),
            serde_name(&DpGdCalibration::Exact)
        );
    }
}
