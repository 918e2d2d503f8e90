//! The settings of the JL + exponential-mechanism classifier (Snedeker, Zhou &
//! Bassily, Algorithm 3): one field table, two presets, checks that report
//! every bad field at once.

use crate::data::margin_classification::{Inputs, MarginModel, MIN_ACCEPTANCE};
use crate::privacy::report::fmt_num;
use crate::scenarios::error::ConfigError;
use crate::scenarios::field::{Choice, Config, Field, OptionalList};
use crate::scenarios::Preset;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// Which candidate set the exponential mechanism draws from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Cover {
    /// The exact γ-cover of B_F (Algorithm 3, line 3): the paper's range.
    /// Theorem 17's bound also needs γ = O(ρ/(rΓ)) and k′ of order
    /// r²Γ² log(nm/β)/ρ², far beyond any cover small enough to score.
    Exact,
    /// N_c candidates drawn in B_F without looking at the data: still ε-DP,
    /// but the guarantee is relative to the best candidate.
    #[default]
    Random,
}

impl Choice for Cover {
    const CHOICES: &'static [(Self, &'static str)] = &[
        (Cover::Exact, "exact γ-cover of B_F (the paper's range)"),
        (
            Cover::Random,
            "random candidates (relative to the best one)",
        ),
    ];
}

/// How the inputs are drawn (`data::margin_classification::Inputs`; the
/// paper fixes only their domain, the r-ball: both are this project's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum InputModel {
    /// x = U*z + P⊥g with ‖x‖ = r and ‖z‖ = a·r: the label's signal and the
    /// margin do not depend on d.
    #[default]
    Subspace,
    /// x uniform in the d-ball: the signal shrinks like 1/√d.
    Ball,
}

impl Choice for InputModel {
    const CHOICES: &'static [(Self, &'static str)] = &[
        (
            InputModel::Subspace,
            "x = U*z + P⊥g, margin independent of d (this project's model)",
        ),
        (
            InputModel::Ball,
            "x uniform in the d-ball, signal shrinks like 1/√d (this project's model)",
        ),
    ];
}

/// Every setting of the sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClassifierConfig {
    /// Users.
    pub n: usize,
    /// Points per user (S⁰ = the first m/2, S¹ = the rest).
    pub m: usize,
    pub d: usize,
    pub k: usize,
    /// k′: the JL dimension.
    pub k_prime: usize,
    /// How the inputs are drawn.
    pub inputs: InputModel,
    /// a: the share of ‖x‖ = r in span(U*) (subspace inputs).
    pub signal: f64,
    pub cover: Cover,
    /// γ of the exact cover.
    pub cover_gamma: f64,
    /// N_c random candidates.
    pub candidates: usize,
    /// ρ: the inputs' margin |⟨x, U*v_i*⟩| ≥ ρ and the score's margin loss.
    pub margin: f64,
    /// r: the radius of the input ball.
    pub radius: f64,
    /// Γ: the heads' norm bound.
    pub gamma: f64,
    /// Probability of a flipped label.
    pub flip: f64,
    pub epsilons: Vec<f64>,
    /// Dimensions of the error-versus-d chart.
    pub d_grid: OptionalList,
    /// Candidate counts of the error-versus-N_c chart (random cover).
    pub candidate_grid: OptionalList,
    /// Fresh test points per user (the 0-1 error).
    pub test_points: usize,
    pub seed: u64,
    pub seeds: usize,
}

/// The presets, in the page's order (the first is the scenario's default).
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "jl-random",
        label: "k = 2, random candidates (a few seconds)",
    },
    Preset {
        name: "jl-exact",
        label: "k = 1, k′ = 2, the exact γ-cover (16 candidates; a toy size, not Theorem 17's)",
    },
];

impl Default for ClassifierConfig {
    fn default() -> Self {
        ClassifierConfig {
            n: 300,
            m: 20,
            d: 30,
            k: 2,
            k_prime: 8,
            inputs: InputModel::Subspace,
            signal: 0.98,
            cover: Cover::Random,
            cover_gamma: 0.5,
            candidates: 400,
            margin: 0.1,
            radius: 1.0,
            gamma: 1.0,
            flip: 0.05,
            epsilons: vec![0.1, 0.3, 1.0, 3.0, 10.0],
            d_grid: OptionalList(vec![10, 30, 100, 300]),
            candidate_grid: OptionalList(vec![10, 40, 160, 400]),
            test_points: 100,
            seed: 1,
            seeds: 3,
        }
    }
}

