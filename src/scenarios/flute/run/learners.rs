//! Each method of the Method::Flute sweep as a learner of one seed's data: its start (a [`Task`] becomes
//! an [`Active`] run: Method::Flute, FedRep in both forms from either start, the private pair, the
//! γ ablation), its round, the measures recorded as it goes, and the error naming the setting
//! when it diverges.

use super::super::config::FluteConfig;
use super::super::plan::FlutePlan;
use super::metrics::{balancedness, mean_regressor_error, product_singular_values};
use crate::algorithms::fedrep::{BatchMode, FedRep, FedRepParams};
use crate::algorithms::fedrep_gd::{Aggregation, FedRepGd, FedRepGdParams};
use crate::algorithms::flute::{Flute, FluteParams};
use crate::algorithms::low_rank_erm::{alternating_least_squares, least_squares_heads};
use crate::algorithms::private_init::{spectral_init, spectral_statistic, PairNormalization};
use crate::data::under_parameterized::UnderParameterizedData;
use crate::linalg::{all_finite, gaussian_matrix};
use crate::metrics::principal_angle_distance;
use crate::privacy::PrivacyReport;
use crate::rng::{combine, stream, NoiseSource, Purpose};
use crate::scenarios::RunError;
use nalgebra::DMatrix;
use serde::{Deserialize, Serialize};

use super::Method;

/// What a model says at one round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    pub round: usize,
    /// (1/M) Σ ‖B wᵢ − φᵢ‖ (§7.1, Fig. 1/3/4).
    pub error: f64,
    /// sin of the largest principal angle between span(B) and U_k.
    pub principal_angle: f64,
    /// ‖BᵀB − WWᵀ‖_F (NaN for the analysed FedRep, whose U is orthonormal by
    /// construction and whose heads are refitted).
    pub balancedness: f64,
    /// σ₁(BW) ≥ … ≥ σ_k(BW).
    pub singular_values: Vec<f64>,
}

/// A dataset with its floors.
pub(super) struct Problem {
    pub(super) data: UnderParameterizedData,
    pub(super) erm_floor: f64,
    pub(super) population_floor: f64,
}

impl Problem {
    pub(super) fn new(c: &FluteConfig, seed: u64, samples: usize) -> Self {
        let data = c.model(seed, samples).generate();
        let population_floor =
            mean_regressor_error(&DMatrix::identity(c.d, c.d), &data.phi_k, &data.phi);
        // ERM from the truth's balanced factorization B = U_k Λ_k^{1/2}.
        let mut b0 = data.u_k.clone();
        for (j, s) in data.singular_values.iter().take(b0.ncols()).enumerate() {
            b0.column_mut(j).scale_mut(s.sqrt());
        }
        let (b, w) = alternating_least_squares(&data.points, b0, 30, 1e-10);
        let erm_floor = mean_regressor_error(&b, &w, &data.phi);
        Problem {
            data,
            erm_floor,
            population_floor,
        }
    }
}

pub(super) enum Learner {
    Flute(Flute),
    FedRep(FedRep),
    FedRepGd(FedRepGd),
}

impl Learner {
    pub(super) fn round(&self) -> usize {
        match self {
            Learner::Flute(f) => f.round(),
            Learner::FedRep(f) => f.round(),
            Learner::FedRepGd(f) => f.round(),
        }
    }

    pub(super) fn is_done(&self) -> bool {
        match self {
            Learner::Flute(f) => f.is_done(),
            Learner::FedRep(f) => f.is_done(),
            Learner::FedRepGd(f) => f.is_done(),
        }
    }

    /// One round; the new round number.
    pub(super) fn step(&mut self, data: &UnderParameterizedData) -> usize {
        match self {
            Learner::Flute(f) => f.step(&data.points),
            Learner::FedRep(f) => f.step(&data.points),
            Learner::FedRepGd(f) => f.step(&data.points),
        }
        self.round()
    }

