//! The settings of the FLUTE scenario (Liu, Shen & Yang, ICML 2024): one field
//! table, the presets of App. C.1, Fig. 4 and Example 1, the over-parameterized
//! check r = k, and the private comparison (this project's extension).

use crate::algorithms::flute::GradientScale;
use crate::data::under_parameterized::{Spectrum, UnderParameterizedModel};
use crate::privacy::Relation;
use crate::scenarios::config_common::{seed_section, CHARTS, CLIP, PROBLEM};
use crate::scenarios::field::rules::Interval;
use crate::scenarios::field::{
    choices, common, field, sections, target_rows, Field, OptionalList, PrivacyTarget,
};
use crate::scenarios::Preset;
use serde::{Deserialize, Serialize};

/// Longest sweep accepted (estimated, one core): the page and CLI refuse more.
pub const MAX_SECONDS: f64 = 3600.0;

/// γ₁/γ₂ ratios of the ablation (Fig. 4): γ₁ = 2γ₂, γ₁ = γ₂, γ₁ = (2/3)γ₂.
pub const ABLATION_RATIOS: [f64; 3] = [2.0, 1.0, 2.0 / 3.0];

choices!(Spectrum {
    Decaying => "Φ = UΛV, λᵢ = 2·min(d, M)/(i+1) (App. C.1)",
    Gaussian => "φᵢ ~ N(0, I_d) (§7.1)",
    Example1 => "φᵢ = λᵢuᵢ, one direction per client (Example 1)",
});

choices!(GradientScale {
    One => "c = 1 (the appendix's update, analysed)",
    Two => "c = 2 (the literal derivative)",
});

/// Every setting of the sweep (the paper's M, N are `n`, `m` here).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FluteConfig {
    /// M clients.
    pub n: usize,
    /// N samples per client.
    pub m: usize,
    pub d: usize,
    pub k: usize,
    /// r = rank Φ.
    pub rank: usize,
    pub spectrum: Spectrum,
    /// σ², the label noise's variance (App. C.1: 0.3).
    pub noise: f64,
    pub rounds: usize,
    /// η = η_l = η_r.
    pub eta: f64,
    /// α, the scale of the random start.
    pub alpha: f64,
    pub gamma1: f64,
    pub gamma2: f64,
    pub scale: GradientScale,
    /// The analysed FedRep's server step on U (a mean of the clients'
    /// gradients, then QR).
    pub fedrep_step: f64,
    /// τ_h: gradient steps on each head per round in FedRep's gradient form
    /// (FedRep's code: one local epoch; the FLUTE paper's FedRep*: 10).
    pub fedrep_head_steps: usize,
    /// Also run gradient FedRep(RI) with FLUTE's summed server step (this
    /// project's extension): it separates FLUTE's step from its regularizer.
    pub fedrep_summed: bool,
    /// Run the private methods (DP-FLUTE and Private FedRep).
    pub private: bool,
    /// Rounds of the private runs (the noise grows like √T, so they run fewer).
    pub private_rounds: usize,
    /// The privacy target: `epsilons`, or `risks` at `risk_fpr`.
    pub target: PrivacyTarget,
    pub delta: f64,
    pub relation: Relation,
    /// ψ of DP-FLUTE: each client's contribution (∇_B L_i, w_i w_iᵀ).
    pub clip: f64,
    /// ψ of Private FedRep's gradients.
    pub fedrep_clip: f64,
    /// ψ_init of Private FedRep's initialization (Alg. 2).
    pub init_clip: f64,
    /// Samples per client of the γ ablation (Fig. 4); none = off.
    pub ablation_m: OptionalList,
    pub seed: u64,
    pub seeds: usize,
}

/// The presets, in the page's order (the first is the scenario's default).
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "flute-c1",
        label: "App. C.1: d = 10, k = 2, 15 clients × 20 samples, r = 10 (with FedRep(RI) summed as FLUTE)",
    },
    Preset {
        name: "flute-gamma",
        label: "Fig. 4: the γ₁/γ₂ ablation (k = 6, 10 clients, N = 8–11)",
    },
    Preset {
        name: "flute-example1",
        label: "Example 1: k = 1, one direction per client",
    },
    Preset {
        name: "flute-overparam",
        label: "r = k: the over-parameterized case (all three agree)",
    },
    Preset {
        name: "flute-private",
        label: "DP-FLUTE vs Private FedRep, tuned (project's extension, 2000 clients)",
    },
];

