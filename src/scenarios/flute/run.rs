//! The FLUTE sweep as a step-wise runner. For every seed: one dataset
//! (App. C.1 / §7.1 / Example 1), its ERM floor and the error of its rank-k
//! truncation, then FLUTE; FedRep in two forms, each from the
//! method-of-moments start and from FLUTE's random start (RI): alternating
//! minimization + QR (Collins et al.'s analysed form) and gradient steps as
//! FedRep's code runs them; the private pair at every ε (DP-FLUTE, this
//! project's extension, and Private FedRep), and the γ ablation of Fig. 4 on
//! datasets with N = 8, 9, … samples. A step advances one run by a bounded
//! number of rounds, so the page can show progress and stop between steps;
//! every run checks its error every round (a diverged run is an error naming
//! the setting) and records the paper's error, the principal angle, σ(BW) and
//! the balancedness as it goes.

use super::config::{FluteConfig, ABLATION_RATIOS};
use super::plan::{plan, FlutePlan};
use crate::algorithms::fedrep::{BatchMode, FedRep, FedRepParams};
use crate::algorithms::fedrep_gd::{FedRepGd, FedRepGdParams};
use crate::algorithms::flute::{Flute, FluteParams};
use crate::algorithms::low_rank_erm::{alternating_least_squares, least_squares_heads};
use crate::algorithms::private_init::{spectral_init, spectral_statistic, PairNormalization};
use crate::data::under_parameterized::UnderParameterizedData;
use crate::linalg::{all_finite, gaussian_matrix, symmetric_eigen};
use crate::metrics::principal_angle_distance;
use crate::privacy::PrivacyReport;
use crate::rng::{combine, stream, NoiseSource, Purpose};
use crate::scenarios::adapter::Sweep;
use crate::scenarios::table::csv_number as num;
use crate::scenarios::{Checked, RunError};
use nalgebra::DMatrix;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Work (M·N·d·(k + 2) units) one step may do: about 0.05 s.
const WORK_PER_STEP: f64 = 3e7;
/// Most points a curve keeps (every ⌈T/400⌉-th round is recorded).
const CURVE_POINTS: usize = 400;

/// The methods, as `results.csv` names them.
pub const FLUTE: &str = "flute";
/// FedRep, alternating minimization + QR (Collins et al.'s analysed form),
/// from the method-of-moments start.
pub const FEDREP: &str = "fedrep";
/// The same from FLUTE's random B⁰.
pub const FEDREP_RI: &str = "fedrep-ri";
/// FedRep as its code runs it (gradient steps on the head, then on B, the
/// mean of the clients' B, no QR), from the method-of-moments start, zero heads.
pub const FEDREP_GD: &str = "fedrep-gd";
/// The same from FLUTE's exact (B⁰, W⁰).
pub const FEDREP_GD_RI: &str = "fedrep-gd-ri";
pub const DP_FLUTE: &str = "dp-flute";
pub const PRIVATE_FEDREP: &str = "private-fedrep";
/// FLUTE in the γ ablation (γ₁ = ratio·γ₂, N samples).
pub const FLUTE_ABLATION: &str = "flute-ablation";

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

/// One run's curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Curve {
    pub method: String,
    /// Target ε (NaN: not private).
    pub epsilon: f64,
    pub seed: u64,
    pub points: Vec<CurvePoint>,
    /// σ(Φ) of the run's dataset, largest first (the levels σ(BW) approaches).
    pub phi_singular_values: Vec<f64>,
}

