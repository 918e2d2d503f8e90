//! A Private FedRep sweep as a step-wise runner: one shared dataset per seed,
//! then non-private FedRep and local GD as references, Private FedRep at every
//! ε and (config `altmin`) Priv-AltMin (Jain et al. 2021) at every ε. Each
//! `step()` does one bounded unit of work (a chunk of users, or one round or
//! AltMin iteration of one run), so a Web Worker can report progress and
//! honour a cancel between steps.
//!
//! This file holds a seed's state machine and its steps; `runs` starts and
//! steps one run, `group` the FedRep runs' shared pass, `user_split` a sweep
//! split by users, `record` the rows, curves and labels, `sweep` the seeds.

use super::config::{FedRepConfig, InitMode};
// The runs of a sweep (their old path here is kept for the scenario's mod.rs).
pub(super) use super::jobs::{is_fedrep, jobs_of_one_seed, Job};
use super::results::{AngleCurve, ResultRow};
use crate::algorithms::fedrep::{FedRep, USER_BLOCK};
use crate::algorithms::priv_altmin::participants;
use crate::algorithms::private_init::{SpectralAccumulator, SpectralStatistic};
use crate::algorithms::stepwise::RepresentationLearner;
use crate::data::shared_representation::FederatedDataset;
use crate::data::shared_representation::Storage;
use crate::privacy::PrivacyReport;
use crate::scenarios::RunError;

mod group;
mod record;
pub mod round;
mod runs;
mod sweep;
mod user_split;

pub use sweep::{merge_shards, FedRepSweep};
use user_split::Partials;
pub use user_split::UserShare;

/// Users per step of a pass over the users (a multiple of the algorithms'
/// block sizes, so chunked passes add exactly the one-pass numbers).
const USERS_PER_STEP: usize = 32 * USER_BLOCK;

/// User blocks per step of a round (one step's users).
const BLOCKS_PER_STEP: usize = USERS_PER_STEP / USER_BLOCK;

/// Users drawn per step while generating data.
const USERS_PER_DATA_STEP: usize = 4000;
/// Users trained per step of the local GD baseline: the chunks of the final
/// pass, since local GD is computed there when a worker also holds the seed's
/// FedRep runs ([`Running::FedRepGroup`]'s `local`), and its sum must not
/// depend on where it ran.
const USERS_PER_LOCAL_STEP: usize = USERS_PER_STEP;

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
        /// Boxed: a report is large beside the other variants' few numbers.
        privacy: Option<Box<PrivacyReport>>,
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
        /// Local GD is the job after the group's runs and is computed in
        /// their final pass (each user's S⁰ points are part of what that
        /// pass reads): one pass over the users fewer.
        local: bool,
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
    /// Split by users, chunks handed out as workers free up (None: a
    /// contiguous share of each pass).
    hand_out: Option<user_split::HandOut>,
    /// Split by users: how many chunks this worker posted for the last pass.
    posted_chunks: usize,
    /// The units of the whole sweep of this seed (progress when chunks are
    /// handed out: every worker counts every chunk).
    whole_units: usize,
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
    pub(super) fn release_data(&mut self) {
        self.data = self.config.model().streamed();
        self.stat = None;
    }

    /// The given runs of `config.seed` (with `share`: this worker's users of
    /// each); allocates the dataset, draws nothing yet.
    pub(super) fn new(
        config: FedRepConfig,
        mut jobs: Vec<(usize, Job)>,
        share: Option<UserShare>,
    ) -> Self {
        // The FedRep runs first, as one group, then local GD (computed in
        // the group's final pass), then the rest (a stable sort: they keep
        // their order). Rows and curves are kept in sweep order whatever runs first.
        jobs.sort_by_key(|(_, job)| match job {
            _ if is_fedrep(job) => 0,
            Job::LocalGd => 1,
            _ => 2,
        });
        let count = |f: fn(&Job) -> bool| jobs.iter().filter(|(_, j)| f(j)).count();
        let fedrep_runs = count(is_fedrep);
        let altmin_runs = count(|j| matches!(j, Job::PrivAltMin { .. }));
        // Local GD takes steps of its own only without FedRep runs to fold into.
        let local_runs = if fedrep_runs > 0 {
            0
        } else {
            count(|j| matches!(j, Job::LocalGd))
        };
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
        let whole_units = data_units
            + statistic_units
            + fedrep_runs * per_run
            + local_runs * n.div_ceil(USERS_PER_LOCAL_STEP)
            + altmin_runs * per_altmin_run;
        let units_total = match share {
            // A step computes one of this worker's chunks (Priv-AltMin does not split).
            Some(share) => {
                let mine = share.chunks(pass).len();
                data_units
                    + if statistic_units > 0 { mine } else { 0 }
                    + fedrep_runs * (config.rounds + 1) * mine
                    + local_runs * share.chunks(n.div_ceil(USERS_PER_LOCAL_STEP)).len()
            }
            None => whole_units,
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
            hand_out: None,
            posted_chunks: 0,
            whole_units,
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
}
