//! The settings of the JL + exponential-mechanism classifier (Snedeker, Zhou &
//! Bassily, Algorithm 3): one field table, two presets, checks that report
//! every bad field at once.

use crate::data::margin_classification::{Inputs, MarginModel, MIN_ACCEPTANCE};
use crate::privacy::report::fmt_num;
use crate::scenarios::config_common::{presets, seed_section, CHARTS, PROBLEM};
use crate::scenarios::error::ConfigError;
use crate::scenarios::field::rules::Interval;
use crate::scenarios::field::{
    choices, field, fields_once, sections, target, target_rows, Config, Field, OptionalList,
    PrivacyTarget,
};
use crate::scenarios::Preset;
use serde::{Deserialize, Serialize};

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

choices!(Cover {
    Exact => "exact γ-cover of B_F (the paper's range)",
    Random => "random candidates (relative to the best one)",
});

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

choices!(InputModel {
    Subspace => "x = U*z + P⊥g, margin independent of d (this project's model)",
    Ball => "x uniform in the d-ball, signal shrinks like 1/√d (this project's model)",
});

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
    /// The privacy target: `epsilons`, or `risks` at `risk_fpr`.
    pub target: PrivacyTarget,
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
            target: PrivacyTarget::epsilons(vec![0.1, 0.3, 1.0, 3.0, 10.0]),
            d_grid: OptionalList(vec![10, 30, 100, 300]),
            candidate_grid: OptionalList(vec![10, 40, 160, 400]),
            test_points: 100,
            seed: 1,
            seeds: 3,
        }
    }
}

const LEARNER: &str = "Algorithm 3";

fn field_table() -> Vec<Field<ClassifierConfig>> {
    type C = ClassifierConfig;
    sections([
        (
            PROBLEM,
            vec![
                field!(n).label("users n").essential().range(2..=5000),
                field!(m)
                    .label("points per user m")
                    .help("half score the candidates (S⁰), half fit the heads (S¹)")
                    .range(2..=200),
                field!(d).label("dimension d").range(1..=1000),
                field!(k).label("representation k").range(1..=3),
                field!(inputs)
                    .label("inputs")
                    .help("how x is drawn in the r-ball (the paper fixes only the ball)"),
                field!(signal)
                    .label("signal share a")
                    .help("subspace inputs: ‖U*ᵀx‖ = a·r, the rest of ‖x‖ = r orthogonal to U*")
                    .range(Interval::open_closed(0.0, 1.0)),
                field!(margin)
                    .label("margin ρ")
                    .help("inputs keep |⟨x, U*v_i*⟩| ≥ ρ; the score's margin loss uses the same ρ")
                    .at_least(0),
                field!(radius)
                    .label("input radius r")
                    .range(Interval::open_closed(0.0, 1e3)),
                field!(gamma)
                    .label("head norm Γ")
                    .range(Interval::open_closed(0.0, 1e3)),
                field!(flip)
                    .label("label flips")
                    .help("probability that a label is flipped")
                    .range(Interval::closed_open(0.0, 0.5)),
            ],
        ),
        (
            "Privacy",
            target_rows!()
                .epsilons(|f| {
                    f.help("pure ε: δ = 0")
                        .slider(0.01, 100.0, true)
                        .widened_to(
                            Interval::open_closed(0.0, 1e3),
                            "one exponential-mechanism release, pure ε-DP (δ = 0): no accountant \
                             solves for a σ, so the accountant's range (ε ≤ 100) does not bind here",
                        )
                })
                .risks(|f| f.help("instead of ε: the attacker's true-positive rate at the false-positive rate below; pure ε-DP allows it from ε = max(ln(TPR/FPR), ln((1 − FPR)/(1 − TPR))) (none = the ε values drive)"))
                .rows(),
        ),
        (
            LEARNER,
            vec![
                field!(k_prime).label("JL dimension k′").range(1..=32),
                field!(cover).label("candidate set"),
                field!(cover_gamma)
                    .label("cover radius γ")
                    .help("exact cover only")
                    .range(Interval::open_closed(0.05, 10.0)),
                field!(candidates)
                    .label("random candidates N_c")
                    .range(1..=MAX_CANDIDATES),
            ],
        ),
        (
            CHARTS,
            vec![
                field!(d_grid)
                    .label("dimensions d")
                    .essential()
                    .help("error versus d; “none” = off")
                    .range(1..=1000)
                    .item("dimension"),
                field!(candidate_grid)
                    .label("candidate counts")
                    .help("error versus N_c (random candidates); “none” = off")
                    .range(1..=MAX_CANDIDATES)
                    .item("count"),
                field!(test_points)
                    .label("test points per user")
                    .range(10..=10_000),
            ],
        ),
        seed_section!(),
    ])
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
    fields_once!(ClassifierConfig, field_table);

    /// The privacy target: ε values, or risks, each turned into the smallest
    /// pure ε whose region admits it (the exponential mechanism is ε-DP).
    fn risk_target(&self) -> target::RiskTarget<'_> {
        self.target.pure()
    }

    presets! {
        "jl-random" => ClassifierConfig::default(),
        "jl-exact" => ClassifierConfig {
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
        },
    }

    fn cross_checks(&self, failed: &[ConfigError]) -> Vec<ConfigError> {
        let mut errors = Vec::new();
        if self.m % 2 == 1 && !failed.iter().any(|e| e.field() == "m") {
            errors.push(ConfigError::out_of_range(
                "m",
                "an even number (half the points score the candidates, half fit the heads)",
                self.m,
            ));
        }
        // U* is d×k with orthonormal columns (and so is the random
        // representation of the local baseline): k ≤ d at every d of the sweep.
        if self.d < self.k {
            errors.push(ConfigError::out_of_range(
                "d",
                &format!(
                    "at least k = {} (U* is d×k with orthonormal columns)",
                    self.k
                ),
                self.d,
            ));
        }
        if self.d_grid.iter().any(|&d| d < self.k) {
            errors.push(ConfigError::out_of_range(
                "d_grid",
                &format!(
                    "dimensions of at least k = {} (U* is d×k with orthonormal columns)",
                    self.k
                ),
                format!("{:?}", self.d_grid.0),
            ));
        }
        if self.k > self.k_prime {
            errors.push(ConfigError::out_of_range(
                "k_prime",
                "at least k",
                self.k_prime,
            ));
        }
        if !failed.is_empty() || !errors.is_empty() {
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