/// One result row (the end of one run). Non-applicable numbers are NaN.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FluteRow {
    pub method: String,
    /// Target ε (NaN: not private; written `inf`).
    pub epsilon: f64,
    pub seed: u64,
    /// N, samples per client.
    pub m: usize,
    /// γ₁/γ₂ (the ablation's; the config's otherwise; NaN for FedRep).
    pub gamma_ratio: f64,
    pub error: f64,
    /// The error of the finite-N ERM optimum (eq. 2), by alternating least squares.
    pub erm_floor: f64,
    /// (1/M) Σ ‖(Φ − Φ_k) eᵢ‖: the paper's error of the rank-k truncation Φ_k
    /// (the best rank-k model in Frobenius norm, Eckart–Young). It is not a
    /// lower bound on this mean of norms: another rank-k model can have a
    /// smaller one. (The column keeps its name `population_floor`.)
    pub population_floor: f64,
    pub principal_angle: f64,
    pub balancedness: f64,
    /// ∞ for a non-private run.
    pub epsilon_spent: f64,
    /// σ of the rounds' noise (NaN: none).
    pub sigma: f64,
    /// Fraction of clients clipped in the last round (NaN: no clipping).
    pub clipped_fraction: f64,
    /// Client contributions left out of the clipped sums because they were
    /// not finite, over all rounds (NaN: no clipping).
    pub skipped_nonfinite: f64,
    /// First recorded round whose error is within 10% of the ERM floor, or
    /// within 1% of the starting error of it when the floor is 0 (NaN: never).
    pub rounds_to_floor: f64,
}

pub const CSV_HEADER: &str = "method,epsilon,seed,m,gamma_ratio,error,erm_floor,population_floor,principal_angle,balancedness,epsilon_spent,sigma,clipped_fraction,rounds_to_floor,skipped_nonfinite";

fn eps_cell(x: f64) -> String {
    if x.is_nan() {
        "inf".into()
    } else {
        num(x)
    }
}

pub fn csv(rows: &[FluteRow]) -> String {
    let mut out = crate::scenarios::csv_out::CsvFile::with_header(CSV_HEADER);
    for r in rows {
        let cells = [
            r.method.clone(),
            eps_cell(r.epsilon),
            r.seed.to_string(),
            r.m.to_string(),
            num(r.gamma_ratio),
            num(r.error),
            num(r.erm_floor),
            num(r.population_floor),
            num(r.principal_angle),
            num(r.balancedness),
            num(r.epsilon_spent),
            num(r.sigma),
            num(r.clipped_fraction),
            num(r.rounds_to_floor),
            num(r.skipped_nonfinite),
        ];
        out.row(cells);
    }
    out.finish()
}

/// `curves.csv`: one line per recorded round of every run.
pub fn curves_csv(curves: &[Curve], k: usize) -> String {
    let svs: Vec<String> = (1..=k).map(|j| format!("sv{j}")).collect();
    let mut out = crate::scenarios::csv_out::CsvFile::new(
        [
            "method",
            "epsilon",
            "seed",
            "round",
            "error",
            "principal_angle",
            "balancedness",
        ]
        .into_iter()
        .chain(svs.iter().map(String::as_str)),
    );
    for c in curves {
        for p in &c.points {
            let mut cells = vec![
                c.method.clone(),
                eps_cell(c.epsilon),
                c.seed.to_string(),
                p.round.to_string(),
                num(p.error),
                num(p.principal_angle),
                num(p.balancedness),
            ];
            cells
                .extend((0..k).map(|j| num(p.singular_values.get(j).copied().unwrap_or(f64::NAN))));
            out.row(cells);
        }
    }
    out.finish()
}

/// (1/M) Σᵢ ‖B wᵢ − φᵢ‖ (the paper's error).
pub fn mean_regressor_error(b: &DMatrix<f64>, w: &DMatrix<f64>, phi: &DMatrix<f64>) -> f64 {
    let m = phi.ncols();
    let residual = b * w - phi;
    residual.column_iter().map(|c| c.norm()).sum::<f64>() / m.max(1) as f64
}

/// σ(BW), largest first: the singular values of R W with B = QR (k×k work).
/// NaN when any number on the way is not finite (no eigendecomposition of it).
pub fn product_singular_values(b: &DMatrix<f64>, w: &DMatrix<f64>) -> Vec<f64> {
    let k = b.ncols();
    if !all_finite(b) || !all_finite(w) {
        return vec![f64::NAN; k];
    }
    let r = b.clone().qr().r();
    let rw = r * w;
    let gram = &rw * rw.transpose();
    let Some(eigen) = symmetric_eigen(gram) else {
        return vec![f64::NAN; k];
    };
    let mut values: Vec<f64> = eigen
        .eigenvalues
        .iter()
        .map(|e| e.max(0.0).sqrt())
        .collect();
    values.sort_by(|a, b| b.total_cmp(a));
    values
}