impl Default for FluteConfig {
    fn default() -> Self {
        FluteConfig {
            n: 15,
            m: 20,
            d: 10,
            k: 2,
            rank: 10,
            spectrum: Spectrum::Decaying,
            noise: 0.3,
            rounds: 300,
            eta: 0.03,
            alpha: 0.01,
            gamma1: 0.25,
            gamma2: 0.125,
            scale: GradientScale::One,
            fedrep_step: 0.1,
            fedrep_head_steps: 1,
            fedrep_summed: false,
            private: false,
            private_rounds: 150,
            target: PrivacyTarget::epsilons(vec![0.5, 1.0, 2.0, 4.0, 8.0]),
            delta: 1e-5,
            relation: Relation::ReplaceOne,
            clip: 0.05,
            fedrep_clip: 1.0,
            init_clip: 10.0,
            ablation_m: OptionalList(Vec::new()),
            seed: 1,
            seeds: 1,
        }
    }
}

const FLUTE: &str = "FLUTE (Algorithm 1)";
const BASELINES: &str = "FedRep";
const PRIVACY: &str = "Privacy (project's extension)";

pub(super) fn field_table() -> Vec<Field<FluteConfig>> {
    type C = FluteConfig;
    let up_to_10 = Interval::open_closed(0.0, 10.0);
    sections([
        (
            PROBLEM,
            vec![
                field!(n).label("clients M").essential().range(2..=200_000),
                // FedRep's method-of-moments start (both forms) and Private FedRep's
        // initialization pair two samples of a client (the unbiased statistic).
        field!(m)
            .label("samples per client N")
            .range(2..=10_000)
            .note("FedRep's moments start pairs two samples of a client"),
                field!(d).label("dimension d").range(1..=200),
                field!(k)
            .label("representation k")
            .essential()
            .help("under-parameterized when k < r")
            .range(1..=20),
                field!(rank)
            .label("rank r of Φ")
            .help("App. C.1 spectrum; Gaussian Φ has rank min(d, M)"),
                field!(spectrum).label("true regressors φᵢ"),
                field!(noise)
            .label("noise variance σ²")
            .help("App. C.1: 0.3")
            .range(0.0..=100.0),
            ],
        ),
        (
            FLUTE,
            vec![
                field!(rounds).label("rounds T").range(1..=20_000),
                field!(eta)
            .label("step η = η_l = η_r")
            .range(up_to_10),
                field!(alpha)
            .label("init scale α")
            .help("B⁰, W⁰ have N(0, α²) entries")
            .range(up_to_10),
                field!(gamma1)
            .label("γ₁ (−γ₁‖BW‖²)")
            .help("at most 2γ₂")
            .range(0.0..=10.0),
                field!(gamma2)
            .label("γ₂ (‖BᵀB‖² + ‖WWᵀ‖²)")
            .range(up_to_10),
                field!(scale).label("gradient constant c"),
            ],
        ),
        (
            BASELINES,
            vec![
                field!(fedrep_step)
            .label("FedRep (alt. min. + QR) step")
            .help("the analysed form: exact heads, a server step on U (mean gradient), then QR")
            .range(Interval::open_closed(0.0, 100.0)),
                field!(fedrep_head_steps)
            .label("FedRep (gradient) head steps τ_h")
            .help("the code's form: τ_h gradient steps on each head, then one on B, at FLUTE's η and c; the paper's FedRep* takes 10")
            .range(1..=100),
                field!(fedrep_summed)
            .label("FedRep(RI), gradient steps, summed (project's extension)")
            .help("gradient FedRep(RI) whose server sums the clients' steps on B as FLUTE's does, instead of averaging them: FLUTE's step without its regularizer"),
            ],
        ),
        (
            PRIVACY,
            vec![
                field!(private)
            .label("private runs")
            .essential()
            .help("DP-FLUTE and Private FedRep at every ε"),
                field!(private_rounds)
            .label("rounds of the private runs")
            .help("each round is one noisy release: fewer rounds, less noise per round")
            .range(1..=20_000),
            ],
        ),
        (
            PRIVACY,
            target_rows!(delta)
                .epsilons(|f| f.at_least(0.01))
                .delta(|f| f.at_most(0.1))
                .rows(),
        ),
        (
            PRIVACY,
            vec![
                field!(relation via common::relation),
                field!(clip)
            .label("DP-FLUTE clip ψ")
            .help("Frobenius norm of each client's (∇_B Lᵢ, wᵢwᵢᵀ); with App. C.1's Φ a client's share shrinks like 1/M: scale ψ with it")
            .range(CLIP),
                field!(fedrep_clip)
            .label("Private FedRep clip ψ")
            .range(CLIP),
                field!(init_clip)
            .label("Private FedRep init clip")
            .range(CLIP),
            ],
        ),
        (
            CHARTS,
            vec![
                field!(ablation_m)
            .label("γ ablation: N values")
            .help("final FLUTE error for γ₁/γ₂ = 2, 1, 2/3 (Fig. 4); “none” = off")
            .range(1..=10_000)
            .item("sample count"),
            ],
        ),
        seed_section!(),
    ])
}

