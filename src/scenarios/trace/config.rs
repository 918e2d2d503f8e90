//! The settings of the DP trace-regression scenario (Zha 2024): one field
//! table, three presets, checks that report every bad field at once.

use crate::data::trace_regression::{DataPath, TraceModel};
use crate::scenarios::error::ConfigError;
use crate::scenarios::field::{Choice, Config, Field, OptionalList};
use crate::scenarios::Preset;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// Longest sweep accepted (estimated, one core).
pub const MAX_SECONDS: f64 = 3600.0;

/// Which neighbours the guarantee compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum PrivacyKind {
    /// Replace one pair (X_i, y_i) (the paper's DP).
    #[default]
    Strong,
    /// Neighbours share X_i and differ in y_i only (the paper's weak DP, §5).
    Weak,
}

/// Whose sensitivities set the noise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// The paper's high-probability sensitivities with oracle σ's and a constant C.
    #[default]
    Paper,
    /// This project's extension: clipped samples, worst-case sensitivities.
    Clipped,
}

impl Choice for PrivacyKind {
    const CHOICES: &'static [(Self, &'static str)] = &[
        (PrivacyKind::Strong, "strong: replace one (X_i, y_i)"),
        (PrivacyKind::Weak, "weak: neighbours share X_i (§5)"),
    ];
}

impl Choice for Variant {
    const CHOICES: &'static [(Self, &'static str)] = &[
        (Variant::Paper, "paper: high-probability sensitivities"),
        (
            Variant::Clipped,
            "clipped (project's extension): worst case",
        ),
    ];
}

impl Choice for DataPath {
    const CHOICES: &'static [(Self, &'static str)] = &[
        (DataPath::Sufficient, "sufficient statistics (Wishart draw)"),
        (DataPath::Direct, "direct: n matrices X_i"),
    ];
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceConfig {
    pub d1: usize,
    pub d2: usize,
    pub r: usize,
    pub singular_values: Vec<f64>,
    /// σ_ξ.
    pub noise: f64,
    /// Sample sizes (the error-versus-n chart).
    pub n: Vec<usize>,
    pub epsilons: Vec<f64>,
    pub delta: f64,
    pub eta: f64,
    /// l*.
    pub iterations: usize,
    /// The constant C of the paper's sensitivities.
    pub constant: f64,
    pub privacy: PrivacyKind,
    pub variant: Variant,
    pub data: DataPath,
    /// τ_y, τ_x, τ of the clipped variant.
    pub clip_y: f64,
    pub clip_x: f64,
    pub clip_grad: f64,
    /// l* values of the trade-off chart (first n, middle ε); none = off.
    pub lstar_grid: OptionalList,
    pub repeats: usize,
    pub seed: u64,
}

pub const PRESETS: &[Preset] = &[
    Preset {
        name: "trace-paper",
        label: "d1 = d2 = 10, r = 2, n = 10⁴–2·10⁵, ε = 0.5–5, 20 repeats",
    },
    Preset {
        name: "trace-lstar",
        label: "the l* trade-off: more iterations, more noise per step",
    },
    Preset {
        name: "trace-weak",
        label: "weak DP (neighbours share X_i) against strong DP",
    },
];

impl Default for TraceConfig {
    fn default() -> Self {
        TraceConfig {
            d1: 10,
            d2: 10,
            r: 2,
            singular_values: vec![2.0, 1.0],
            noise: 0.5,
            n: vec![10_000, 20_000, 50_000, 100_000, 200_000],
            epsilons: vec![0.5, 1.0, 2.0, 5.0],
            delta: 1e-5,
            eta: 0.5,
            iterations: 5,
            constant: 1.0,
            privacy: PrivacyKind::Strong,
            variant: Variant::Paper,
            data: DataPath::Sufficient,
            clip_y: 8.0,
            clip_x: 13.0,
            clip_grad: 10.0,
            lstar_grid: OptionalList(Vec::new()),
            repeats: 20,
            seed: 1,
        }
    }
}