    /// The paper's error after the last round, cheaply (a d×k×M product), or
    /// NaN once the iterates are not finite. The analysed FedRep's U is
    /// orthonormal (QR), so only its finiteness is checked here; its error
    /// needs every head refitted and is measured on the recorded rounds.
    pub(super) fn quick_error(&self, data: &UnderParameterizedData) -> f64 {
        match self {
            Learner::Flute(f) => mean_regressor_error(f.b(), f.w(), &data.phi),
            Learner::FedRepGd(f) => mean_regressor_error(f.b(), f.w(), &data.phi),
            Learner::FedRep(f) => {
                if all_finite(f.u()) {
                    0.0
                } else {
                    f64::NAN
                }
            }
        }
    }
}

/// A run in progress.
pub(super) struct Active {
    pub(super) method: Method,
    pub(super) epsilon: f64,
    pub(super) ratio: f64,
    /// Its own dataset (the ablation's N), or the seed's.
    pub(super) problem: Option<Problem>,
    pub(super) learner: Learner,
    pub(super) rounds: usize,
    pub(super) curve: Vec<CurvePoint>,
    pub(super) report: Option<PrivacyReport>,
    pub(super) sigma: f64,
}

/// What remains to run for a seed.
#[derive(Clone, Copy, Debug)]
pub(super) enum Task {
    Flute,
    FedRep,
    FedRepRandom,
    FedRepGd,
    FedRepGdRandom,
    FedRepGdSumRandom,
    DpFlute(usize),
    PrivateFedRep(usize),
    Ablation { samples: usize, ratio: f64 },
}

/// The error of a run that stopped being finite at `round`, naming the
/// setting to change. Only the step can make Method::Flute or gradient FedRep
/// diverge; the analysed FedRep's U is re-orthonormalized every round, so its
/// step is what can overflow it; a private run diverges from its noise (the
/// non-private runs of the same seed, with the same step, ran first and did not).
pub(super) fn divergence(method: Method, private: bool, round: usize) -> RunError {
    let (field, advice) = if private {
        (
            if method == Method::DpFlute {
                "clip"
            } else {
                "fedrep_clip"
            },
            "the noise (σ·ψ per entry) is too large for the step: lower the clip ψ or raise ε",
        )
    } else if method == Method::Fedrep || method == Method::FedrepRi {
        ("fedrep_step", "lower FedRep's step")
    } else if matches!(
        method,
        Method::FedrepGd | Method::FedrepGdRi | Method::FedrepGdSumRi
    ) {
        (
            "eta",
            "lower the step η (FedRep's gradient form uses Method::Flute's η)",
        )
    } else {
        ("eta", "lower the step η (or γ₁, or raise γ₂)")
    };
    RunError::Diverged {
        method: method.name().into(),
        what: format!("its iterates are not finite at round {round}"),
        field: field.into(),
        advice: advice.into(),
    }
}

/// The round's metrics of a learner: Method::Flute's and gradient FedRep's own
/// (B, W); the analysed FedRep's U with every client's least-squares head on
/// its N samples (its head step).
pub(super) fn measure(learner: &Learner, problem: &Problem, round: usize) -> CurvePoint {
    let data = &problem.data;
    let (b, w, balance) = match learner {
        Learner::Flute(f) => (f.b().clone(), f.w().clone(), balancedness(f.b(), f.w())),
        Learner::FedRepGd(f) => (f.b().clone(), f.w().clone(), balancedness(f.b(), f.w())),
        Learner::FedRep(f) => {
            let u = f.u().clone();
            let heads = if u.iter().all(|x| x.is_finite()) {
                least_squares_heads(&data.points, &u)
            } else {
                DMatrix::from_element(u.ncols(), data.phi.ncols(), f64::NAN)
            };
            (u, heads, f64::NAN)
        }
    };
    CurvePoint {
        round,
        error: mean_regressor_error(&b, &w, &data.phi),
        principal_angle: principal_angle_distance(&b, &data.u_k),
        balancedness: balance,
        singular_values: product_singular_values(&b, &w),
    }
}