const PROBLEM: &str = "Problem";
const PRIVACY: &str = "Privacy";
const LEARNER: &str = "Algorithm 3";
const CHARTS: &str = "Charts";

fn field_table() -> Vec<Field<ClassifierConfig>> {
    type C = ClassifierConfig;
    vec![
        Field::new("n", |c: &C| &c.n, |c: &mut C| &mut c.n)
            .label("users n")
            .group(PROBLEM),
        Field::new("m", |c: &C| &c.m, |c: &mut C| &mut c.m)
            .label("points per user m")
            .help("half score the candidates (S⁰), half fit the heads (S¹)")
            .group(PROBLEM),
        Field::new("d", |c: &C| &c.d, |c: &mut C| &mut c.d)
            .label("dimension d")
            .group(PROBLEM),
        Field::new("k", |c: &C| &c.k, |c: &mut C| &mut c.k)
            .label("representation k")
            .group(PROBLEM),
        Field::new("inputs", |c: &C| &c.inputs, |c: &mut C| &mut c.inputs)
            .label("inputs")
            .help("how x is drawn in the r-ball (the paper fixes only the ball)")
            .group(PROBLEM),
        Field::new("signal", |c: &C| &c.signal, |c: &mut C| &mut c.signal)
            .label("signal share a")
            .help("subspace inputs: ‖U*ᵀx‖ = a·r, the rest of ‖x‖ = r orthogonal to U*")
            .group(PROBLEM),
        Field::new("margin", |c: &C| &c.margin, |c: &mut C| &mut c.margin)
            .label("margin ρ")
            .help("inputs keep |⟨x, U*v_i*⟩| ≥ ρ; the score's margin loss uses the same ρ")
            .group(PROBLEM),
        Field::new("radius", |c: &C| &c.radius, |c: &mut C| &mut c.radius)
            .label("input radius r")
            .group(PROBLEM),
        Field::new("gamma", |c: &C| &c.gamma, |c: &mut C| &mut c.gamma)
            .label("head norm Γ")
            .group(PROBLEM),
        Field::new("flip", |c: &C| &c.flip, |c: &mut C| &mut c.flip)
            .label("label flips")
            .help("probability that a label is flipped")
            .group(PROBLEM),
        Field::new("epsilons", |c: &C| &c.epsilons, |c: &mut C| &mut c.epsilons)
            .label("ε values")
            .help("pure ε: δ = 0")
            .slider(0.01, 100.0, true)
            .group(PRIVACY),
        Field::new("k_prime", |c: &C| &c.k_prime, |c: &mut C| &mut c.k_prime)
            .label("JL dimension k′")
            .group(LEARNER),
        Field::new("cover", |c: &C| &c.cover, |c: &mut C| &mut c.cover)
            .label("candidate set")
            .group(LEARNER),
        Field::new(
            "cover_gamma",
            |c: &C| &c.cover_gamma,
            |c: &mut C| &mut c.cover_gamma,
        )
        .label("cover radius γ")
        .help("exact cover only")
        .group(LEARNER),
        Field::new(
            "candidates",
            |c: &C| &c.candidates,
            |c: &mut C| &mut c.candidates,
        )
        .label("random candidates N_c")
        .group(LEARNER),
        Field::new("d_grid", |c: &C| &c.d_grid, |c: &mut C| &mut c.d_grid)
            .label("dimensions d")
            .help("error versus d; “none” = off")
            .group(CHARTS),
        Field::new(
            "candidate_grid",
            |c: &C| &c.candidate_grid,
            |c: &mut C| &mut c.candidate_grid,
        )
        .label("candidate counts")
        .help("error versus N_c (random candidates); “none” = off")
        .group(CHARTS),
        Field::new(
            "test_points",
            |c: &C| &c.test_points,
            |c: &mut C| &mut c.test_points,
        )
        .label("test points per user")
        .group(CHARTS)
        .folded(),
        Field::new("seed", |c: &C| &c.seed, |c: &mut C| &mut c.seed)
            .label("seed")
            .group(PROBLEM),
        Field::new("seeds", |c: &C| &c.seeds, |c: &mut C| &mut c.seeds)
            .label("seeds")
            .help("datasets seed, seed+1, …: the charts show their mean")
            .group(PROBLEM),
    ]
}