const PROBLEM: &str = "Problem";
const PRIVACY: &str = "Privacy";
const ALGORITHM: &str = "DP-RGrad (Algorithm 2)";
const CLIPPED: &str = "Clipped variant (project's extension)";

fn field_table() -> Vec<Field<TraceConfig>> {
    type C = TraceConfig;
    vec![
        Field::new("d1", |c: &C| &c.d1, |c: &mut C| &mut c.d1)
            .label("rows d1")
            .group(PROBLEM),
        Field::new("d2", |c: &C| &c.d2, |c: &mut C| &mut c.d2)
            .label("columns d2")
            .group(PROBLEM),
        Field::new("r", |c: &C| &c.r, |c: &mut C| &mut c.r)
            .label("rank r")
            .group(PROBLEM),
        Field::new(
            "singular_values",
            |c: &C| &c.singular_values,
            |c: &mut C| &mut c.singular_values,
        )
        .label("singular values σ₁ … σ_r")
        .help("r values, largest first")
        .group(PROBLEM),
        Field::new("noise", |c: &C| &c.noise, |c: &mut C| &mut c.noise)
            .label("noise σ_ξ")
            .group(PROBLEM),
        Field::new("n", |c: &C| &c.n, |c: &mut C| &mut c.n)
            .label("sample sizes n")
            .help("a list: the error-versus-n chart")
            .group(PROBLEM),
        Field::new("data", |c: &C| &c.data, |c: &mut C| &mut c.data)
            .label("data")
            .help("the Wishart draw never stores n matrices")
            .group(PROBLEM),
        Field::new("epsilons", |c: &C| &c.epsilons, |c: &mut C| &mut c.epsilons)
            .label("ε values")
            .help("a DP-RGrad run (start and iterations) targets (2ε, 2δ) in all (Theorem 3). The paper's variant gives each algorithm (ε, δ); the clipped variant splits the whole 2ε by halves of μ², so its start alone spends about 1.4ε (results.csv: epsilon_spent)")
            .slider(0.1, 20.0, true)
            .group(PRIVACY),
        Field::new("delta", |c: &C| &c.delta, |c: &mut C| &mut c.delta)
            .label("δ")
            .group(PRIVACY),
        Field::new("privacy", |c: &C| &c.privacy, |c: &mut C| &mut c.privacy)
            .label("neighbours")
            .group(PRIVACY),
        Field::new("variant", |c: &C| &c.variant, |c: &mut C| &mut c.variant)
            .label("sensitivities")
            .group(PRIVACY),
        Field::new("constant", |c: &C| &c.constant, |c: &mut C| &mut c.constant)
            .label("constant C")
            .help("the paper's unspecified C₂ = C₃ in its sensitivities")
            .group(PRIVACY),
        Field::new("eta", |c: &C| &c.eta, |c: &mut C| &mut c.eta)
            .label("step η")
            .group(ALGORITHM),
        Field::new(
            "iterations",
            |c: &C| &c.iterations,
            |c: &mut C| &mut c.iterations,
        )
        .label("iterations l*")
        .group(ALGORITHM),
        Field::new(
            "lstar_grid",
            |c: &C| &c.lstar_grid,
            |c: &mut C| &mut c.lstar_grid,
        )
        .label("l* trade-off values")
        .help("final error versus l* at the first n and middle ε; “none” = off")
        .group(ALGORITHM),
        Field::new("clip_y", |c: &C| &c.clip_y, |c: &mut C| &mut c.clip_y)
            .label("clip |y| at τ_y")
            .group(CLIPPED)
            .folded(),
        Field::new("clip_x", |c: &C| &c.clip_x, |c: &mut C| &mut c.clip_x)
            .label("clip ‖X‖_F at τ_x")
            .group(CLIPPED)
            .folded(),
        Field::new(
            "clip_grad",
            |c: &C| &c.clip_grad,
            |c: &mut C| &mut c.clip_grad,
        )
        .label("clip each tangent gradient at τ")
        .group(CLIPPED)
        .folded(),
        Field::new("repeats", |c: &C| &c.repeats, |c: &mut C| &mut c.repeats)
            .label("repeats")
            .help("datasets per n: the charts show medians")
            .group(PROBLEM),
        Field::new("seed", |c: &C| &c.seed, |c: &mut C| &mut c.seed)
            .label("seed")
            .group(PROBLEM),
    ]
}

