//! A Private FedRep sweep as a step-wise runner: one shared dataset per seed,
//! then non-private FedRep and local GD as references, Private FedRep at every
//! ε and (config `altmin`) Priv-AltMin (Jain et al. 2021) at every ε. Each
//! `step()` does one bounded unit of work (a chunk of users, or one round or
//! AltMin iteration of one run), so a Web Worker can report progress and
//! honour a cancel between steps.

use super::config::{FedRepConfig, InitMode};
use super::plan::{plan_priv_altmin, plan_private_fedrep};
use super::results::{AngleCurve, ResultRow};
use crate::algorithms::fedrep::{
    block_partials_of_runs, final_risk_sum, final_risk_sums, risk_from_sum, BlockPartial, FedRep,
    FedRepParams, FinalRisk, USER_BLOCK,
};
use crate::algorithms::local_gd::{local_gd_risk_sum, LocalGdParams};
use crate::algorithms::priv_altmin::{participants, PrivAltMin};
use crate::algorithms::private_init::{
    spectral_init, SpectralAccumulator, SpectralStatistic, StatisticPartial,
};
use crate::algorithms::stepwise::RepresentationLearner;
use crate::data::shared_representation::FederatedDataset;
use crate::data::shared_representation::Storage;
use crate::linalg::{gaussian_matrix, orthonormalize};
use crate::privacy::{AccountingError, PrivacyReport};
use crate::rng::{combine, stream, NoiseSource, Purpose};
use crate::scenarios::field::Config;
use crate::scenarios::ConfigError;
use crate::scenarios::{decode_partials, RunError, Shard};
use nalgebra::DMatrix;
use serde::{Deserialize, Serialize};

/// Users per step of a pass over the users (a multiple of the algorithms'
/// block sizes, so chunked passes add exactly the one-pass numbers).
const USERS_PER_STEP: usize = 32 * USER_BLOCK;

/// User blocks per step of a round (one step's users).
const BLOCKS_PER_STEP: usize = USERS_PER_STEP / USER_BLOCK;

/// Users drawn per step while generating data.
const USERS_PER_DATA_STEP: usize = 4000;
/// Users trained per step of the local GD baseline.
const USERS_PER_LOCAL_STEP: usize = 10_000;

/// One worker's share of every run's users when a sweep is split by users
/// (worker `index` of `count`): every pass over the users (the initialization
/// statistic, each round, the final heads, local GD) is cut into the chunks a
/// single worker steps through, and each worker takes a contiguous range of
/// them, so the workers' partials in worker order are the chunks in user order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UserShare {
    pub index: usize,
    pub count: usize,
}

impl UserShare {
    /// This worker's chunks of a pass of `chunks` chunks.
    fn chunks(self, chunks: usize) -> std::ops::Range<usize> {
        chunks * self.index / self.count..chunks * (self.index + 1) / self.count
    }
}

/// A pass's partial sums (only the pass's own kind is non-empty), per run of
/// the pass (several FedRep runs share a pass; local GD is one run): what a
/// worker of a sweep split by users sends the others after a pass, and what a
/// whole run gathers before it applies the pass. Small: a d×d matrix per chunk
/// of the statistic, d×k numbers per block of a round, one number per chunk of
/// a final pass.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Partials {
    statistic: Vec<StatisticPartial>,
    /// Per run: its user blocks' gradient sums, in block order.
    blocks: Vec<Vec<BlockPartial>>,
    /// Per run: its chunks' sums, in chunk order.
    sums: Vec<Vec<f64>>,
}

/// How many entries each run's list holds.
fn counts<T>(lists: &[Vec<T>]) -> Vec<usize> {
    lists.iter().map(Vec::len).collect()
}

/// Appends `more`'s lists run by run (the list of run r to `lists[r]`).
fn append_per_run<T>(lists: &mut Vec<Vec<T>>, more: Vec<Vec<T>>) {
    if lists.len() < more.len() {
        lists.resize_with(more.len(), Vec::new);
    }
    for (list, more) in lists.iter_mut().zip(more) {
        list.extend(more);
    }
}