/// The share of Private FedRep's μ² spent on its initialization (as the
/// Private FedRep scenario's default).
pub const INIT_SHARE: f64 = 0.1;

impl FluteConfig {
    /// The data model of seed `seed` with N samples per client.
    pub fn model(&self, seed: u64, samples: usize) -> UnderParameterizedModel {
        UnderParameterizedModel {
            clients: self.n,
            samples,
            d: self.d,
            k: self.k,
            rank: self.rank,
            spectrum: self.spectrum,
            noise: self.noise.sqrt(),
            seed,
        }
    }

    /// r = rank Φ as drawn: the setting for App. C.1, min(d, M) otherwise.
    pub fn effective_rank(&self) -> usize {
        match self.spectrum {
            Spectrum::Decaying => self.rank.min(self.d).min(self.n),
            Spectrum::Gaussian | Spectrum::Example1 => self.d.min(self.n),
        }
    }

    /// The ε points the private methods run at (none when they are off).
    pub fn private_epsilons(&self) -> &[f64] {
        if self.private {
            &self.target.epsilons
        } else {
            &[]
        }
    }

    /// Round-equivalents of work per seed, each costing M·N·d·(k + 2) (the
    /// cost model of [`estimated_seconds`](Self::estimated_seconds)).
    pub fn rounds_per_seed(&self) -> f64 {
        // FLUTE, the two analysed FedReps and the two (or three, with the
        // summed one) gradient ones (with their head steps).
        let gradient = if self.fedrep_summed { 3.0 } else { 2.0 };
        let main = (3.0 + gradient * self.fedrep_gd_round()) * self.rounds as f64
            + (2 * self.private_epsilons().len()) as f64 * self.private_rounds as f64;
        let ablation: f64 = self
            .ablation_m
            .iter()
            .map(|&n| ABLATION_RATIOS.len() as f64 * self.rounds as f64 * n as f64 / self.m as f64)
            .sum();
        main + ablation
    }

    /// A round of gradient FedRep in round-equivalents: one, plus its head
    /// steps, each N·k per client against a round's N·d·(k + 2).
    pub fn fedrep_gd_round(&self) -> f64 {
        1.0 + self.fedrep_head_steps as f64 * self.k as f64
            / (self.d as f64 * (self.k as f64 + 2.0))
    }

    /// Seconds on one core, from the round count and the floor's solve
    /// (measured: about 0.7 ns per M·N·d·(k + 2), metrics included).
    pub fn estimated_seconds(&self) -> f64 {
        let (m, n, d, k) = (self.n as f64, self.m as f64, self.d as f64, self.k as f64);
        let round = m * n * d * (k + 2.0);
        let als = 30.0 * (m * (n * d * d + k * k * d * d) + (d * k).powi(3) / 3.0);
        self.seeds as f64 * (self.rounds_per_seed() * round * 0.7e-9 + als * 1.5e-9)
    }
}
