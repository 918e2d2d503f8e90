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
//! differ; with η = 1/p they would coincide. These rows have method [`Method::DpGdTrace`].
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

use super::config::{DpGdConfig, SigmaQuery, SpentQuery, KERNEL_MIN_N};
use super::cost;
use crate::algorithms::dp_gd_kernel::{self, KernelWidth};
use crate::algorithms::dp_gd_random_features::{DpGd, DpGdBatch, DpGdParams};
use crate::algorithms::min_norm::min_norm_least_squares;
use crate::data::random_features::{frozen_weights, RfFeatures, RfInputs};
use crate::rng;
use crate::scenarios::error::ConfigError;
use crate::scenarios::{assign_longest_first, Checked, Shard};

mod paths;
use paths::{batch_chunk, chunk_steps};
mod record;
#[cfg(test)]
mod tests;

pub use super::rows::{write_csv, DpGdRow, Method};

#[derive(Clone, Copy, Debug, PartialEq)]
enum RunKind {
    Gd,
    Dp,
    Trace,
}

impl RunKind {
    fn method(self) -> Method {
        match self {
            RunKind::Gd => Method::Gd,
            RunKind::Dp => Method::DpGd,
            RunKind::Trace => Method::DpGdTrace,
        }
    }
}

/// Runs with the same (p, ε, η, T) share their noise stream (on either path).
fn noise_key(p: usize, run: &RunSpec) -> u64 {
    noise_key_of(p, run.epsilon, run.params.eta, run.params.steps)
}

/// [`noise_key`] of a run of width p at ε with step η and T steps (the slow-motion
/// round replays that stream).
pub(crate) fn noise_key_of(p: usize, epsilon: f64, eta: f64, steps: usize) -> u64 {
    rng::combine(
        rng::combine(rng::combine(p as u64, epsilon.to_bits()), eta.to_bits()),
        steps as u64,
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

/// The accountant of a sweep's private runs. It may be slow (bisection): it is
/// asked once per (ε, T, η, 2C/n).
struct Accountant {
    sigma_for: SigmaFn,
    spent_for: Option<SpentFn>,
    /// (ε, T, η, 2C/n) by their bits, σ and the ε spent.
    asked: Vec<Asked>,
}

type Asked = ((u64, usize, u64, u64), f64, f64);

impl Accountant {
    /// The private run at ε of width p at `time_scale` (its schedule, σ and what it
    /// spends); an error at `field` when the accountant gives no usable σ.
    fn private(
        &mut self,
        config: &DpGdConfig,
        field: &str,
        eps: f64,
        p: usize,
        time_scale: f64,
        kind: RunKind,
    ) -> Result<RunSpec, ConfigError> {
        let n = config.n;
        let (eta, steps) = match kind {
            RunKind::Trace => config.trace_schedule(p, time_scale),
            _ => config.schedule(p, time_scale),
        };
        let sensitivity = 2.0 * config.clip(p) / n as f64;
        let key = (eps.to_bits(), steps, eta.to_bits(), sensitivity.to_bits());
        let (sigma, epsilon_spent) = match self.asked.iter().find(|a| a.0 == key) {
            Some(&(_, sigma, spent)) => (sigma, spent),
            None => {
                let sigma = (self.sigma_for)(&SigmaQuery::of(config, eps, steps, eta, sensitivity));
                let spent = self.spent_for.as_ref().map_or(f64::NAN, |f| {
                    f(&SpentQuery::of(config, sigma, steps, eta, sensitivity))
                });
                self.asked.push((key, sigma, spent));
                (sigma, spent)
            }
        };
        if !(sigma.is_finite() && sigma >= 0.0) {
            return Err(ConfigError::invalid(
                field,
                format!("the accountant gave no usable σ for ε = {eps}, T = {steps} (got {sigma})"),
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
    }
}

impl DpGdSweep {
    /// Plans every job. `sigma_for` is the accountant: it must return a
    /// finite σ ≥ 0 for each DP-GD run it is asked about.
    pub fn new(
        config: Checked<DpGdConfig>,
        sigma_for: impl Fn(&SigmaQuery) -> f64 + 'static,
    ) -> Result<Self, ConfigError> {
        Self::build(config.into_inner(), Box::new(sigma_for), None, Shard::WHOLE)
    }

    /// What the accountant refuses of `config`: building the sweep asks
    /// `sigma_for` for every private run's σ, and the first it cannot give is
    /// an error at the field to change. The config's last check, run in
    /// [`Checked::new`] with the others (checks.rs).
    pub fn refused(
        config: &DpGdConfig,
        sigma_for: impl Fn(&SigmaQuery) -> f64 + 'static,
    ) -> Option<ConfigError> {
        Self::build(config.clone(), Box::new(sigma_for), None, Shard::WHOLE).err()
    }

    /// As [`DpGdSweep::new`], also filling `epsilon_spent` of private rows,
    /// for only the widths of `shard` (a pool of workers or `sweep --shard`):
    /// the (seed, width) groups go to the shards by their estimated cost
    /// ([`cost::width_share_weight`], longest first). Every group depends only on
    /// (config, seed, width), so the shards' rows sorted by `order` are exactly
    /// the whole sweep's.
    pub fn with_epsilon_spent(
        config: Checked<DpGdConfig>,
        sigma_for: impl Fn(&SigmaQuery) -> f64 + 'static,
        epsilon_spent: impl Fn(&SpentQuery) -> f64 + 'static,
        shard: Shard,
    ) -> Result<Self, ConfigError> {
        Self::build(
            config.into_inner(),
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
        shard.check()?;
        let mut jobs = Vec::new();
        let mut units_total = 0;
        let n = config.n;
        let mut accountant = Accountant {
            sigma_for,
            spent_for,
            asked: Vec::new(),
        };
        let mut private = |field: &str, eps: f64, p: usize, time_scale: f64, kind: RunKind| {
            accountant.private(&config, field, eps, p, time_scale, kind)
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
                for &eps in &config.target.epsilons {
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
                let sol = min_norm_least_squares(&data.train.x, &data.train.y);
                let test = data.test_loss(&sol.theta);
                self.min_norm_test_loss = test;
                // θ = 0: no product with Φ needed.
                let null_test = data.test.null_loss();
                let (p, seed) = (self.config.p_grid[p_index], self.seed(rep));
                self.push_references(
                    p,
                    seed,
                    (test, data.train_loss(&sol.theta)),
                    (null_test, data.train.null_loss()),
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

    /// Rows of methods min-norm, zero, gd and dp-gd, in completion order.
    pub fn rows(&self) -> &[DpGdRow] {
        &self.rows
    }

    /// Rows of the loss-versus-T experiment (method dp-gd-trace).
    pub fn trace(&self) -> &[DpGdRow] {
        &self.trace
    }

    fn seed(&self, rep: usize) -> u64 {
        self.config.seed.wrapping_add(rep as u64)
    }
}