impl Partials {
    /// A later chunk's partials (a later worker's, or this worker's next), after these.
    fn append(&mut self, more: Partials) {
        self.statistic.extend(more.statistic);
        append_per_run(&mut self.blocks, more.blocks);
        append_per_run(&mut self.sums, more.sums);
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Job {
    FedRepReference,
    LocalGd,
    PrivateFedRep { epsilon_index: usize },
    PrivAltMin { epsilon_index: usize },
}

enum Phase {
    Data {
        next_user: usize,
    },
    Statistics {
        next_user: usize,
        acc: Option<Box<SpectralAccumulator>>,
    },
    Jobs {
        index: usize,
        running: Option<Running>,
    },
    Done,
}

/// One FedRep run of a seed's group: the non-private reference or Private
/// FedRep at one ε.
struct GroupRun {
    order: usize,
    job: Job,
    model: FedRep,
    privacy: Option<PrivacyReport>,
    sigma: f64,
}

enum Running {
    /// Priv-AltMin: its iterations, then the final heads.
    Model {
        model: Box<dyn RepresentationLearner>,
        privacy: Option<PrivacyReport>,
        sigma: f64,
        /// The final pass in progress: (next user, Σ excess risk so far).
        finishing: Option<(usize, f64)>,
    },
    LocalGd {
        next_user: usize,
        sum: f64,
    },
    /// Every FedRep run of the seed given to this worker (the non-private
    /// reference and Private FedRep at each ε) in lock-step: each pass over
    /// the users (a round, then the final heads) reads, or regenerates, every
    /// user once for all of them. `next`: this worker's next block of the
    /// round or, once the rounds are done, its next user (0 at the start of a
    /// pass: it is raised to the first of this worker's share). A whole run applies
    /// a pass as soon as it has every block; split by users, every worker
    /// applies every worker's partials in block order (Alg. 1 lines 8–10), so
    /// all hold the same U_t. Each run's numbers are those of a run of its own.
    FedRepGroup {
        runs: Vec<GroupRun>,
        next: usize,
    },
    /// Local GD split by users: this worker's chunks.
    SplitLocalGd {
        next_user: usize,
    },
}

/// The runs of one seed (one dataset) that a worker was given.
pub struct SeedSweep {
    config: FedRepConfig,
    data: FederatedDataset,
    /// The initialization's statistic (clipped for a private init), shared by
    /// every run of the seed.
    stat: Option<SpectralStatistic>,
    /// (position in the whole sweep, job): the FedRep runs first (they run
    /// together, see [`Running::FedRepGroup`]), then the others in sweep order.
    jobs: Vec<(usize, Job)>,
    phase: Phase,
    rows: Vec<ResultRow>,
    curves: Vec<AngleCurve>,
    units_done: usize,
    units_total: usize,
    /// Split by users: this worker's share of every pass (None: whole runs).
    share: Option<UserShare>,
    /// Split by users: this worker's partials of the pass in progress.
    mine: Partials,
    /// Split by users: the partials of the pass just finished, until taken.
    outbox: Option<Vec<u8>>,
    /// Split by users: waits for every worker's partials of the last pass.
    waiting: bool,
}

/// The runs that go together in one FedRep group (see [`Running::FedRepGroup`]).
pub(super) fn is_fedrep(job: &Job) -> bool {
    matches!(job, Job::FedRepReference | Job::PrivateFedRep { .. })
}

/// Every run of one seed, in the sweep's order: the non-private references
/// first, then Private FedRep and Priv-AltMin at every ε.
pub(super) fn jobs_of_one_seed(config: &FedRepConfig) -> Vec<Job> {
    let mut jobs = vec![Job::FedRepReference, Job::LocalGd];
    jobs.extend(
        (0..config.epsilons.len()).map(|epsilon_index| Job::PrivateFedRep { epsilon_index }),
    );
    if config.altmin {
        jobs.extend(
            (0..config.epsilons.len()).map(|epsilon_index| Job::PrivAltMin { epsilon_index }),
        );
    }
    jobs
}

impl SeedSweep {
    /// After the data: the initialization statistic, unless the runs start
    /// from a random U (which needs none).
    fn first_phase_after_data(&self) -> Phase {
        if self.config.init == InitMode::Random {
            Phase::Jobs {
                index: 0,
                running: None,
            }
        } else {
            Phase::Statistics {
                next_user: 0,
                acc: None,
            }
        }
    }

    /// Frees the dataset once every run of this seed is finished.
    fn release_data(&mut self) {
        self.data = self.config.model().streamed();
        self.stat = None;
    }

    /// The given runs of `config.seed` (with `share`: this worker's users of
    /// each); allocates the dataset, draws nothing yet.
    fn new(config: FedRepConfig, mut jobs: Vec<(usize, Job)>, share: Option<UserShare>) -> Self {
        // The FedRep runs first, as one group (a stable sort: the rest keep
        // their order). Rows and curves are kept in sweep order whatever runs first.
        jobs.sort_by_key(|(_, job)| !is_fedrep(job));
        let count = |f: fn(&Job) -> bool| jobs.iter().filter(|(_, j)| f(j)).count();
        let fedrep_runs = count(is_fedrep);
        let altmin_runs = count(|j| matches!(j, Job::PrivAltMin { .. }));
        let local_runs = count(|j| matches!(j, Job::LocalGd));
        let n = config.n;
        // A pass over the users takes ⌈n / USERS_PER_STEP⌉ steps: every FedRep
        // round, the final heads, and the initialization statistic.
        let pass = n.div_ceil(USERS_PER_STEP);
        let per_run = (config.rounds + 1) * pass;
        // An AltMin iteration takes ⌈participants / USERS_PER_STEP⌉ steps (at
        // least one), and the final heads a pass.
        let mode = config.altmin_mode.mode();
        let per_altmin_run = (0..config.altmin_rounds)
            .map(|t| {
                participants(mode, config.altmin_rounds, n, t)
                    .len()
                    .div_ceil(USERS_PER_STEP)
                    .max(1)
            })
            .sum::<usize>()
            + pass;
        let streamed = config.storage() == Storage::Streamed;
        // A streamed dataset is drawn during each pass, not up front.
        let data_units = if streamed {
            0
        } else {
            n.div_ceil(USERS_PER_DATA_STEP)
        };
        let statistic_units = if config.init == InitMode::Random {
            0
        } else {
            pass
        };
        let units_total = match share {
            // A step computes one of this worker's chunks (Priv-AltMin does not split).
            Some(share) => {
                let mine = share.chunks(pass).len();
                data_units
                    + if statistic_units > 0 { mine } else { 0 }
                    + fedrep_runs * (config.rounds + 1) * mine
                    + local_runs * share.chunks(n.div_ceil(USERS_PER_LOCAL_STEP)).len()
            }
            None => {
                data_units
                    + statistic_units
                    + fedrep_runs * per_run
                    + local_runs * n.div_ceil(USERS_PER_LOCAL_STEP)
                    + altmin_runs * per_altmin_run
            }
        };
        // A streamed dataset has nothing to draw up front.
        let data = if streamed {
            config.model().streamed()
        } else {
            config.model().allocate()
        };
        let mut sweep = SeedSweep {
            config,
            data,
            stat: None,
            jobs,
            phase: Phase::Data { next_user: 0 },
            rows: Vec::new(),
            curves: Vec::new(),
            units_done: 0,
            units_total,
            share,
            mine: Partials::default(),
            outbox: None,
            waiting: false,
        };
        if streamed {
            sweep.phase = sweep.first_phase_after_data();
        }
        sweep
    }

    pub fn config(&self) -> &FedRepConfig {
        &self.config
    }

    pub fn is_done(&self) -> bool {
        matches!(self.phase, Phase::Done)
    }

    pub fn progress(&self) -> (usize, usize) {
        (self.units_done, self.units_total)
    }

    pub fn rows(&self) -> &[ResultRow] {
        &self.rows
    }

    /// Finished curves plus the one being computed.
    pub fn curves(&self) -> Vec<AngleCurve> {
        let mut curves = self.curves.clone();
        if let Phase::Jobs {
            index,
            running: Some(running),
        } = &self.phase
        {
            match running {
                Running::Model { model, .. } => {
                    let (order, job) = &self.jobs[*index];
                    curves.push(self.curve_of(*order, job, model.angles()));
                }
                Running::FedRepGroup { runs, .. } => {
                    for run in runs {
                        curves.push(self.curve_of(run.order, &run.job, run.model.angles()));
                    }
                    curves.sort_by_key(|c| c.order);
                }
                Running::LocalGd { .. } | Running::SplitLocalGd { .. } => {}
            }
        }
        curves
    }

    pub fn phase_label(&self) -> String {
        match &self.phase {
            Phase::Data { next_user } => {
                format!("drawing data: {next_user} of {} users", self.config.n)
            }
            Phase::Statistics { next_user, .. } => format!(
                "initialization statistic (Algorithm 2): {next_user} of {} users",
                self.config.n
            ),
            Phase::Jobs { index, running } => {
                let job = &self.jobs[*index].1;
                let (label, round) = match running {
                    Some(Running::Model { model, .. }) => {
                        (self.job_label(job), format!(": {}", model.position()))
                    }
                    Some(Running::FedRepGroup { runs, .. }) => {
                        let model = &runs[0].model;
                        let round = if model.is_done() {
                            ": final heads".into()
                        } else {
                            format!(": {}", RepresentationLearner::position(model))
                        };
                        (self.group_label(runs.iter().map(|r| &r.job)), round)
                    }
                    // A group not started yet: every FedRep run from here.
                    None if is_fedrep(job) => (
                        self.group_label(
                            self.jobs[*index..]
                                .iter()
                                .map(|(_, j)| j)
                                .take_while(|j| is_fedrep(j)),
                        ),
                        String::new(),
                    ),
                    _ => (self.job_label(job), String::new()),
                };
                let wait = if self.waiting {
                    " (waiting for the other workers)"
                } else {
                    ""
                };
                format!("{label}{round}{wait}")
            }
            Phase::Done => "done".into(),
        }
    }

    /// Runs to the end (CLI, tests).
    pub fn run_to_end(&mut self) -> Result<(), RunError> {
        while !self.step()? {}
        Ok(())
    }

    /// One bounded unit of work; Ok(true) once everything is done. Split by
    /// users, it does nothing while the run waits for the other workers.
    pub fn step(&mut self) -> Result<bool, RunError> {
        if self.waiting {
            return Ok(false);
        }
        let phase = std::mem::replace(&mut self.phase, Phase::Done);
        self.phase = match phase {
            Phase::Data { next_user } => {
                let end = (next_user + USERS_PER_DATA_STEP).min(self.config.n);
                self.data.fill_users(next_user..end);
                self.units_done += 1;
                if end == self.config.n {
                    self.first_phase_after_data()
                } else {
                    Phase::Data { next_user: end }
                }
            }
            Phase::Statistics { next_user, acc } => {
                // One pass: the clipped mean for a private initialization, the
                // unclipped one otherwise. The non-private reference run starts
                // from the same statistic without noise (clipping alone is no
                // privacy, so the reference stays non-private), which halves the
                // cost of this phase. Users are summed USERS_PER_STEP at a
                // time, each chunk on its own and then added in order: the
                // chunks a sweep split by users sums in several workers (one
                // chunk, n ≤ USERS_PER_STEP, gives the one-pass numbers).
                if self.share.is_some() {
                    return self.split_statistics_step(next_user);
                }
                let mut acc = acc.unwrap_or_else(|| Box::new(self.statistic_accumulator()));
                let end = (next_user + USERS_PER_STEP).min(self.config.n);
                let mut chunk = self.statistic_accumulator();
                chunk.add_users(&self.data, next_user..end);
                acc.add_partial(&chunk.into_partial());
                self.units_done += 1;
                if end < self.config.n {
                    Phase::Statistics {
                        next_user: end,
                        acc: Some(acc),
                    }
                } else {
                    self.stat = Some(acc.finish());
                    Phase::Jobs {
                        index: 0,
                        running: None,
                    }
                }
            }
            Phase::Jobs { index, running } => self.step_job(index, running)?,
            Phase::Done => Phase::Done,
        };
        Ok(self.is_done())
    }

    /// One step of a run's final pass (heads refitted on S¹ with the final U,
    /// closed-form risk), USERS_PER_STEP users at a time: `finishing` holds
    /// (next user, Σ excess risk so far). True while users remain.
    fn final_heads_step(&self, u: &DMatrix<f64>, finishing: &mut Option<(usize, f64)>) -> bool {
        let n = self.config.n;
        let (next, sum) = finishing.unwrap_or((0, 0.0));
        let end = (next + USERS_PER_STEP).min(n);
        *finishing = Some((end, sum + final_risk_sum(&self.data, u, next..end)));
        end < n
    }

    fn step_job(&mut self, index: usize, running: Option<Running>) -> Result<Phase, RunError> {
        let (order, job) = self.jobs[index].clone();
        let running = match running {
            Some(r) => r,
            None => self.start_job(index)?,
        };
        let next = match running {
            Running::FedRepGroup { runs, next } => {
                return self.step_fedrep_group(index, runs, next)
            }
            Running::SplitLocalGd { next_user } => {
                return Ok(self.split_local_gd_step(index, next_user))
            }
            Running::Model {
                mut model,
                privacy,
                sigma,
                mut finishing,
            } => {
                self.units_done += 1;
                let unfinished = if !model.is_done() {
                    model.advance(&self.data, USERS_PER_STEP);
                    true
                } else {
                    self.final_heads_step(model.u(), &mut finishing)
                };
                if unfinished {
                    Some(Running::Model {
                        model,
                        privacy,
                        sigma,
                        finishing,
                    })
                } else {
                    let sum = finishing.map_or(0.0, |f| f.1);
                    self.push_model_result(order, &job, model.as_ref(), sum, sigma, privacy)?;
                    None
                }
            }
            Running::LocalGd { next_user, sum } => {
                self.units_done += 1;
                let end = (next_user + USERS_PER_LOCAL_STEP).min(self.config.n);
                let sum =
                    sum + local_gd_risk_sum(&self.data, &self.local_gd_params(), next_user..end);
                if end < self.config.n {
                    Some(Running::LocalGd {
                        next_user: end,
                        sum,
                    })
                } else {
                    let risk = risk_from_sum(&self.data, sum);
                    self.push_result(order, &job, risk, None, 0.0, None, f64::NAN)?;
                    None
                }
            }
        };
        Ok(match next {
            Some(r) => Phase::Jobs {
                index,
                running: Some(r),
            },
            None => self.after_job(index),
        })
    }

    fn local_gd_params(&self) -> LocalGdParams {
        LocalGdParams {
            steps: self.config.local_steps,
            step: self.config.local_step,
            clip: Some(self.config.clip),
        }
    }

    /// One chunk of this worker's share of the current pass of the FedRep
    /// group (every run's gradient sums of a round's blocks, or every run's
    /// final risks); after its last chunk, a whole run applies the pass and a
    /// run split by users posts its partials.
    fn step_fedrep_group(
        &mut self,
        index: usize,
        mut runs: Vec<GroupRun>,
        next: usize,
    ) -> Result<Phase, RunError> {
        let rounds_done = runs[0].model.is_done();
        let (mine, per_step) = if rounds_done {
            (self.my_users(USERS_PER_STEP), USERS_PER_STEP)
        } else {
            (self.my_blocks(), BLOCKS_PER_STEP)
        };
        let mut next = next.max(mine.start);
        if next < mine.end {
            let end = (next + per_step).min(mine.end);
            if rounds_done {
                let us: Vec<&DMatrix<f64>> = runs.iter().map(|r| r.model.u()).collect();
                let sums = final_risk_sums(&self.data, &us, next..end);
                append_per_run(
                    &mut self.mine.sums,
                    sums.into_iter().map(|s| vec![s]).collect(),
                );
            } else {
                let mut models: Vec<&mut FedRep> = runs.iter_mut().map(|r| &mut r.model).collect();
                let partials = block_partials_of_runs(&mut models, &self.data, next..end);
                append_per_run(&mut self.mine.blocks, partials);
            }
            // A unit is one run's chunk, as when the runs went one by one.
            self.units_done += runs.len();
            next = end;
        }
        if next >= mine.end && self.share.is_none() {
            let all = std::mem::take(&mut self.mine);
            return self.apply_group_pass(index, runs, all);
        }
        if next >= mine.end {
            self.post();
        }
        Ok(Phase::Jobs {
            index,
            running: Some(Running::FedRepGroup { runs, next }),
        })
    }

    /// Every run's partials of the group's pass (all the blocks, or all the
    /// chunks, in order): a round's server step for each run (Alg. 1 lines
    /// 8–10), or each run's row and curve after the final heads.
    fn apply_group_pass(
        &mut self,
        index: usize,
        mut runs: Vec<GroupRun>,
        all: Partials,
    ) -> Result<Phase, RunError> {
        if !runs[0].model.is_done() {
            for (run, blocks) in runs.iter_mut().zip(&all.blocks) {
                run.model.apply_partials(&self.data, blocks);
            }
            // The next pass starts at this worker's first block or user.
            return Ok(Phase::Jobs {
                index,
                running: Some(Running::FedRepGroup { runs, next: 0 }),
            });
        }
        let last = index + runs.len() - 1;
        for (run, sums) in runs.into_iter().zip(all.sums) {
            // Added from 0 in chunk order, whatever the workers.
            let sum = sums.iter().fold(0.0, |s, c| s + c);
            self.push_model_result(run.order, &run.job, &run.model, sum, run.sigma, run.privacy)?;
        }
        Ok(self.after_job(last))
    }

    /// The row (and, for a method with a U, the angle curve) of a finished run.
    /// ε spent is the report's exact ε, or ∞ for a non-private run.
    /// A run whose numbers stopped being finite is an error naming the
    /// setting to change, never a row: no risk or angle is shown for it.
    /// The row and curve of a finished run that learned U (whole or split by
    /// users), from the sum of its users' excess risks in the final pass.
    fn push_model_result(
        &mut self,
        order: usize,
        job: &Job,
        model: &dyn RepresentationLearner,
        risk_sum: f64,
        sigma: f64,
        privacy: Option<PrivacyReport>,
    ) -> Result<(), RunError> {
        let risk = risk_from_sum(&self.data, risk_sum);
        let clipped = model.clipped_fraction();
        self.push_result(
            order,
            job,
            risk,
            Some(model.angles()),
            sigma,
            privacy,
            clipped,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn push_result(
        &mut self,
        order: usize,
        job: &Job,
        risk: FinalRisk,
        angles: Option<&[f64]>,
        sigma: f64,
        privacy: Option<PrivacyReport>,
        clipped_fraction: f64,
    ) -> Result<(), RunError> {
        let finite_angles = angles.is_none_or(|a| a.iter().all(|x| x.is_finite()));
        if !(risk.excess_risk.is_finite() && risk.mse.is_finite() && finite_angles) {
            let c = &self.config;
            let (field, advice) = match job {
                Job::LocalGd => (
                    "local_step",
                    format!(
                        "local_step = {} is too large a step for each user's gradient descent",
                        c.local_step
                    ),
                ),
                Job::PrivAltMin { .. } => (
                    "altmin_clip",
                    "the clips set the noise's scale: try the defaults (1e-4)".to_string(),
                ),
                _ if c.clip > 100.0 => (
                    "clip",
                    format!("ψ = {} makes the noise σ = {sigma:e} per round", c.clip),
                ),
                _ => ("eta", format!("the step η = {} overshoots", c.step)),
            };
            return Err(RunError::Diverged {
                method: self.job_label(job),
                what: "its representation or risk is no longer a finite number".into(),
                field: field.into(),
                advice,
            });
        }
        let (method, epsilon) = self.job_identity(job);
        // In sweep order, whatever order the runs finish in.
        let at = self.rows.partition_point(|r| r.order < order);
        self.rows.insert(
            at,
            ResultRow {
                method,
                epsilon,
                delta: self.config.delta,
                seed: self.config.seed,
                excess_risk: risk.excess_risk,
                mse: risk.mse,
                principal_angle: angles.and_then(|a| a.last().copied()).unwrap_or(f64::NAN),
                sigma,
                epsilon_spent: privacy.as_ref().map_or(f64::INFINITY, |p| p.epsilon_exact),
                clipped_fraction,
                variant: self.variant(job),
                privacy_reading: privacy.as_ref().map(|p| p.plain_language()),
                privacy,
                order,
            },
        );
        if let Some(angles) = angles {
            let at = self.curves.partition_point(|c| c.order < order);
            self.curves.insert(at, self.curve_of(order, job, angles));
        }
        Ok(())
    }

    /// Noise seed of a job: independent of every other job and of the data.
    fn job_seed(&self, job: &Job) -> u64 {
        let tag = match job {
            Job::FedRepReference => 1,
            Job::LocalGd => 2,
            Job::PrivateFedRep { epsilon_index } => 100 + *epsilon_index as u64,
            Job::PrivAltMin { epsilon_index } => 200 + *epsilon_index as u64,
        };
        combine(self.config.seed, tag)
    }

    /// Starts run `index`; a FedRep run starts with every FedRep run after it
    /// (all of them: they come first) as one group.
    fn start_job(&self, index: usize) -> Result<Running, RunError> {
        let c = &self.config;
        let job = &self.jobs[index].1;
        match job {
            Job::LocalGd => Ok(match self.share {
                Some(_) => Running::SplitLocalGd {
                    next_user: self.my_users(USERS_PER_LOCAL_STEP).start,
                },
                None => Running::LocalGd {
                    next_user: 0,
                    sum: 0.0,
                },
            }),
            Job::FedRepReference | Job::PrivateFedRep { .. } => {
                let mut runs = Vec::new();
                for (order, job) in self.jobs[index..].iter().take_while(|(_, j)| is_fedrep(j)) {
                    let (model, privacy, sigma) = self.new_fedrep(job)?;
                    runs.push(GroupRun {
                        order: *order,
                        job: job.clone(),
                        model,
                        privacy,
                        sigma,
                    });
                }
                // Each pass starts at this worker's first block or user.
                Ok(Running::FedRepGroup { runs, next: 0 })
            }
            Job::PrivAltMin { .. } if self.share.is_some() => Err(RunError::Config(
                "Priv-AltMin does not split by users; run it with altmin on in whole runs".into(),
            )),
            Job::PrivAltMin { epsilon_index } => {
                let epsilon = c.epsilons[*epsilon_index];
                let plan = plan_priv_altmin(c, epsilon)?;
                let u0 = self.initialization(*epsilon_index, plan.init_sigma);
                let run = PrivAltMin::new(&self.data, u0, plan.params, self.job_seed(job));
                Ok(Running::Model {
                    model: Box::new(run),
                    privacy: Some(plan.report),
                    sigma: plan.sigma_w,
                    finishing: None,
                })
            }
        }
    }

    /// A FedRep run (the non-private reference or Private FedRep at one ε)
    /// from its U_0, with its privacy report and σ̂.
    fn new_fedrep(
        &self,
        job: &Job,
    ) -> Result<(FedRep, Option<PrivacyReport>, f64), AccountingError> {
        let c = &self.config;
        match job {
            Job::PrivateFedRep { epsilon_index } => {
                let epsilon = c.epsilons[*epsilon_index];
                let plan = plan_private_fedrep(c, epsilon)?;
                let seed = self.job_seed(job);
                let u0 = self.initialization(*epsilon_index, plan.init_sigma);
                let params = FedRepParams {
                    rounds: c.rounds,
                    step: c.step,
                    clip: Some(c.clip),
                    sigma: plan.sigma,
                    batch: c.batch,
                };
                Ok((
                    FedRep::new(&self.data, u0, params, seed),
                    Some(plan.report),
                    plan.sigma,
                ))
            }
            _ => {
                let u0 = match self.stat.as_ref() {
                    Some(stat) => {
                        let mut rng = stream(self.job_seed(job), Purpose::Initialization, 0);
                        spectral_init(stat, 0.0, c.k, &mut rng)
                    }
                    None => self.random_initialization(),
                };
                let params = FedRepParams {
                    rounds: c.rounds,
                    step: c.step,
                    clip: Some(c.clip),
                    sigma: 0.0,
                    batch: c.batch,
                };
                Ok((
                    FedRep::new(&self.data, u0, params, self.job_seed(job)),
                    None,
                    0.0,
                ))
            }
        }
    }

    /// The initialization statistic's accumulator: clipped for a private
    /// initialization (Alg. 2 line 5), unclipped otherwise.
    fn statistic_accumulator(&self) -> SpectralAccumulator {
        let clip = match self.config.init {
            InitMode::Private => Some(self.config.init_clip),
            _ => None,
        };
        SpectralAccumulator::new(&self.data, clip, self.config.init_normalization)
    }

    /// Split by users: this worker's users of a pass cut into chunks of
    /// `per_chunk` users.
    fn my_users(&self, per_chunk: usize) -> std::ops::Range<usize> {
        let n = self.config.n;
        let share = self.share.unwrap_or(UserShare { index: 0, count: 1 });
        let chunks = share.chunks(n.div_ceil(per_chunk));
        (chunks.start * per_chunk).min(n)..(chunks.end * per_chunk).min(n)
    }

    /// Split by users: this worker's user blocks of a round (the blocks of
    /// its chunks of USERS_PER_STEP users).
    fn my_blocks(&self) -> std::ops::Range<usize> {
        let users = self.my_users(USERS_PER_STEP);
        users.start / USER_BLOCK..users.end.div_ceil(USER_BLOCK)
    }

    /// Split by users: the pass is done here; its partials wait to be taken
    /// ([`take_outbox`](Self::take_outbox)) and the run waits for every
    /// worker's ([`deliver`](Self::deliver)).
    fn post(&mut self) {
        let partials = std::mem::take(&mut self.mine);
        // Writing plain data to memory cannot fail.
        self.outbox = Some(postcard::to_allocvec(&partials).unwrap_or_default());
        self.waiting = true;
    }

    /// Whether the run waits for the other workers' partials.
    pub fn waiting(&self) -> bool {
        self.waiting
    }

    /// The partials of the pass just finished, once (then None until the next).
    pub fn take_outbox(&mut self) -> Option<Vec<u8>> {
        self.outbox.take()
    }

    /// Split by users: one chunk of this worker's share of the statistic,
    /// summed on its own (the single-worker pass sums the same chunks).
    fn split_statistics_step(&mut self, next_user: usize) -> Result<bool, RunError> {
        let mine = self.my_users(USERS_PER_STEP);
        let start = next_user.max(mine.start);
        let mut next_user = mine.end;
        if start < mine.end {
            let end = (start + USERS_PER_STEP).min(mine.end);
            let mut chunk = self.statistic_accumulator();
            chunk.add_users(&self.data, start..end);
            self.mine.statistic.push(chunk.into_partial());
            self.units_done += 1;
            next_user = end;
        }
        if next_user >= mine.end {
            self.post();
        }
        self.phase = Phase::Statistics {
            next_user,
            acc: None,
        };
        Ok(false)
    }

    /// Split by users: one chunk of this worker's share of local GD; posts the
    /// partials after its last chunk.
    fn split_local_gd_step(&mut self, index: usize, next_user: usize) -> Phase {
        let mine = self.my_users(USERS_PER_LOCAL_STEP);
        let mut next_user = next_user.max(mine.start);
        if next_user < mine.end {
            let end = (next_user + USERS_PER_LOCAL_STEP).min(mine.end);
            let sum = local_gd_risk_sum(&self.data, &self.local_gd_params(), next_user..end);
            append_per_run(&mut self.mine.sums, vec![vec![sum]]);
            self.units_done += 1;
            next_user = end;
        }
        if next_user >= mine.end {
            self.post();
        }
        Phase::Jobs {
            index,
            running: Some(Running::SplitLocalGd { next_user }),
        }
    }

    /// Split by users: every worker's partials of the pass the run waits on,
    /// in worker order (so their chunks are in user order). Each worker adds
    /// them exactly as the single-worker run adds its chunks, so every worker
    /// holds the single-worker numbers: the statistic (Alg. 2), U_{t+1} after
    /// a round (Alg. 1 lines 8–10, noise from the run's own seeded stream),
    /// the final risk.
    pub fn deliver(&mut self, parts: &[Vec<u8>]) -> Result<(), RunError> {
        let share = match self.share {
            Some(share) if self.waiting => share,
            _ => return Err(RunError::Part("no pass waits for partials".into())),
        };
        if parts.len() != share.count {
            return Err(RunError::Part(format!(
                "{} partials for {} workers",
                parts.len(),
                share.count
            )));
        }
        let mut all = Partials::default();
        for p in decode_partials::<Partials>(parts)? {
            all.append(p);
        }
        // Checked before anything changes: refused partials leave the run as it was.
        let n = self.config.n;
        let (what, got, want, runs) = match &self.phase {
            Phase::Statistics { .. } => (
                "statistic chunks",
                vec![all.statistic.len()],
                n.div_ceil(USERS_PER_STEP),
                1,
            ),
            Phase::Jobs {
                running: Some(Running::FedRepGroup { runs, .. }),
                ..
            } if !runs[0].model.is_done() => (
                "user blocks",
                counts(&all.blocks),
                n.div_ceil(USER_BLOCK),
                runs.len(),
            ),
            Phase::Jobs {
                running: Some(Running::FedRepGroup { runs, .. }),
                ..
            } => (
                "final chunks",
                counts(&all.sums),
                n.div_ceil(USERS_PER_STEP),
                runs.len(),
            ),
            Phase::Jobs {
                running: Some(Running::SplitLocalGd { .. }),
                ..
            } => (
                "local chunks",
                counts(&all.sums),
                n.div_ceil(USERS_PER_LOCAL_STEP),
                1,
            ),
            _ => {
                return Err(RunError::Part(
                    "partials for a pass that is not running".into(),
                ))
            }
        };
        if got.len() != runs {
            return Err(RunError::Part(format!(
                "partials of {} runs where {runs} were expected",
                got.len()
            )));
        }
        if let Some(&got) = got.iter().find(|&&g| g != want) {
            return Err(RunError::Part(format!(
                "{got} {what} where {want} were expected"
            )));
        }
        let phase = std::mem::replace(&mut self.phase, Phase::Done);
        let applied = match phase {
            Phase::Statistics { .. } => {
                let mut acc = self.statistic_accumulator();
                for p in &all.statistic {
                    acc.add_partial(p);
                }
                self.stat = Some(acc.finish());
                Ok(Phase::Jobs {
                    index: 0,
                    running: None,
                })
            }
            Phase::Jobs {
                index,
                running: Some(Running::FedRepGroup { runs, .. }),
            } => self.apply_group_pass(index, runs, all),
            Phase::Jobs {
                index,
                running: Some(Running::SplitLocalGd { .. }),
            } => {
                let sum = all.sums[0].iter().fold(0.0, |s, c| s + c);
                let risk = risk_from_sum(&self.data, sum);
                let (order, job) = self.jobs[index].clone();
                self.push_result(order, &job, risk, None, 0.0, None, f64::NAN)
                    .map(|()| self.after_job(index))
            }
            other => Ok(other),
        };
        self.waiting = false;
        self.phase = applied?;
        Ok(())
    }

    /// The phase after run `index` is finished.
    fn after_job(&self, index: usize) -> Phase {
        if index + 1 < self.jobs.len() {
            Phase::Jobs {
                index: index + 1,
                running: None,
            }
        } else {
            Phase::Done
        }
    }

    /// U_0 of both private methods at ε number `epsilon_index`: Algorithm 2
    /// with noise σ_init (None: the non-private spectral estimator). The noise
    /// is drawn from Private FedRep's stream for that ε, so Priv-AltMin starts
    /// from exactly Private FedRep's U_0 whenever their σ_init agree (always
    /// under `exact`, `paper` and `authors-code`; both plans give the init the
    /// same σ): the comparison is between the methods, not between two inits.
    fn initialization(&self, epsilon_index: usize, init_sigma: Option<f64>) -> DMatrix<f64> {
        if self.config.init == InitMode::Random {
            return self.random_initialization();
        }
        let seed = self.job_seed(&Job::PrivateFedRep { epsilon_index });
        let mut rng = NoiseSource::new(seed).release(u64::MAX);
        let sigma = match (self.config.init, init_sigma) {
            (InitMode::Private, Some(sigma_init)) => sigma_init,
            _ => 0.0,
        };
        let stat = self.stat.as_ref().expect("statistics computed");
        spectral_init(stat, sigma, self.config.k, &mut rng)
    }

    /// `init = random`: U_0 = Q of a QR of a d×k N(0, 1) matrix, drawn from
    /// the sweep's seed only, so the reference and every private run start
    /// from the same U_0 (and it never sees the data: no privacy cost).
    fn random_initialization(&self) -> DMatrix<f64> {
        let mut rng = stream(self.config.seed, Purpose::Initialization, u64::MAX);
        orthonormalize(gaussian_matrix(self.config.d, self.config.k, &mut rng))
    }

    fn job_identity(&self, job: &Job) -> (String, Option<f64>) {
        match job {
            Job::FedRepReference => ("fedrep".into(), None),
            Job::LocalGd => ("local-gd".into(), None),
            Job::PrivateFedRep { epsilon_index } => (
                "private-fedrep".into(),
                Some(self.config.epsilons[*epsilon_index]),
            ),
            Job::PrivAltMin { epsilon_index } => (
                "priv-altmin".into(),
                Some(self.config.epsilons[*epsilon_index]),
            ),
        }
    }

    fn job_label(&self, job: &Job) -> String {
        match job {
            Job::FedRepReference => "FedRep (non-private)".into(),
            Job::LocalGd => "local GD (non-private)".into(),
            Job::PrivateFedRep { epsilon_index } => format!(
                "Private FedRep, ε = {}",
                self.config.epsilons[*epsilon_index]
            ),
            Job::PrivAltMin { epsilon_index } => {
                format!("Priv-AltMin, ε = {}", self.config.epsilons[*epsilon_index])
            }
        }
    }

    /// "FedRep (non-private) and Private FedRep, ε = 1, 2, 4": the runs of a group.
    fn group_label<'a>(&self, jobs: impl Iterator<Item = &'a Job>) -> String {
        let jobs: Vec<&Job> = jobs.collect();
        let mut parts = Vec::new();
        if jobs.contains(&&Job::FedRepReference) {
            parts.push(self.job_label(&Job::FedRepReference));
        }
        let epsilons: Vec<String> = jobs
            .iter()
            .filter_map(|job| match job {
                Job::PrivateFedRep { epsilon_index } => {
                    Some(self.config.epsilons[*epsilon_index].to_string())
                }
                _ => None,
            })
            .collect();
        if !epsilons.is_empty() {
            parts.push(format!("Private FedRep, ε = {}", epsilons.join(", ")));
        }
        parts.join(" and ")
    }

    fn variant(&self, job: &Job) -> String {
        let c = &self.config;
        match job {
            Job::FedRepReference => format!(
                "non-private spectral init; batch {}; clip {}",
                c.batch.name(),
                c.clip
            ),
            Job::LocalGd => format!(
                "{} steps of size {} per user; clip {}",
                c.local_steps, c.local_step, c.clip
            ),
            Job::PrivateFedRep { .. } => format!(
                "{} init; batch {}; calibration {}",
                c.init.name(),
                c.batch.name(),
                c.calibration.name()
            ),
            Job::PrivAltMin { .. } => format!(
                "{} init; {} users; T = {}; clips c_x {} c_y {}; calibration {}",
                c.init.name(),
                c.altmin_mode.name(),
                c.altmin_rounds,
                c.altmin_clip,
                c.altmin_label_clip,
                c.calibration.name()
            ),
        }
    }

    fn curve_of(&self, order: usize, job: &Job, angles: &[f64]) -> AngleCurve {
        let (method, epsilon) = self.job_identity(job);
        AngleCurve {
            method,
            epsilon,
            angles: angles.to_vec(),
            seed: self.config.seed,
            order,
        }
    }
}

/// Which shard computes each run (indexed by `order`): longest runs first, each
/// to the least loaded shard ([`crate::scenarios::assign_longest_first`]).
pub(super) fn assign_shards(config: &FedRepConfig, per_seed: &[Job], shards: usize) -> Vec<usize> {
    // Relative cost in passes over the users. A Priv-AltMin iteration over all
    // n users costs about 3 FedRep rounds (native timings of the default sweep,
    // stored and streamed, in both user modes); disjoint groups read every
    // user once over the run, all-users T times.
    let altmin_reads = (0..config.altmin_rounds)
        .map(|t| participants(config.altmin_mode.mode(), config.altmin_rounds, config.n, t).len())
        .sum::<usize>() as f64
        / config.n.max(1) as f64;
    let cost = |job: &Job| match job {
        Job::FedRepReference | Job::PrivateFedRep { .. } => (config.rounds + 1) as f64,
        Job::PrivAltMin { .. } => 3.0 * altmin_reads + 0.5,
        Job::LocalGd => 0.5,
    };
    let costs: Vec<f64> = (0..config.seeds)
        .flat_map(|_| per_seed.iter().map(cost))
        .collect();
    crate::scenarios::assign_longest_first(&costs, shards)
}

/// A whole Private FedRep sweep: `seeds` datasets (seed, seed+1, …), each with
/// every run, or — for a pool of workers — only the runs of one shard (the
/// longest runs first, each to the least loaded shard). Every run depends only on
/// (config, seed, job), never on the shard that computes it, so merging the
/// shards' rows in `order` gives exactly the single-worker sweep.
pub struct FedRepSweep {
    config: FedRepConfig,
    parts: Vec<SeedSweep>,
    current: usize,
}

impl FedRepSweep {
    /// Validates the config; the whole sweep in one worker.
    pub fn new(config: FedRepConfig) -> Result<Self, ConfigError> {
        Self::new_shard(config, 0, 1)
    }

    /// Validates the config; only the runs of shard `shard` of `shards`.
    pub fn new_shard(
        config: FedRepConfig,
        shard: usize,
        shards: usize,
    ) -> Result<Self, ConfigError> {
        config.validate()?;
        Shard {
            index: shard,
            count: shards,
        }
        .check()?;
        let per_seed = jobs_of_one_seed(&config);
        let owner = assign_shards(&config, &per_seed, shards);
        let mut parts = Vec::new();
        for s in 0..config.seeds {
            let jobs: Vec<(usize, Job)> = per_seed
                .iter()
                .enumerate()
                .map(|(j, job)| (s * per_seed.len() + j, job.clone()))
                .filter(|(order, _)| owner[*order] == shard)
                .collect();
            if jobs.is_empty() {
                continue;
            }
            let seed_config = FedRepConfig {
                seed: config.seed.wrapping_add(s as u64),
                seeds: 1,
                ..config.clone()
            };
            parts.push(SeedSweep::new(seed_config, jobs, None));
        }
        Ok(FedRepSweep {
            config,
            parts,
            current: 0,
        })
    }

    /// Validates the config; every run of the sweep, with worker `index` of
    /// `count` computing its share of each pass over the users and every worker
    /// applying all the shares (see [`UserShare`]): every worker ends with the
    /// single-worker results. Priv-AltMin's iterations are not cut into
    /// blocks, so a sweep with it does not split by users.
    pub fn new_user_split(
        config: FedRepConfig,
        index: usize,
        count: usize,
    ) -> Result<Self, ConfigError> {
        config.validate()?;
        Shard { index, count }.check()?;
        if config.altmin {
            return Err(ConfigError::invalid(
                "altmin",
                "a sweep with Priv-AltMin splits by runs, not by users",
            ));
        }
        let per_seed = jobs_of_one_seed(&config);
        let parts = (0..config.seeds)
            .map(|s| {
                let jobs = per_seed
                    .iter()
                    .enumerate()
                    .map(|(j, job)| (s * per_seed.len() + j, job.clone()))
                    .collect();
                let seed_config = FedRepConfig {
                    seed: config.seed.wrapping_add(s as u64),
                    seeds: 1,
                    ..config.clone()
                };
                SeedSweep::new(seed_config, jobs, Some(UserShare { index, count }))
            })
            .collect();
        Ok(FedRepSweep {
            config,
            parts,
            current: 0,
        })
    }

    pub fn config(&self) -> &FedRepConfig {
        &self.config
    }

    pub fn is_done(&self) -> bool {
        self.current >= self.parts.len()
    }

    /// Split by users: whether the run waits for the other workers' partials.
    pub fn waiting(&self) -> bool {
        self.parts.get(self.current).is_some_and(|p| p.waiting())
    }

    /// Split by users: this worker's partials of the pass just finished, once.
    pub fn take_outbox(&mut self) -> Option<Vec<u8>> {
        self.parts.get_mut(self.current)?.take_outbox()
    }

    /// Split by users: every worker's partials (worker order) of the pass the
    /// run waits on.
    pub fn deliver(&mut self, parts: &[Vec<u8>]) -> Result<(), RunError> {
        match self.parts.get_mut(self.current) {
            Some(p) => p.deliver(parts),
            None => Err(RunError::Part("the sweep is finished".into())),
        }
    }

    pub fn progress(&self) -> (usize, usize) {
        self.parts.iter().fold((0, 0), |(d, t), p| {
            let (pd, pt) = p.progress();
            (d + pd, t + pt)
        })
    }

    /// Finished rows of every seed, in sweep order.
    pub fn rows(&self) -> Vec<ResultRow> {
        self.parts
            .iter()
            .flat_map(|p| p.rows().iter().cloned())
            .collect()
    }

    /// Finished curves plus the one being computed.
    pub fn curves(&self) -> Vec<AngleCurve> {
        self.parts.iter().flat_map(|p| p.curves()).collect()
    }

    pub fn phase_label(&self) -> String {
        match self.parts.get(self.current) {
            Some(p) if self.config.seeds > 1 => {
                format!("seed {}: {}", p.config.seed, p.phase_label())
            }
            Some(p) => p.phase_label(),
            None => "done".into(),
        }
    }

    /// Runs to the end (CLI, tests).
    pub fn run_to_end(&mut self) -> Result<(), RunError> {
        while !self.step()? {}
        Ok(())
    }

    /// One bounded unit of work; Ok(true) once everything is done. A seed's
    /// dataset is dropped as soon as its runs are finished.
    pub fn step(&mut self) -> Result<bool, RunError> {
        if let Some(part) = self.parts.get_mut(self.current) {
            if part.step()? {
                part.release_data();
                self.current += 1;
            }
        }
        Ok(self.is_done())
    }
}

/// The rows and curves of the shards of one sweep, merged in sweep order:
/// exactly what one worker running every run gives, since each run depends only
/// on (config, seed, run). Used by the page's pool and the CLI's threads.
pub fn merge_shards(
    parts: impl IntoIterator<Item = (Vec<ResultRow>, Vec<AngleCurve>)>,
) -> (Vec<ResultRow>, Vec<AngleCurve>) {
    let (mut rows, mut curves) = (Vec::new(), Vec::new());
    for (r, c) in parts {
        rows.extend(r);
        curves.extend(c);
    }
    rows.sort_by_key(|r| r.order);
    curves.sort_by_key(|c| c.order);
    (rows, curves)
}
