//! The settings of the DP trace-regression scenario (Zha 2024): one field
//! table, three presets, checks that report every bad field at once.

use crate::data::trace_regression::{DataPath, TraceModel};
use crate::scenarios::config_common::{CLIP, PRIVACY, PROBLEM};
use crate::scenarios::field::rules::Interval;
use crate::scenarios::field::{
    choices, common, field, sections, target_rows, Config, Field, OptionalList, PrivacyTarget,
};
use crate::scenarios::Preset;
use serde::{Deserialize, Serialize};

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

choices!(PrivacyKind {
    Strong => "strong: replace one (X_i, y_i)",
    Weak => "weak: neighbours share X_i (§5)",
});

choices!(Variant {
    Paper => "paper: high-probability sensitivities",
    Clipped => "clipped (project's extension): worst case",
});

choices!(DataPath {
    Sufficient => "sufficient statistics (Wishart draw)",
    Direct => "direct: n matrices X_i",
});

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
    /// The privacy target: `epsilons`, or `risks` at `risk_fpr`.
    pub target: PrivacyTarget,
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
            target: PrivacyTarget::epsilons(vec![0.5, 1.0, 2.0, 5.0]),
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

const ALGORITHM: &str = "DP-RGrad (Algorithm 2)";
const CLIPPED: &str = "Clipped variant (project's extension)";

pub(super) fn field_table() -> Vec<Field<TraceConfig>> {
    type C = TraceConfig;
    sections([
        (
            PROBLEM,
            vec![
                field!(d1).label("rows d1").range(1..=30),
                field!(d2).label("columns d2").range(1..=30),
                field!(r).label("rank r"),
                field!(singular_values)
            .label("singular values σ₁ … σ_r")
            .help("r values, largest first")
            .range(Interval::open_closed(0.0, 1e3))
            .item("singular value")
            .largest_first(),
                field!(noise)
            .label("noise σ_ξ")
            .range(0.0..=100.0),
                field!(n)
            .label("sample sizes n")
            .essential()
            .help("a list: the error-versus-n chart")
            .range(10..=10_000_000)
            .item("sample size")
            .non_empty(),
                field!(data)
            .label("data")
            .help("the Wishart draw never stores n matrices"),
            ],
        ),
        (
            PRIVACY,
            target_rows!(delta)
                .epsilons(|f| {
                    f.help("a DP-RGrad run (start and iterations) targets (2ε, 2δ) in all (Theorem 3). The paper's variant gives each algorithm (ε, δ); the clipped variant splits the whole 2ε by halves of μ², so its start alone spends about 1.4ε (results.csv: epsilon_spent)")
                        .slider(0.1, 20.0, true)
                        .at_least(0.01)
                })
                .delta(|f| f.at_most(0.1))
                .rows(),
        ),
        (
            PRIVACY,
            vec![
                field!(privacy).label("neighbours"),
                field!(variant).label("sensitivities").essential(),
                field!(constant)
            .label("constant C")
            .help("the paper's unspecified C₂ = C₃ in its sensitivities")
            .range(Interval::open_closed(0.0, 1e3)),
            ],
        ),
        (
            ALGORITHM,
            vec![
                field!(eta)
            .label("step η")
            .range(Interval::open_closed(0.0, 2.0)),
                field!(iterations)
            .label("iterations l*")
            .range(1..=200),
                field!(lstar_grid)
            .label("l* trade-off values")
            .help("final error versus l* at the first n and middle ε; “none” = off")
            .range(1..=200),
            ],
        ),
        (
            CLIPPED,
            vec![
                field!(clip_y)
            .label("clip |y| at τ_y")
            .range(CLIP),
                field!(clip_x)
            .label("clip ‖X‖_F at τ_x")
            .range(CLIP),
                field!(clip_grad)
            .label("clip each tangent gradient at τ")
            .range(CLIP),
            ],
        ),
        (
            PROBLEM,
            vec![
                field!(repeats)
            .label("repeats")
            .help("datasets per n: the charts show medians")
            .range(1..=100),
                field!(seed via common::seed),
            ],
        ),
    ])
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
        // The paper's variant beside the clipped one, at the same ε: not when
        // risks drive the run (its formulas cannot be calibrated to a risk).
        if self.variant == Variant::Clipped
            && !self.risk_target().drives()
            && !v.contains(&(Variant::Paper, self.privacy))
        {
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
        let runs = (1 + self.private_configs().len() * self.target.epsilons.len()) as f64
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
                    + clip_pass * (self.iterations as f64 + 1.0) * self.target.epsilons.len() as f64
            })
            .sum();
        self.repeats as f64 * per_dataset
    }
}