/// The rounds of a run: the private ones run `private_rounds`.
fn rounds_of(c: &FluteConfig, clip: Option<f64>) -> usize {
    if clip.is_some() {
        c.private_rounds
    } else {
        c.rounds
    }
}

pub(in crate::scenarios::registry::flute) fn flute_params(
    c: &FluteConfig,
    gamma1: f64,
    clip: Option<f64>,
    sigma: f64,
) -> FluteParams {
    FluteParams {
        rounds: rounds_of(c, clip),
        eta_local: c.eta,
        eta_reg: c.eta,
        gamma1,
        gamma2: c.gamma2,
        scale: c.scale,
        clip,
        sigma,
    }
}

fn fedrep_gd_params(c: &FluteConfig, aggregation: Aggregation) -> FedRepGdParams {
    FedRepGdParams {
        rounds: c.rounds,
        eta: c.eta,
        head_steps: c.fedrep_head_steps,
        scale: c.scale,
        aggregation,
    }
}

fn fedrep_params(c: &FluteConfig, clip: Option<f64>, sigma: f64, batch: BatchMode) -> FedRepParams {
    FedRepParams {
        rounds: rounds_of(c, clip),
        step: c.fedrep_step,
        clip,
        sigma,
        batch,
    }
}

/// FedRep's method-of-moments start (both forms): the top-k eigenvectors of
/// the unbiased pair statistic, whose mean is (1/M) Σ φᵢφᵢᵀ.
fn moments_start(
    points: &crate::data::shared_representation::FederatedDataset,
    k: usize,
    seed: u64,
) -> DMatrix<f64> {
    let stat = spectral_statistic(points, None, PairNormalization::Unbiased);
    spectral_init(&stat, 0.0, k, &mut stream(seed, Purpose::Initialization, 2))
}

impl Active {
    /// A run without privacy (no ε, report or σ) on the seed's data.
    fn public(c: &FluteConfig, method: Method, ratio: f64, learner: Learner) -> Self {
        Active {
            method,
            epsilon: f64::NAN,
            ratio,
            problem: None,
            learner,
            rounds: c.rounds,
            curve: Vec::new(),
            report: None,
            sigma: f64::NAN,
        }
    }

    /// A private run at ε with the plan's report and σ, on the seed's data.
    fn private(
        c: &FluteConfig,
        method: Method,
        epsilon: f64,
        ratio: f64,
        learner: Learner,
        report: &PrivacyReport,
        sigma: f64,
    ) -> Self {
        Active {
            epsilon,
            report: Some(report.clone()),
            sigma,
            rounds: c.private_rounds,
            ..Active::public(c, method, ratio, learner)
        }
    }
}