/// Most candidates the exponential mechanism scores (each costs a pass over S⁰).
pub const MAX_CANDIDATES: usize = 20_000;

impl ClassifierConfig {
    /// The candidate counts the sweep needs: the main one and the chart's.
    pub fn largest_candidates(&self) -> usize {
        match self.cover {
            Cover::Exact => 0,
            Cover::Random => self
                .candidate_grid
                .iter()
                .copied()
                .chain([self.candidates])
                .max()
                .unwrap_or(self.candidates),
        }
    }

    /// The data model of one (seed, d) of the sweep.
    pub fn model(&self, seed: u64, d: usize) -> MarginModel {
        MarginModel {
            n: self.n,
            m: self.m,
            d,
            k: self.k,
            inputs: match self.inputs {
                InputModel::Subspace => Inputs::Subspace {
                    signal: self.signal,
                },
                InputModel::Ball => Inputs::Ball,
            },
            radius: self.radius,
            gamma: self.gamma,
            margin: self.margin,
            flip: self.flip,
            seed,
        }
    }

    /// Every dimension the sweep runs: d, then the chart's.
    pub fn dimensions(&self) -> Vec<usize> {
        let mut ds = vec![self.d];
        for &d in self.d_grid.iter() {
            if !ds.contains(&d) {
                ds.push(d);
            }
        }
        ds
    }
}

/// x rounded down to three significant digits (a bound that is printed must
/// still be a bound).
fn floor_to_3_digits(x: f64) -> f64 {
    if !(x > 0.0 && x.is_finite()) {
        return x;
    }
    let scale = 10f64.powi(2 - x.log10().floor() as i32);
    (x * scale).floor() / scale
}