impl TraceConfig {
    pub fn model(&self, n: usize, seed: u64) -> TraceModel {
        TraceModel {
            d1: self.d1,
            d2: self.d2,
            singular_values: self.singular_values.clone(),
            noise: self.noise,
            n,
            seed,
        }
    }

    /// The private configurations run: the chosen one, then the paper's
    /// strong DP beside a weak or clipped choice, for comparison.
    pub fn private_configs(&self) -> Vec<(Variant, PrivacyKind)> {
        let mut v = vec![(self.variant, self.privacy)];
        if self.variant == Variant::Clipped && !v.contains(&(Variant::Paper, self.privacy)) {
            v.push((Variant::Paper, self.privacy));
        }
        if self.privacy == PrivacyKind::Weak && !v.contains(&(self.variant, PrivacyKind::Strong)) {
            v.push((self.variant, PrivacyKind::Strong));
        }
        v
    }

    /// Seconds on one core (measured constants: Wishart O(p³), or the direct
    /// path's passes O(n·p) per iteration).
    pub fn estimated_seconds(&self) -> f64 {
        let p = (self.d1 * self.d2) as f64;
        let d = (self.d1.max(self.d2)) as f64;
        let runs = (1 + self.private_configs().len() * self.epsilons.len()) as f64
            * (self.iterations as f64 + 1.0)
            + self.lstar_grid.iter().map(|&l| l as f64 + 1.0).sum::<f64>();
        let clipped = self.variant == Variant::Clipped;
        let per_dataset: f64 = self
            .n
            .iter()
            .map(|&n| {
                let n = n as f64;
                let setup = match self.data {
                    DataPath::Sufficient => p * p * p * 1.0e-9,
                    DataPath::Direct => n * p * 12.0e-9,
                };
                let pass = match self.data {
                    DataPath::Sufficient => p * p * 1.5e-9,
                    DataPath::Direct => n * p * 1.5e-9,
                };
                let clip_pass = if clipped {
                    n * p * (self.r as f64) * 8.0e-9
                } else {
                    0.0
                };
                setup
                    + runs * (pass + d * d * d * 2e-8)
                    + clip_pass * (self.iterations as f64 + 1.0) * self.epsilons.len() as f64
            })
            .sum();
        self.repeats as f64 * per_dataset
    }
}

