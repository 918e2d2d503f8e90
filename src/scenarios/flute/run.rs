//! The FLUTE sweep as a step-wise runner. For every seed: one dataset
//! (App. C.1 / §7.1 / Example 1), its ERM floor and the error of its rank-k
//! truncation, then FLUTE; FedRep in two forms, each from the
//! method-of-moments start and from FLUTE's random start (RI): alternating
//! minimization + QR (Collins et al.'s analysed form) and gradient steps as
//! FedRep's code runs them (and, where set, gradient FedRep(RI) with FLUTE's
//! summed server step, this project's extension); the private pair at every ε (DP-FLUTE, this
//! project's extension, and Private FedRep), and the γ ablation of Fig. 4 on
//! datasets with N = 8, 9, … samples. A step advances one run by a bounded
//! number of rounds, so the page can show progress and stop between steps;
//! every run checks its error every round (a diverged run is an error naming
//! the setting) and records the paper's error, the principal angle, σ(BW) and
//! the balancedness as it goes.

mod learners;
mod method;
mod metrics;

use super::config::{FluteConfig, ABLATION_RATIOS};
use super::plan::{plan, FlutePlan};
use crate::privacy::PrivacyReport;
use crate::scenarios::adapter::{Rows, Sweep};
use crate::scenarios::csv_out::{self, cell, csv_record, number as num};
use crate::scenarios::{Checked, RunError};
pub(super) use learners::flute_params;
pub use learners::CurvePoint;
use learners::{divergence, measure, start, Active, Learner, Problem, Task};
pub use method::Method;
pub use metrics::{balancedness, mean_regressor_error, product_singular_values};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Work (M·N·d·(k + 2) units) one step may do: about 0.05 s.
const WORK_PER_STEP: f64 = 3e7;
/// Most points a curve keeps (every ⌈T/400⌉-th round is recorded).
const CURVE_POINTS: usize = 400;

/// One run's curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Curve {
    pub method: Method,
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
    pub method: Method,
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

csv_record! { FluteRow {
    text: method;
    inf: epsilon;
    text: seed m;
    num: gamma_ratio error erm_floor population_floor principal_angle balancedness epsilon_spent
        sigma clipped_fraction rounds_to_floor skipped_nonfinite;
} }

pub fn csv(rows: &[FluteRow]) -> String {
    csv_out::file_of(rows)
}

/// `curves.csv`: one line per recorded round of every run.
pub fn curves_csv(curves: &[Curve], k: usize) -> String {
    let svs: Vec<String> = (1..=k).map(|j| format!("sv{j}")).collect();
    let mut out = csv_out::CsvFile::new(
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
                c.method.name().into(),
                cell::inf(&c.epsilon),
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
    type Part = super::Part;
    fn config(&self) -> &FluteConfig {
        &self.config
    }
    fn part(&self) -> super::Part {
        super::Part {
            rows: Rows::of(self.rows(), self.reports()),
            curves: self.curves().to_vec(),
        }
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
        if c.fedrep_summed {
            tasks.push_back(Task::FedRepGdSumRandom);
        }
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
                Some(task) => {
                    let active =
                        start(&self.config, state.seed, &state.problem, &state.plans, task);
                    state.active = Some(active);
                }
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
                method: active.method,
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
            if active.method != Method::FluteAblation {
                self.curves.push(Curve {
                    method: active.method,
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
