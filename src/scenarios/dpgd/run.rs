//! The "privacy for free" sweep (Bombari & Mondelli, §5 and Fig. 3) as a
//! step-wise runner: DP-GD on random features over a grid of widths p and
//! privacy levels ε, against the non-private minimum-norm solution θ* and
//! early-stopped plain GD.
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
//!
//! Two ways to run a width (`path`, [`DpGdConfig::uses_kernel`]): the direct
//! path steps θ ∈ R^p with Φ stored (`dp_gd_random_features`, one run at a
//! time, or together as a batch from n ≥ 256); the kernel path (`dp_gd_kernel`,
//! for p ≥ n at n ≥ 256 by default)
//! simulates every run of the width together in n dimensions, exactly in
//! distribution, without storing Φ. Each row says which path made it (`path`,
//! not a CSV column: the stored outputs stay byte for byte).

use std::sync::Arc;

use crate::scenarios::table::csv_number as num;
use serde::{Deserialize, Serialize};

use super::charts::fmt_eps;
use super::config::{DpGdConfig, SigmaQuery, SpentQuery, KERNEL_MIN_N, WORK_PER_UNIT};
use super::cost;
use crate::algorithms::dp_gd_kernel::{self, KernelRunSpec, KernelWidth};
use crate::algorithms::dp_gd_random_features::{DpGd, DpGdBatch, DpGdParams};
use crate::algorithms::min_norm::min_norm_least_squares;
use crate::data::random_features::{frozen_weights, RfFeatures, RfInputs};
use crate::rng;
use crate::scenarios::error::ConfigError;
use crate::scenarios::field::Config;
use crate::scenarios::{assign_longest_first, Shard};

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
    /// How the row was computed: "direct" (θ ∈ R^p, Φ stored) or "kernel"
    /// (n-dimensional simulation, exact in distribution). Not in the CSV.
    #[serde(default)]
    pub path: String,
    /// The (seed, width) group of the row, counted in sweep order: a merge of
    /// shards sorts by it. Not in the CSV.
    #[serde(default)]
    pub order: usize,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum RunKind {
    Gd,
    Dp,
    Trace,
}

impl RunKind {
    fn method(self) -> &'static str {
        match self {
            RunKind::Gd => "gd",
            RunKind::Dp => "dp-gd",
            RunKind::Trace => "dp-gd-trace",
        }
    }
}

/// Runs with the same (p, ε, η, T) share their noise stream (on either path).
fn noise_key(p: usize, run: &RunSpec) -> u64 {
    rng::combine(
        rng::combine(
            rng::combine(p as u64, run.epsilon.to_bits()),
            run.params.eta.to_bits(),
        ),
        run.params.steps as u64,
    )
}

/// The kernel path's second stream of a run (the fresh ζ of its final draw).
const KERNEL_FRESH_TAG: u64 = 0x6b65_726e_656c; // "kernel"

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
    /// Every run of one width on the direct path, stepped together (n ≥
    /// [`KERNEL_MIN_N`]: Φ read once per step for all of them).
    Batch {
        rep: usize,
        p_index: usize,
        runs: Vec<RunSpec>,
    },
    /// Every run of one width on the kernel path (θ* included).
    Kernel {
        rep: usize,
        p_index: usize,
        runs: Vec<RunSpec>,
    },
}

impl Job {
    /// The (seed, width) group of the job in sweep order, with `widths` widths per seed.
    fn group(&self, widths: usize) -> usize {
        let (Job::Features { rep, p_index }
        | Job::MinNorm { rep, p_index }
        | Job::Run { rep, p_index, .. }
        | Job::Batch { rep, p_index, .. }
        | Job::Kernel { rep, p_index, .. }) = self;
        rep * widths + p_index
    }
}