impl Config for TraceConfig {
    fn fields() -> &'static [Field<Self>] {
        static FIELDS: OnceLock<Vec<Field<TraceConfig>>> = OnceLock::new();
        FIELDS.get_or_init(field_table)
    }

    fn preset(name: &str) -> Result<Self, ConfigError> {
        match name.trim().to_ascii_lowercase().as_str() {
            "trace-paper" => Ok(TraceConfig::default()),
            "trace-lstar" => Ok(TraceConfig {
                n: vec![50_000],
                epsilons: vec![1.0],
                lstar_grid: OptionalList(vec![1, 2, 3, 4, 5, 6, 8, 10, 12, 15]),
                ..TraceConfig::default()
            }),
            "trace-weak" => Ok(TraceConfig {
                privacy: PrivacyKind::Weak,
                n: vec![10_000, 50_000, 200_000],
                repeats: 10,
                ..TraceConfig::default()
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

    fn validate_all(&self) -> Vec<ConfigError> {
        let mut errors = Vec::new();
        let mut check = |ok: bool, field: &str, requirement: &str, value: String| {
            if !ok {
                errors.push(ConfigError::out_of_range(field, requirement, value));
            }
        };
        check(
            (1..=30).contains(&self.d1),
            "d1",
            "between 1 and 30",
            self.d1.to_string(),
        );
        check(
            (1..=30).contains(&self.d2),
            "d2",
            "between 1 and 30",
            self.d2.to_string(),
        );
        let rmax = self.d1.min(self.d2);
        check(
            self.r >= 1 && self.r <= rmax,
            "r",
            &format!("between 1 and min(d1, d2) = {rmax}"),
            self.r.to_string(),
        );
        let sorted = self.singular_values.windows(2).all(|w| w[0] >= w[1]);
        check(
            self.singular_values.len() == self.r
                && sorted
                && self.singular_values.iter().all(|&s| s > 0.0 && s <= 1e3),
            "singular_values",
            &format!("{} values in (0, 1000], largest first", self.r),
            format!("{:?}", self.singular_values),
        );
        check(
            self.noise >= 0.0 && self.noise <= 100.0,
            "noise",
            "in [0, 100]",
            self.noise.to_string(),
        );
        let p = self.d1 * self.d2;
        check(
            !self.n.is_empty() && self.n.iter().all(|&n| n >= p.max(10) && n <= 10_000_000),
            "n",
            &format!("sample sizes between d1·d2 = {p} and 10000000"),
            format!("{:?}", self.n),
        );
        check(
            !self.epsilons.is_empty() && self.epsilons.iter().all(|&e| (0.01..=100.0).contains(&e)),
            "epsilons",
            "values in [0.01, 100]",
            format!("{:?}", self.epsilons),
        );
        check(
            self.delta > 0.0 && self.delta <= 0.1,
            "delta",
            "in (0, 0.1]",
            self.delta.to_string(),
        );
        check(
            self.eta > 0.0 && self.eta <= 2.0,
            "eta",
            "in (0, 2]",
            self.eta.to_string(),
        );
        check(
            (1..=200).contains(&self.iterations),
            "iterations",
            "between 1 and 200",
            self.iterations.to_string(),
        );
        check(
            self.constant > 0.0 && self.constant <= 1e3,
            "constant",
            "in (0, 1000]",
            self.constant.to_string(),
        );
        for (field, value) in [
            ("clip_y", self.clip_y),
            ("clip_x", self.clip_x),
            ("clip_grad", self.clip_grad),
        ] {
            check(
                value > 0.0 && value <= 1e6,
                field,
                "in (0, 1e6]",
                value.to_string(),
            );
        }
        check(
            self.lstar_grid.iter().all(|&l| (1..=200).contains(&l)),
            "lstar_grid",
            "values between 1 and 200",
            format!("{:?}", self.lstar_grid.0),
        );
        check(
            (1..=100).contains(&self.repeats),
            "repeats",
            "between 1 and 100",
            self.repeats.to_string(),
        );
        if !errors.is_empty() {
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
            if bytes > 1.0e9 {
                errors.push(ConfigError::invalid(
                    "data",
                    format!(
                        "n = {largest} matrices of {p} numbers take {:.1} GB: choose data = sufficient, or lower n",
                        bytes / 1e9
                    ),
                ));
            }
        }
        for &eps in &self.epsilons {
            if let Err(e) = super::plan::plan(self, self.n[0], eps, self.variant, self.privacy) {
                errors.push(ConfigError::invalid(
                    "epsilons",
                    format!("the accountant refuses ε = {eps}: {e}"),
                ));
                break;
            }
        }
        let seconds = self.estimated_seconds();
        if seconds > MAX_SECONDS {
            errors.push(ConfigError::invalid(
                "repeats",
                format!(
                    "this sweep would take about {:.0} h on one core (limit 1 h): lower repeats, n, d1·d2 or the ε list",
                    seconds / 3600.0
                ),
            ));
        }
        errors
    }
}