/// Starts `task` of seed `seed` on its data `problem` (or, for the ablation, on its
/// own), the private ones with their ε's `plans`; round 0 is recorded.
pub(super) fn start(
    c: &FluteConfig,
    seed: u64,
    problem: &Problem,
    plans: &[FlutePlan],
    task: Task,
) -> Active {
    let points = &problem.data.points;
    let (d, k) = (c.d, c.k);
    let init = |key: u64| stream(seed, Purpose::Initialization, key);
    let ratio = c.gamma1 / c.gamma2;
    let fedrep = |u0| {
        Learner::FedRep(FedRep::new(
            points,
            u0,
            fedrep_params(c, None, 0.0, BatchMode::Full),
            0,
        ))
    };
    let mut a = match task {
        Task::Flute => Active::public(
            c,
            Method::Flute,
            ratio,
            Learner::Flute(Flute::new(
                points,
                c.alpha,
                flute_params(c, c.gamma1, None, 0.0),
                &mut init(1),
                0,
            )),
        ),
        // Method of moments: top-k eigenvectors of the unbiased pair statistic
        // (E = (1/M) Σ φᵢφᵢᵀ), then QR; every round all N samples.
        Task::FedRep => Active::public(
            c,
            Method::Fedrep,
            f64::NAN,
            fedrep(moments_start(points, k, seed)),
        ),
        Task::FedRepRandom => {
            let u0 = gaussian_matrix(d, k, &mut init(1)) * c.alpha;
            Active::public(c, Method::FedrepRi, f64::NAN, fedrep(u0))
        }
        Task::FedRepGd => Active::public(
            c,
            Method::FedrepGd,
            f64::NAN,
            Learner::FedRepGd(FedRepGd::new(
                moments_start(points, k, seed),
                DMatrix::zeros(k, c.n),
                fedrep_gd_params(c, Aggregation::Mean),
            )),
        ),
        Task::FedRepGdRandom | Task::FedRepGdSumRandom => {
            // Method::Flute's exact start: B⁰ then W⁰ from the same stream as `Flute::new`.
            let mut rng = init(1);
            let b0 = gaussian_matrix(d, k, &mut rng) * c.alpha;
            let w0 = gaussian_matrix(k, c.n, &mut rng) * c.alpha;
            let (method, aggregation) = match task {
                Task::FedRepGdSumRandom => (Method::FedrepGdSumRi, Aggregation::Sum),
                _ => (Method::FedrepGdRi, Aggregation::Mean),
            };
            let learner =
                Learner::FedRepGd(FedRepGd::new(b0, w0, fedrep_gd_params(c, aggregation)));
            Active::public(c, method, f64::NAN, learner)
        }
        Task::DpFlute(e) => dp_flute(c, seed, problem, &plans[e], e),
        Task::PrivateFedRep(e) => private_fedrep(c, seed, problem, &plans[e], e),
        Task::Ablation { samples, ratio } => {
            let problem = Problem::new(c, seed, samples);
            let learner = Learner::Flute(Flute::new(
                &problem.data.points,
                c.alpha,
                flute_params(c, ratio * c.gamma2, None, 0.0),
                &mut init(1),
                0,
            ));
            Active {
                problem: Some(problem),
                ..Active::public(c, Method::FluteAblation, ratio, learner)
            }
        }
    };
    let problem = a.problem.as_ref().unwrap_or(problem);
    a.curve.push(measure(&a.learner, problem, 0));
    a
}

/// DP-Method::Flute (this project's extension) at the plan's ε, the `e`-th.
fn dp_flute(c: &FluteConfig, seed: u64, problem: &Problem, p: &FlutePlan, e: usize) -> Active {
    Active::private(
        c,
        Method::DpFlute,
        c.target.epsilons[e],
        c.gamma1 / c.gamma2,
        Learner::Flute(Flute::new(
            &problem.data.points,
            c.alpha,
            flute_params(c, c.gamma1, Some(c.clip), p.flute_sigma),
            &mut stream(seed, Purpose::Initialization, 1),
            NoiseSource::new(combine(seed, combine(1, e as u64))),
        )),
        &p.flute_report,
        p.flute_sigma,
    )
}

/// Private FedRep at the plan's ε, the `e`-th, from the private spectral start.
fn private_fedrep(
    c: &FluteConfig,
    seed: u64,
    problem: &Problem,
    p: &FlutePlan,
    e: usize,
) -> Active {
    let points = &problem.data.points;
    let stat = spectral_statistic(points, Some(c.init_clip), PairNormalization::Unbiased);
    let source = NoiseSource::new(combine(seed, combine(2, e as u64)));
    let u0 = spectral_init(&stat, p.init_sigma, c.k, &mut source.release(u64::MAX));
    Active::private(
        c,
        Method::PrivateFedrep,
        c.target.epsilons[e],
        f64::NAN,
        Learner::FedRep(FedRep::new(
            points,
            u0,
            fedrep_params(c, Some(c.fedrep_clip), p.fedrep_sigma, BatchMode::Split),
            source,
        )),
        &p.fedrep_report,
        p.fedrep_sigma,
    )
}