/// ‖BᵀB − WWᵀ‖_F.
pub fn balancedness(b: &DMatrix<f64>, w: &DMatrix<f64>) -> f64 {
    (b.transpose() * b - w * w.transpose()).norm()
}

/// A dataset with its floors.
struct Problem {
    data: UnderParameterizedData,
    erm_floor: f64,
    population_floor: f64,
}

impl Problem {
    fn new(c: &FluteConfig, seed: u64, samples: usize) -> Self {
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

enum Learner {
    Flute(Flute),
    FedRep(FedRep),
    FedRepGd(FedRepGd),
}

impl Learner {
    fn round(&self) -> usize {
        match self {
            Learner::Flute(f) => f.round(),
            Learner::FedRep(f) => f.round(),
            Learner::FedRepGd(f) => f.round(),
        }
    }

    fn is_done(&self) -> bool {
        match self {
            Learner::Flute(f) => f.is_done(),
            Learner::FedRep(f) => f.is_done(),
            Learner::FedRepGd(f) => f.is_done(),
        }
    }

    /// One round; the new round number.
    fn step(&mut self, data: &UnderParameterizedData) -> usize {
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
    fn quick_error(&self, data: &UnderParameterizedData) -> f64 {
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
struct Active {
    method: &'static str,
    epsilon: f64,
    ratio: f64,
    /// Its own dataset (the ablation's N), or the seed's.
    problem: Option<Problem>,
    learner: Learner,
    rounds: usize,
    curve: Vec<CurvePoint>,
    report: Option<PrivacyReport>,
    sigma: f64,
}

/// What remains to run for a seed.
#[derive(Clone, Copy, Debug)]
enum Task {
    Flute,
    FedRep,
    FedRepRandom,
    FedRepGd,
    FedRepGdRandom,
    DpFlute(usize),
    PrivateFedRep(usize),
    Ablation { samples: usize, ratio: f64 },
}

struct SeedState {
    seed: u64,
    problem: Problem,
    tasks: VecDeque<Task>,
    active: Option<Active>,
    plans: Vec<FlutePlan>,
}

/// A whole sweep.
pub struct FluteSweep {
    config: FluteConfig,
    next_seed: usize,
    state: Option<SeedState>,
    rows: Vec<FluteRow>,
    reports: Vec<Option<PrivacyReport>>,
    curves: Vec<Curve>,
    /// Work units done and in all (for progress).
    done_units: f64,
    total_units: f64,
}

impl FluteSweep {
    pub fn new(config: Checked<FluteConfig>) -> Self {
        let config = config.into_inner();
        let total_units = config.seeds as f64 * (config.rounds_per_seed() + 1.0);
        FluteSweep {
            config,
            next_seed: 0,
            state: None,
            rows: Vec::new(),
            reports: Vec::new(),
            curves: Vec::new(),
            done_units: 0.0,
            total_units,
        }
    }

    pub fn rows(&self) -> &[FluteRow] {
        &self.rows
    }
    pub fn reports(&self) -> &[Option<PrivacyReport>] {
        &self.reports
    }
    pub fn curves(&self) -> &[Curve] {
        &self.curves
    }
}

impl Sweep for FluteSweep {
    fn is_done(&self) -> bool {
        self.next_seed >= self.config.seeds && self.state.is_none()
    }

    /// Progress in round-equivalents (the scale of the cost model).
    fn progress(&self) -> (usize, usize) {
        let total = self.total_units.ceil() as usize;
        if self.is_done() {
            (total, total)
        } else {
            ((self.done_units.floor() as usize).min(total), total)
        }
    }

    fn phase(&self) -> String {
        match &self.state {
            None if self.is_done() => "done".into(),
            None => "drawing the data and its ERM floor".into(),
            Some(s) => match &s.active {
                Some(a) => {
                    let round = a.learner.round();
                    let eps = if a.epsilon.is_nan() {
                        String::new()
                    } else {
                        format!(" at ε = {}", a.epsilon)
                    };
                    format!(
                        "seed {}: {}{eps}, round {round} of {}",
                        s.seed, a.method, a.rounds
                    )
                }
                None => format!("seed {}: starting the next run", s.seed),
            },
        }
    }

    fn step(&mut self) -> Result<bool, RunError> {
        FluteSweep::step(self)
    }

    type Config = FluteConfig;
    fn config(&self) -> &FluteConfig {
        &self.config
    }
}

impl FluteSweep {
    fn tasks(&self) -> VecDeque<Task> {
        let c = &self.config;
        let mut tasks: VecDeque<Task> = [
            Task::Flute,
            Task::FedRep,
            Task::FedRepRandom,
            Task::FedRepGd,
            Task::FedRepGdRandom,
        ]
        .into();
        for e in 0..c.private_epsilons().len() {
            tasks.push_back(Task::DpFlute(e));
            tasks.push_back(Task::PrivateFedRep(e));
        }
        for &samples in c.ablation_m.iter() {
            for ratio in ABLATION_RATIOS {
                tasks.push_back(Task::Ablation { samples, ratio });
            }
        }
        tasks
    }

    /// One bounded piece of work; Ok(true) once everything is done.
    pub fn step(&mut self) -> Result<bool, RunError> {
        if self.is_done() {
            return Ok(true);
        }
        let Some(state) = self.state.as_mut() else {
            let seed = self.config.seed.wrapping_add(self.next_seed as u64);
            self.next_seed += 1;
            let problem = Problem::new(&self.config, seed, self.config.m);
            let plans = self
                .config
                .private_epsilons()
                .iter()
                .map(|&e| plan(&self.config, e))
                .collect::<Result<Vec<_>, _>>()?;
            self.state = Some(SeedState {
                seed,
                problem,
                tasks: self.tasks(),
                active: None,
                plans,
            });
            self.done_units += 1.0;
            return Ok(false);
        };
        if state.active.is_none() {
            match state.tasks.pop_front() {
                Some(task) => state.active = Some(start(&self.config, state, task)),
                None => {
                    self.state = None;
                    return Ok(self.is_done());
                }
            }
        }
        let c = &self.config;
        let seed = state.seed;
        let active = state.active.as_mut().expect("started above");
        let problem = active.problem.as_ref().unwrap_or(&state.problem);
        let samples = problem.data.points.model.m;
        // Work of one round (a gradient FedRep round counts its head steps too).
        let weight = match active.learner {
            Learner::FedRepGd(_) => c.fedrep_gd_round(),
            _ => 1.0,
        };
        let unit = weight * (c.n * samples * c.d * (c.k + 2)) as f64;
        let chunk = ((WORK_PER_STEP / unit.max(1.0)) as usize).max(1);
        let stride = active.rounds.div_ceil(CURVE_POINTS).max(1);
        for _ in 0..chunk {
            if active.learner.is_done() {
                break;
            }
            let round = active.learner.step(&problem.data);
            // Every round: the iterates are checked before anything factorizes
            // them, so a diverging run stops here, at the round it diverged.
            let quick = active.learner.quick_error(&problem.data);
            let point = (round % stride == 0 || round == active.rounds)
                .then(|| measure(&active.learner, problem, round));
            let error = point.as_ref().map_or(quick, |p| p.error);
            if !quick.is_finite() || !error.is_finite() {
                return Err(divergence(active.method, active.report.is_some(), round));
            }
            if let Some(point) = point {
                active.curve.push(point);
            }
            self.done_units += unit / (c.n * c.m * c.d * (c.k + 2)) as f64;
        }
        if active.learner.is_done() {
            let active = state.active.take().expect("active");
            let problem = active.problem.as_ref().unwrap_or(&state.problem);
            let last = active.curve.last().cloned().expect("round 0 is recorded");
            let floor = problem.erm_floor;
            let start_error = active.curve.first().map_or(0.0, |p| p.error);
            let near = (0.1 * floor).max(0.01 * start_error);
            let rounds_to_floor = active
                .curve
                .iter()
                .find(|p| p.error <= floor + near)
                .map_or(f64::NAN, |p| p.round as f64);
            let (clipped_fraction, skipped_nonfinite) =
                match (&active.learner, active.report.is_some()) {
                    (Learner::Flute(f), true) => (f.clipped_fraction(), f.skipped() as f64),
                    (Learner::FedRep(f), true) => (f.clipped_fraction(), f.skipped() as f64),
                    _ => (f64::NAN, f64::NAN),
                };
            self.rows.push(FluteRow {
                method: active.method.into(),
                epsilon: active.epsilon,
                seed,
                m: problem.data.points.model.m,
                gamma_ratio: active.ratio,
                error: last.error,
                erm_floor: floor,
                population_floor: problem.population_floor,
                principal_angle: last.principal_angle,
                balancedness: last.balancedness,
                epsilon_spent: active
                    .report
                    .as_ref()
                    .map_or(f64::INFINITY, |r| r.epsilon_exact),
                sigma: active.sigma,
                clipped_fraction,
                rounds_to_floor,
                skipped_nonfinite,
            });
            self.reports.push(active.report);
            if active.method != FLUTE_ABLATION {
                self.curves.push(Curve {
                    method: active.method.into(),
                    epsilon: active.epsilon,
                    seed,
                    points: active.curve,
                    phi_singular_values: problem.data.singular_values.clone(),
                });
            }
        }
        Ok(false)
    }
}

/// The error of a run that stopped being finite at `round`, naming the
/// setting to change. Only the step can make FLUTE or gradient FedRep
/// diverge; the analysed FedRep's U is re-orthonormalized every round, so its
/// step is what can overflow it; a private run diverges from its noise (the
/// non-private runs of the same seed, with the same step, ran first and did not).
fn divergence(method: &str, private: bool, round: usize) -> RunError {
    let (field, advice) = if private {
        (
            if method == DP_FLUTE {
                "clip"
            } else {
                "fedrep_clip"
            },
            "the noise (σ·ψ per entry) is too large for the step: lower the clip ψ or raise ε",
        )
    } else if method == FEDREP || method == FEDREP_RI {
        ("fedrep_step", "lower FedRep's step")
    } else if method == FEDREP_GD || method == FEDREP_GD_RI {
        (
            "eta",
            "lower the step η (FedRep's gradient form uses FLUTE's η)",
        )
    } else {
        ("eta", "lower the step η (or γ₁, or raise γ₂)")
    };
    RunError::Diverged {
        method: method.into(),
        what: format!("its iterates are not finite at round {round}"),
        field: field.into(),
        advice: advice.into(),
    }
}

/// The round's metrics of a learner: FLUTE's and gradient FedRep's own
/// (B, W); the analysed FedRep's U with every client's least-squares head on
/// its N samples (its head step).
fn measure(learner: &Learner, problem: &Problem, round: usize) -> CurvePoint {
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

pub(super) fn flute_params(
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

fn fedrep_gd_params(c: &FluteConfig) -> FedRepGdParams {
    FedRepGdParams {
        rounds: c.rounds,
        eta: c.eta,
        head_steps: c.fedrep_head_steps,
        scale: c.scale,
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

/// Starts `task` on the seed's data (or, for the ablation, on its own).
fn start(c: &FluteConfig, state: &SeedState, task: Task) -> Active {
    let seed = state.seed;
    let points = &state.problem.data.points;
    let (d, k) = (c.d, c.k);
    let init = |key: u64| stream(seed, Purpose::Initialization, key);
    let noise = |key: u64| NoiseSource::new(combine(seed, key));
    let ratio = c.gamma1 / c.gamma2;
    let active =
        |method, epsilon, ratio, learner, report: Option<PrivacyReport>, sigma, problem| Active {
            method,
            epsilon,
            ratio,
            problem,
            learner,
            rounds: if report.is_some() {
                c.private_rounds
            } else {
                c.rounds
            },
            curve: Vec::new(),
            report,
            sigma,
        };
    let mut a = match task {
        Task::Flute => active(
            FLUTE,
            f64::NAN,
            ratio,
            Learner::Flute(Flute::new(
                points,
                c.alpha,
                flute_params(c, c.gamma1, None, 0.0),
                &mut init(1),
                0,
            )),
            None,
            f64::NAN,
            None,
        ),
        Task::FedRep => {
            // Method of moments: top-k eigenvectors of the unbiased pair statistic
            // (E = (1/M) Σ φᵢφᵢᵀ), then QR; every round all N samples.
            let u0 = moments_start(points, k, seed);
            active(
                FEDREP,
                f64::NAN,
                f64::NAN,
                Learner::FedRep(FedRep::new(
                    points,
                    u0,
                    fedrep_params(c, None, 0.0, BatchMode::Full),
                    0,
                )),
                None,
                f64::NAN,
                None,
            )
        }
        Task::FedRepRandom => {
            let u0 = gaussian_matrix(d, k, &mut init(1)) * c.alpha;
            active(
                FEDREP_RI,
                f64::NAN,
                f64::NAN,
                Learner::FedRep(FedRep::new(
                    points,
                    u0,
                    fedrep_params(c, None, 0.0, BatchMode::Full),
                    0,
                )),
                None,
                f64::NAN,
                None,
            )
        }
        Task::FedRepGd => active(
            FEDREP_GD,
            f64::NAN,
            f64::NAN,
            Learner::FedRepGd(FedRepGd::new(
                moments_start(points, k, seed),
                DMatrix::zeros(k, c.n),
                fedrep_gd_params(c),
            )),
            None,
            f64::NAN,
            None,
        ),
        Task::FedRepGdRandom => {
            // FLUTE's exact start: B⁰ then W⁰ from the same stream as `Flute::new`.
            let mut rng = init(1);
            let b0 = gaussian_matrix(d, k, &mut rng) * c.alpha;
            let w0 = gaussian_matrix(k, c.n, &mut rng) * c.alpha;
            active(
                FEDREP_GD_RI,
                f64::NAN,
                f64::NAN,
                Learner::FedRepGd(FedRepGd::new(b0, w0, fedrep_gd_params(c))),
                None,
                f64::NAN,
                None,
            )
        }
        Task::DpFlute(e) => {
            let p = &state.plans[e];
            active(
                DP_FLUTE,
                c.epsilons[e],
                ratio,
                Learner::Flute(Flute::new(
                    points,
                    c.alpha,
                    flute_params(c, c.gamma1, Some(c.clip), p.flute_sigma),
                    &mut init(1),
                    noise(combine(1, e as u64)),
                )),
                Some(p.flute_report.clone()),
                p.flute_sigma,
                None,
            )
        }
        Task::PrivateFedRep(e) => {
            let p = &state.plans[e];
            let stat = spectral_statistic(points, Some(c.init_clip), PairNormalization::Unbiased);
            let source = noise(combine(2, e as u64));
            let u0 = spectral_init(&stat, p.init_sigma, k, &mut source.release(u64::MAX));
            active(
                PRIVATE_FEDREP,
                c.epsilons[e],
                f64::NAN,
                Learner::FedRep(FedRep::new(
                    points,
                    u0,
                    fedrep_params(c, Some(c.fedrep_clip), p.fedrep_sigma, BatchMode::Split),
                    source,
                )),
                Some(p.fedrep_report.clone()),
                p.fedrep_sigma,
                None,
            )
        }
        Task::Ablation { samples, ratio } => {
            let problem = Problem::new(c, seed, samples);
            let learner = Learner::Flute(Flute::new(
                &problem.data.points,
                c.alpha,
                flute_params(c, ratio * c.gamma2, None, 0.0),
                &mut init(1),
                0,
            ));
            active(
                FLUTE_ABLATION,
                f64::NAN,
                ratio,
                learner,
                None,
                f64::NAN,
                Some(problem),
            )
        }
    };
    let problem = a.problem.as_ref().unwrap_or(&state.problem);
    a.curve.push(measure(&a.learner, problem, 0));
    a
}