impl Config for ClassifierConfig {
    fn fields() -> &'static [Field<Self>] {
        static FIELDS: OnceLock<Vec<Field<ClassifierConfig>>> = OnceLock::new();
        FIELDS.get_or_init(field_table)
    }

    fn preset(name: &str) -> Result<Self, ConfigError> {
        match name.trim().to_ascii_lowercase().as_str() {
            "jl-random" => Ok(ClassifierConfig::default()),
            "jl-exact" => Ok(ClassifierConfig {
                n: 300,
                k: 1,
                k_prime: 2,
                d: 20,
                // With k = 1 every input has the full margin a·r·Γ; at k′ = 2
                // the projection folds the part orthogonal to U* onto it, and
                // a = 0.6 leaves enough of it to show what that costs.
                signal: 0.6,
                cover: Cover::Exact,
                cover_gamma: 0.5,
                d_grid: OptionalList(vec![10, 20, 50, 100]),
                candidate_grid: OptionalList(Vec::new()),
                ..ClassifierConfig::default()
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
            (2..=5000).contains(&self.n),
            "n",
            "between 2 and 5000",
            self.n.to_string(),
        );
        check(
            (2..=200).contains(&self.m) && self.m % 2 == 0,
            "m",
            "an even number between 2 and 200",
            self.m.to_string(),
        );
        check(
            (1..=1000).contains(&self.d),
            "d",
            "between 1 and 1000",
            self.d.to_string(),
        );
        check(
            (1..=3).contains(&self.k),
            "k",
            "1, 2 or 3",
            self.k.to_string(),
        );
        // U* is d×k with orthonormal columns (and so is the random
        // representation of the local baseline): k ≤ d at every d of the sweep.
        check(
            self.d >= self.k,
            "d",
            &format!(
                "at least k = {} (U* is d×k with orthonormal columns)",
                self.k
            ),
            self.d.to_string(),
        );
        check(
            self.d_grid.iter().all(|&d| d >= self.k),
            "d_grid",
            &format!(
                "dimensions of at least k = {} (U* is d×k with orthonormal columns)",
                self.k
            ),
            format!("{:?}", self.d_grid.0),
        );
        check(
            (1..=32).contains(&self.k_prime),
            "k_prime",
            "between 1 and 32",
            self.k_prime.to_string(),
        );
        check(
            self.k <= self.k_prime,
            "k_prime",
            "at least k",
            self.k_prime.to_string(),
        );
        check(
            self.radius > 0.0 && self.radius <= 1e3,
            "radius",
            "in (0, 1000]",
            self.radius.to_string(),
        );
        check(
            self.gamma > 0.0 && self.gamma <= 1e3,
            "gamma",
            "in (0, 1000]",
            self.gamma.to_string(),
        );
        check(
            self.signal > 0.0 && self.signal <= 1.0,
            "signal",
            "in (0, 1]",
            self.signal.to_string(),
        );
        check(
            self.margin >= 0.0 && self.margin.is_finite(),
            "margin",
            "at least 0",
            self.margin.to_string(),
        );
        check(
            (0.0..0.5).contains(&self.flip),
            "flip",
            "in [0, 0.5)",
            self.flip.to_string(),
        );
        check(
            self.cover_gamma > 0.05 && self.cover_gamma <= 10.0,
            "cover_gamma",
            "in (0.05, 10]",
            self.cover_gamma.to_string(),
        );
        check(
            (1..=MAX_CANDIDATES).contains(&self.candidates),
            "candidates",
            "between 1 and 20000",
            self.candidates.to_string(),
        );
        check(
            self.candidate_grid
                .iter()
                .all(|&c| (1..=MAX_CANDIDATES).contains(&c)),
            "candidate_grid",
            "counts between 1 and 20000",
            format!("{:?}", self.candidate_grid.0),
        );
        check(
            self.d_grid.iter().all(|&d| (1..=1000).contains(&d)),
            "d_grid",
            "dimensions between 1 and 1000",
            format!("{:?}", self.d_grid.0),
        );
        check(
            (10..=10_000).contains(&self.test_points),
            "test_points",
            "between 10 and 10000",
            self.test_points.to_string(),
        );
        check(
            (1..=20).contains(&self.seeds),
            "seeds",
            "between 1 and 20",
            self.seeds.to_string(),
        );
        if self.epsilons.is_empty() || self.epsilons.iter().any(|&e| !(e > 0.0 && e <= 1000.0)) {
            errors.push(ConfigError::invalid(
                "epsilons",
                "every ε must be in (0, 1000]",
            ));
        }
        if !errors.is_empty() {
            // The checks below size the work from fields that must be sane first.
            return errors;
        }
        // The margin the inputs can keep: a draw keeps it with probability
        // `acceptance` (at every d for subspace inputs, falling with d in the
        // ball); below 1 in 100 the data draw would mostly reject.
        let worst = self
            .dimensions()
            .into_iter()
            .map(|d| self.model(self.seed, d))
            .min_by(|a, b| a.acceptance().total_cmp(&b.acceptance()));
        if let Some(model) = worst {
            if model.acceptance() < MIN_ACCEPTANCE {
                let rho_max = model.largest_margin(MIN_ACCEPTANCE);
                let (what, bound) = match self.inputs {
                    InputModel::Subspace => (
                        "subspace inputs",
                        format!(
                            "|⟨x, U*v_i*⟩| ≤ a·r·Γ = {}",
                            fmt_num(model.largest_signal())
                        ),
                    ),
                    InputModel::Ball => (
                        "inputs in the d-ball",
                        format!(
                            "⟨x, U*v_i*⟩ has standard deviation about rΓ/√(d + 2) = {} at d = {}",
                            fmt_num(self.radius * self.gamma / ((model.d + 2) as f64).sqrt()),
                            model.d
                        ),
                    ),
                };
                errors.push(ConfigError::out_of_range(
                    "margin",
                    &format!(
                        "at most {} for {what} ({bound}; a larger margin is kept by fewer than 1 draw in {})",
                        fmt_num(floor_to_3_digits(rho_max)),
                        (1.0 / MIN_ACCEPTANCE).round()
                    ),
                    self.margin.to_string(),
                ));
            }
        }
        if self.cover == Cover::Exact
            && crate::algorithms::jl_exponential::exact_cover(
                self.k_prime,
                self.k,
                self.cover_gamma,
                MAX_CANDIDATES,
            )
            .is_none()
        {
            errors.push(ConfigError::invalid(
                "cover",
                format!(
                    "the exact γ-cover of a {}×{} ball at γ = {} has more than {MAX_CANDIDATES} points; raise cover_gamma, lower k′ or k, or choose random candidates",
                    self.k_prime, self.k, self.cover_gamma
                ),
            ));
        }
        let work = self.n as f64
            * self.m as f64
            * (self.dimensions().len() * self.seeds) as f64
            * (self.largest_candidates().max(1) as f64);
        if work > 5e9 {
            errors.push(ConfigError::invalid(
                "candidates",
                "this sweep would score too many candidates on too many points; lower candidates, n, m or the grids",
            ));
        }
        errors
    }
}
