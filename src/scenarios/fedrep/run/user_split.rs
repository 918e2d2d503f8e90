//! A Private FedRep sweep split by users: each worker's share of every pass
//! over the users (the initialization statistic of Algorithm 2, each round of
//! Algorithm 1, the final heads, local GD), the partial sums it posts after a
//! pass, and how every worker adds all the workers' partials in user order so
//! that each holds the single-worker numbers.

use super::{Phase, Running, SeedSweep, USERS_PER_LOCAL_STEP, USERS_PER_STEP};
use crate::algorithms::fedrep::{risk_from_sum, BlockPartial, USER_BLOCK};
use crate::algorithms::local_gd::local_gd_risk_sum;
use crate::algorithms::private_init::StatisticPartial;
use crate::scenarios::{decode_partials, RunError};
use serde::{Deserialize, Serialize};

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
    pub(super) fn chunks(self, chunks: usize) -> std::ops::Range<usize> {
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
pub(super) struct Partials {
    pub(super) statistic: Vec<StatisticPartial>,
    /// Per run: its user blocks' gradient sums, in block order.
    pub(super) blocks: Vec<Vec<BlockPartial>>,
    /// Per run: its chunks' sums, in chunk order.
    pub(super) sums: Vec<Vec<f64>>,
}

/// How many entries each run's list holds.
fn counts<T>(lists: &[Vec<T>]) -> Vec<usize> {
    lists.iter().map(Vec::len).collect()
}

/// Appends `more`'s lists run by run (the list of run r to `lists[r]`).
pub(super) fn append_per_run<T>(lists: &mut Vec<Vec<T>>, more: Vec<Vec<T>>) {
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

impl SeedSweep {
    /// Split by users: this worker's users of a pass cut into chunks of
    /// `per_chunk` users.
    pub(super) fn my_users(&self, per_chunk: usize) -> std::ops::Range<usize> {
        let n = self.config.n;
        let share = self.share.unwrap_or(UserShare { index: 0, count: 1 });
        let chunks = share.chunks(n.div_ceil(per_chunk));
        (chunks.start * per_chunk).min(n)..(chunks.end * per_chunk).min(n)
    }

    /// Split by users: this worker's user blocks of a round (the blocks of
    /// its chunks of USERS_PER_STEP users).
    pub(super) fn my_blocks(&self) -> std::ops::Range<usize> {
        let users = self.my_users(USERS_PER_STEP);
        users.start / USER_BLOCK..users.end.div_ceil(USER_BLOCK)
    }

    /// Split by users: the pass is done here; its partials wait to be taken
    /// ([`take_outbox`](Self::take_outbox)) and the run waits for every
    /// worker's ([`deliver`](Self::deliver)).
    pub(super) fn post(&mut self) {
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
    pub(super) fn split_statistics_step(&mut self, next_user: usize) -> Result<bool, RunError> {
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
    pub(super) fn split_local_gd_step(&mut self, index: usize, next_user: usize) -> Phase {
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
}