/// What one finished run measured.
struct Outcome {
    train_loss: f64,
    test_loss: f64,
    clipped_fraction: f64,
    noise_std: f64,
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
    inputs: Option<(usize, Arc<RfInputs>)>,
    features: Option<Arc<RfFeatures>>,
    min_norm_test_loss: f64,
    active: Option<DpGd>,
    batch: Option<DpGdBatch>,
    kernel: Option<KernelWidth>,
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
        Self::build(config, Box::new(sigma_for), None, Shard::WHOLE)
    }

    /// As [`DpGdSweep::new`], also filling `epsilon_spent` of private rows,
    /// for only the widths of `shard` (a pool of workers or `sweep --shard`):
    /// the (seed, width) groups go to the shards by their estimated cost
    /// ([`cost::width_share_weight`], longest first). Every group depends only on
    /// (config, seed, width), so the shards' rows sorted by `order` are exactly
    /// the whole sweep's.
    pub fn with_epsilon_spent(
        config: DpGdConfig,
        sigma_for: impl Fn(&SigmaQuery) -> f64 + 'static,
        epsilon_spent: impl Fn(&SpentQuery) -> f64 + 'static,
        shard: Shard,
    ) -> Result<Self, ConfigError> {
        Self::build(
            config,
            Box::new(sigma_for),
            Some(Box::new(epsilon_spent)),
            shard,
        )
    }

    fn build(
        config: DpGdConfig,
        sigma_for: SigmaFn,
        spent_for: Option<SpentFn>,
        shard: Shard,
    ) -> Result<Self, ConfigError> {
        config.validate()?;
        shard.check()?;
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
        // Units of each (seed, width) group, in sweep order.
        let mut group_units = Vec::new();
        for rep in 0..config.repeats {
            for (p_index, &p) in config.p_grid.iter().enumerate() {
                group_units.push(units_total);
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
                if config.uses_kernel(p) {
                    let steps: Vec<usize> = runs.iter().map(|r| r.params.steps).collect();
                    // Replaces the Features and MinNorm jobs: K carries θ*.
                    jobs.truncate(jobs.len() - 2);
                    units_total -= 2;
                    units_total += dp_gd_kernel::units_for(n, p, &steps);
                    jobs.push(Job::Kernel { rep, p_index, runs });
                    continue;
                }
                if n >= KERNEL_MIN_N {
                    let max_t = runs.iter().map(|r| r.params.steps).max().unwrap_or(0);
                    units_total += max_t.div_ceil(batch_chunk(n, p, runs.len()));
                    jobs.push(Job::Batch { rep, p_index, runs });
                    continue;
                }
                let chunk = chunk_steps(n, p);
                for run in runs {
                    units_total += run.params.steps.div_ceil(chunk);
                    jobs.push(Job::Run { rep, p_index, run });
                }
            }
        }
        if shard.count > 1 {
            // group_units holds each group's first unit: turn it into its size.
            group_units.push(units_total);
            let units: Vec<usize> = group_units.windows(2).map(|w| w[1] - w[0]).collect();
            let widths = config.p_grid.len();
            let costs: Vec<f64> = (0..config.repeats * widths)
                .map(|g| cost::width_share_weight(&config, config.p_grid[g % widths]))
                .collect();
            let owner = assign_longest_first(&costs, shard.count);
            jobs.retain(|job| owner[job.group(widths)] == shard.index);
            units_total = (0..units.len())
                .filter(|&g| owner[g] == shard.index)
                .map(|g| units[g])
                .sum();
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
            batch: None,
            kernel: None,
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
                let inputs = self.inputs_for(rep);
                let c = &self.config;
                let p = c.p_grid[p_index];
                self.features = None; // free the previous width first
                let w = frozen_weights(seed, p, c.d);
                self.features = Some(Arc::new(RfFeatures::build(&inputs, &w, c.activation)));
                self.finish_job();
            }
            Job::MinNorm { rep, p_index } => {
                let data = self.features.clone().expect("features are built first");
                let sol = min_norm_least_squares(&data.phi, &data.y);
                let test = data.test_loss(&sol.theta);
                self.min_norm_test_loss = test;
                // θ = 0: no product with Φ needed.
                let null_test = data.null_test_loss();
                let (p, seed) = (self.config.p_grid[p_index], self.seed(rep));
                self.push_references(
                    p,
                    seed,
                    (test, data.train_loss(&sol.theta)),
                    (null_test, data.null_train_loss()),
                    "direct",
                );
                self.finish_job();
            }
            Job::Kernel { rep, p_index, runs } => self.kernel_step(rep, p_index, &runs),
            Job::Batch { rep, p_index, runs } => self.batch_step(rep, p_index, &runs),
            Job::Run { rep, p_index, run } => {
                let p = self.config.p_grid[p_index];
                let seed = self.seed(rep);
                if self.active.is_none() {
                    let data = self.features.clone().expect("features are built first");
                    let noise = rng::NoiseSource::new(seed).release(noise_key(p, &run));
                    let gd = DpGd::new(data, run.params, noise).expect("parameters were validated");
                    self.active = Some(gd);
                }
                let gd = self.active.as_mut().expect("just set");
                gd.advance(chunk_steps(self.config.n, p));
                self.units_done += 1;
                if gd.is_done() {
                    let gd = self.active.take().expect("active run");
                    let outcome = Outcome {
                        train_loss: gd.train_loss(),
                        test_loss: gd.test_loss(),
                        clipped_fraction: gd.mean_clipped_fraction(),
                        noise_std: gd.noise_std(),
                    };
                    self.push_run(&run, seed, p, outcome, "direct");
                    self.next_job += 1;
                }
                if self.next_job == self.jobs.len() {
                    self.release();
                }
            }
        }
        self.is_done()
    }

    /// The inputs of seed number `rep` (drawn once, shared by its widths).
    fn inputs_for(&mut self, rep: usize) -> Arc<RfInputs> {
        if let Some((r, inputs)) = &self.inputs {
            if *r == rep {
                return inputs.clone();
            }
        }
        self.features = None;
        let c = &self.config;
        let inputs = Arc::new(RfInputs::generate(
            self.seed(rep),
            c.d,
            c.n,
            c.n_test,
            c.data_target(),
        ));
        self.inputs = Some((rep, inputs.clone()));
        inputs
    }

    /// One unit of a batch of direct runs; their rows once all are done.
    fn batch_step(&mut self, rep: usize, p_index: usize, runs: &[RunSpec]) {
        let p = self.config.p_grid[p_index];
        let seed = self.seed(rep);
        if self.batch.is_none() {
            let Some(data) = self.features.clone() else {
                return;
            };
            let source = rng::NoiseSource::new(seed);
            let specs = runs
                .iter()
                .map(|run| (run.params, source.release(noise_key(p, run))))
                .collect();
            // Parameters were validated when the sweep was planned.
            self.batch = DpGdBatch::new(data, specs).ok();
        }
        let chunk = batch_chunk(self.config.n, p, runs.len());
        let Some(batch) = self.batch.as_mut() else {
            return;
        };
        for _ in 0..chunk {
            batch.step();
        }
        self.units_done += 1;
        if !batch.is_done() {
            return;
        }
        let Some(batch) = self.batch.take() else {
            return;
        };
        for (run, (train_loss, test_loss, clipped_fraction, noise_std)) in
            runs.iter().zip(batch.results())
        {
            let outcome = Outcome {
                train_loss,
                test_loss,
                clipped_fraction,
                noise_std,
            };
            self.push_run(run, seed, p, outcome, "direct");
        }
        self.next_job += 1;
        if self.next_job == self.jobs.len() {
            self.release();
        }
    }

    /// One unit of a width on the kernel path; its rows once it is done.
    fn kernel_step(&mut self, rep: usize, p_index: usize, runs: &[RunSpec]) {
        let p = self.config.p_grid[p_index];
        let seed = self.seed(rep);
        if self.kernel.is_none() {
            let inputs = self.inputs_for(rep);
            self.features = None;
            let source = rng::NoiseSource::new(seed);
            let specs = runs
                .iter()
                .map(|run| {
                    let key = noise_key(p, run);
                    KernelRunSpec {
                        params: run.params,
                        noise: source.release(key),
                        fresh: source.release(rng::combine(key, KERNEL_FRESH_TAG)),
                    }
                })
                .collect();
            self.kernel = Some(KernelWidth::new(
                inputs,
                seed,
                p,
                self.config.activation,
                specs,
            ));
        }
        let Some(kernel) = self.kernel.as_mut() else {
            return;
        };
        let done = kernel.step();
        self.units_done += 1;
        if !done {
            return;
        }
        let Some(kernel) = self.kernel.take() else {
            return;
        };
        let inputs = self.inputs_for(rep);
        let star = kernel.min_norm();
        let null_test = inputs.y_test.norm_squared() / inputs.n_test().max(1) as f64;
        let null_train = inputs.y_train.norm_squared() / inputs.n().max(1) as f64;
        self.min_norm_test_loss = star.test_loss;
        self.push_references(
            p,
            seed,
            (star.test_loss, star.train_loss),
            (null_test, null_train),
            "kernel",
        );
        for (run, result) in runs.iter().zip(kernel.results()) {
            let outcome = Outcome {
                train_loss: result.train_loss,
                test_loss: result.test_loss,
                clipped_fraction: result.mean_clipped_fraction,
                noise_std: result.noise_std,
            };
            self.push_run(run, seed, p, outcome, "kernel");
        }
        self.next_job += 1;
        if self.next_job == self.jobs.len() {
            self.release();
        }
    }

    /// The rows of the two references at width p: θ* (min-norm) and θ = 0,
    /// each (test loss, train loss).
    fn push_references(
        &mut self,
        p: usize,
        seed: u64,
        (star_test, star_train): (f64, f64),
        (null_test, null_train): (f64, f64),
        path: &str,
    ) {
        let star = DpGdRow {
            method: "min-norm".into(),
            p,
            epsilon: f64::NAN,
            delta: self.config.delta,
            seed,
            steps: 0,
            eta: f64::NAN,
            clip: f64::NAN,
            time_scale: f64::NAN,
            sigma: 0.0,
            noise_std: 0.0,
            test_loss: star_test,
            train_loss: star_train,
            excess_risk: 0.0,
            clipped_fraction: f64::NAN,
            epsilon_spent: f64::NAN,
            path: path.into(),
            order: self.current_order(),
        };
        let zero = DpGdRow {
            method: "zero".into(),
            test_loss: null_test,
            train_loss: null_train,
            excess_risk: null_test - star_test,
            ..star.clone()
        };
        self.rows.push(star);
        self.rows.push(zero);
    }

    /// The row of a finished GD or DP-GD run at width p, whichever path ran it
    /// (a loss-versus-T run goes to the trace).
    fn push_run(&mut self, run: &RunSpec, seed: u64, p: usize, o: Outcome, path: &str) {
        let c = &self.config;
        let row = DpGdRow {
            method: run.kind.method().into(),
            p,
            epsilon: run.epsilon,
            delta: c.delta,
            seed,
            steps: run.params.steps,
            eta: run.params.eta,
            clip: run.params.clip.unwrap_or(f64::NAN),
            time_scale: run.params.eta * run.params.steps as f64 * p as f64 / c.d as f64,
            sigma: run.params.sigma,
            noise_std: o.noise_std,
            test_loss: o.test_loss,
            train_loss: o.train_loss,
            excess_risk: o.test_loss - self.min_norm_test_loss,
            clipped_fraction: if run.kind != RunKind::Gd {
                o.clipped_fraction
            } else {
                f64::NAN
            },
            epsilon_spent: run.epsilon_spent,
            path: path.into(),
            order: self.current_order(),
        };
        if run.kind == RunKind::Trace {
            self.trace.push(row);
        } else {
            self.rows.push(row);
        }
    }

    /// The group of the job being finished (its rows' `order`).
    fn current_order(&self) -> usize {
        self.jobs
            .get(self.next_job)
            .map_or(0, |job| job.group(self.config.p_grid.len()))
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
        self.kernel = None;
        self.batch = None;
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
            Job::Batch { rep, p_index, runs } => {
                let (done, total) = self.batch.as_ref().map_or((0, 0), DpGdBatch::progress);
                format!(
                    "GD and DP-GD, {} runs together at p = {} (direct path): step {done} of {total}{}",
                    runs.len(),
                    c.p_grid[*p_index],
                    seed_note(*rep)
                )
            }
            Job::Kernel { rep, p_index, runs } => {
                let what = self
                    .kernel
                    .as_ref()
                    .map_or_else(|| "starting".to_string(), KernelWidth::phase_label);
                format!(
                    "GD and DP-GD, kernel path (n-dimensional, exact in distribution) at p = {}, {} runs: {what}{}",
                    c.p_grid[*p_index],
                    runs.len(),
                    seed_note(*rep)
                )
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
                    "{what} at p = {} (direct path): step {done} of {}{}",
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

/// Batch steps per unit of `runs` direct runs at width p (≈ 2np each).
fn batch_chunk(n: usize, p: usize, runs: usize) -> usize {
    (4 * WORK_PER_UNIT / (2 * n * p * runs).max(1)).max(1)
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
    let mut csv = crate::scenarios::csv_out::CsvFile::with_header(CSV_HEADER);
    for r in rows {
        csv.row([
            r.method.clone(),
            r.p.to_string(),
            num(r.epsilon),
            num(r.delta),
            r.seed.to_string(),
            r.steps.to_string(),
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
        ]);
    }
    out.write_all(csv.finish().as_bytes())
}

#[cfg(test)]
mod tests {
    use super::super::charts::charts;
    use super::super::config::{Calibration, EtaMode, TargetKind};
    use super::*;
    use crate::scenarios::field::OptionalList;

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
        c.trace_p = OptionalList(vec![60]);
        c.trace_time_scales = vec![1.0, 4.0];
        c.trace_eta = 0.01;
        c
    }

    #[test]
    fn presets_validate_and_unknown_ones_are_named() {
        for p in super::super::config::PRESETS {
            DpGdConfig::preset(p.name).unwrap().validate().unwrap();
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
            ("seeds", "2"),
            ("calibration", "exact"),
            ("trace_p", "300"),
            ("trace_epsilon", "2"),
            ("trace_time_scales", "1:3:1"),
            ("trace_eta", "0"),
            ("path", "kernel"),
        ];
        assert_eq!(settings.len(), DpGdConfig::fields().len());
        for (k, v) in settings {
            c.apply_field(k, v).unwrap();
        }
        assert_eq!(c.p_grid, vec![30, 300, 900]);
        assert_eq!(c.eta_mode, EtaMode::Fixed);
        assert_eq!(c.activation, crate::data::random_features::Activation::Sin);
        assert_eq!(c.target, TargetKind::Linear);
        assert_eq!(c.calibration, Calibration::Exact);
        assert_eq!(c.trace_time_scales, vec![1.0, 2.0, 3.0]);
        c.validate().unwrap();
        // Serde round trip (the page stores configs as JSON).
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(serde_json::from_str::<DpGdConfig>(&json).unwrap(), c);
        // The old name of `seeds` still works; a preset is not a setting.
        c.apply_field("repeats", "3").unwrap();
        assert_eq!(c.repeats, 3);
        assert_eq!(
            c.apply_field("preset", "dpgd-paper").unwrap_err().field(),
            "preset"
        );
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
        let msg = check(
            &|c| {
                c.p_grid = vec![100_000];
                c.path = super::super::config::SimPath::Direct;
            },
            "p_grid",
        );
        assert!(msg.contains("MB"), "{msg}");
        let msg = check(&|c| c.epsilons = vec![100.0], "epsilons");
        assert!(msg.contains("8 ln(1/δ)"), "{msg}");
        check(&|c| c.trace_p = OptionalList(vec![123]), "trace_p");
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
        check(&|c| c.repeats = 0, "seeds");
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
        let mut s =
            DpGdSweep::with_epsilon_spent(c.clone(), prop32, |q| q.sigma, Shard::WHOLE).unwrap();
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
