//! A Private FedRep sweep split by users: each worker's share of every pass
//! over the users (the initialization statistic of Algorithm 2, each round of
//! Algorithm 1, the final heads, local GD), the partial sums it posts after a
//! pass, and how every worker adds all the workers' partials in user order so
//! that each holds the single-worker numbers.

use super::{Phase, Running, SeedSweep, BLOCKS_PER_STEP, USERS_PER_LOCAL_STEP, USERS_PER_STEP};
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
/// the pass (several FedRep runs share a pass; local GD computed in the final
/// pass is one more), for the chunks listed in `chunks` (in the order
/// computed): what a worker of a sweep split by users sends the others after
/// a pass, and what a whole run gathers before it applies the pass. Small: a
/// d×d matrix per chunk of the statistic, d×k numbers per block of a round,
/// one number per chunk of a final pass.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(super) struct Partials {
    /// The pass's chunks (of USERS_PER_STEP users) these partials are of.
    pub(super) chunks: Vec<usize>,
    pub(super) statistic: Vec<StatisticPartial>,
    /// Per run: its user blocks' gradient sums, in the order of `chunks`.
    pub(super) blocks: Vec<Vec<BlockPartial>>,
    /// Per run: its chunks' sums, in the order of `chunks`.
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

/// The user blocks of chunk `chunk` of a pass over `n` users.
pub(super) fn blocks_of_chunk(n: usize, chunk: usize) -> std::ops::Range<usize> {
    let total = n.div_ceil(USER_BLOCK);
    (chunk * BLOCKS_PER_STEP).min(total)..((chunk + 1) * BLOCKS_PER_STEP).min(total)
}

/// The users of chunk `chunk` of a pass over `n` users.
pub(super) fn users_of_chunk(n: usize, chunk: usize) -> std::ops::Range<usize> {
    (chunk * USERS_PER_STEP).min(n)..((chunk + 1) * USERS_PER_STEP).min(n)
}

/// One chunk's entries of a [`Partials`].
struct ChunkEntries {
    chunk: usize,
    statistic: Option<StatisticPartial>,
    blocks: Vec<Vec<BlockPartial>>,
    sums: Vec<Option<f64>>,
}

impl Partials {
    /// Every worker's partials of one pass as the partials of the whole pass
    /// in chunk order (0, 1, …), whichever worker computed which chunk: the
    /// sums a single worker adds, in its order. Refused unless each of the
    /// pass's `chunks` chunks of `n` users is there exactly once.
    fn in_chunk_order(parts: Vec<Partials>, n: usize, chunks: usize) -> Result<Partials, RunError> {
        let mut entries = Vec::new();
        for p in parts {
            let runs = p.blocks.len().max(p.sums.len());
            let mut statistic = p.statistic.into_iter();
            let mut blocks: Vec<_> = p.blocks.into_iter().map(Vec::into_iter).collect();
            let mut sums: Vec<_> = p.sums.into_iter().map(Vec::into_iter).collect();
            for &chunk in &p.chunks {
                let of_chunk = blocks_of_chunk(n, chunk).len();
                entries.push(ChunkEntries {
                    chunk,
                    statistic: statistic.next(),
                    blocks: blocks
                        .iter_mut()
                        .map(|b| b.by_ref().take(of_chunk).collect())
                        .collect(),
                    sums: sums.iter_mut().map(Iterator::next).collect(),
                });
            }
            if statistic.next().is_some()
                || blocks.iter_mut().any(|b| b.next().is_some())
                || sums.iter_mut().any(|s| s.next().is_some())
            {
                return Err(RunError::Part(format!(
                    "partials of {} chunks hold more entries ({runs} runs)",
                    p.chunks.len()
                )));
            }
        }
        entries.sort_by_key(|e| e.chunk);
        if entries.len() != chunks || entries.iter().enumerate().any(|(i, e)| e.chunk != i) {
            return Err(RunError::Part(format!(
                "partials of chunks {:?} where chunks 0..{chunks} were expected",
                entries.iter().map(|e| e.chunk).collect::<Vec<_>>()
            )));
        }
        let mut all = Partials::default();
        for e in entries {
            all.chunks.push(e.chunk);
            all.statistic.extend(e.statistic);
            append_per_run(&mut all.blocks, e.blocks);
            append_per_run(
                &mut all.sums,
                e.sums
                    .into_iter()
                    .map(|s| s.into_iter().collect())
                    .collect(),
            );
        }
        Ok(all)
    }
}

/// Chunks handed out one by one as a worker frees up (this project's way of
/// balancing a pass over workers of unequal speed; the sums do not change:
/// they are added in chunk order, see [`Partials::in_chunk_order`]): the
/// pool numbers a pass's chunks 0, 1, … in the order workers ask, and a
/// number past the pass's last chunk tells a worker there are none left.
#[derive(Debug, Default)]
pub(super) struct HandOut {
    /// Chunks given to this worker and not computed yet.
    granted: std::collections::VecDeque<usize>,
    /// Claims sent and not answered yet.
    asked: usize,
    /// A number past the pass's last chunk came: ask no more.
    exhausted: bool,
}

/// Chunks a worker asks for ahead of the one it computes, so that it never
/// waits for the pool's answer between two chunks.
const CLAIMS_AHEAD: usize = 2;

/// What a worker does next in a pass it shares.
pub(super) enum Take {
    /// Compute this chunk.
    Chunk(usize),
    /// Its chunks are done: the pass's partials can be posted (or applied).
    Done,
    /// Handed out: wait for the pool's answer.
    Wait,
}
impl SeedSweep {
    /// The chunks of a pass given to this worker when they are not handed
    /// out: a contiguous share of them (all of them for a whole run).
    fn my_chunks(&self) -> std::ops::Range<usize> {
        let share = self.share.unwrap_or(UserShare { index: 0, count: 1 });
        share.chunks(self.config.n.div_ceil(USERS_PER_STEP))
    }

    /// The next chunk of this worker's share of the current pass: `cursor`
    /// is its next chunk in a contiguous share (raised to the share's first;
    /// 0 at the start of a pass), unused when chunks are handed out.
    pub(super) fn take_chunk(&mut self, cursor: &mut usize) -> Take {
        if let Some(h) = self.hand_out.as_mut() {
            return match h.granted.pop_front() {
                Some(chunk) => Take::Chunk(chunk),
                None if h.exhausted && h.asked == 0 => Take::Done,
                None => Take::Wait,
            };
        }
        let mine = self.my_chunks();
        let chunk = (*cursor).max(mine.start);
        if chunk < mine.end {
            *cursor = chunk + 1;
            Take::Chunk(chunk)
        } else {
            Take::Done
        }
    }

    /// Whether this worker has computed its share of the pass after a chunk
    /// (`cursor` as in [`take_chunk`](Self::take_chunk)).
    pub(super) fn share_done(&self, cursor: usize) -> bool {
        match &self.hand_out {
            Some(h) => h.granted.is_empty() && h.exhausted && h.asked == 0,
            None => cursor.max(self.my_chunks().start) >= self.my_chunks().end,
        }
    }

    /// Whether a pass this worker may share is in progress (not between
    /// runs, not done).
    fn in_pass(&self) -> bool {
        matches!(
            self.phase,
            Phase::Statistics { .. }
                | Phase::Jobs {
                    running: Some(Running::FedRepGroup { .. } | Running::SplitLocalGd { .. }),
                    ..
                }
        )
    }

    /// Split by users: from now on, this worker's chunks of each pass are
    /// handed out ([`claim`](Self::claim), [`grant`](Self::grant)) instead of
    /// a fixed share; progress counts every worker's chunks.
    pub fn hand_out_chunks(&mut self) -> bool {
        if self.share.is_none() {
            return false;
        }
        self.hand_out = Some(HandOut::default());
        self.units_total = self.whole_units;
        true
    }

    /// Handed out: whether the run asks for one more chunk of the pass in
    /// progress (and counts the claim as sent).
    pub fn claim(&mut self) -> bool {
        let in_pass = self.in_pass() && !self.waiting;
        match self.hand_out.as_mut() {
            Some(h) if in_pass && !h.exhausted && h.granted.len() + h.asked < CLAIMS_AHEAD => {
                h.asked += 1;
                true
            }
            _ => false,
        }
    }

    /// Handed out: the pool's answer to a claim, the number of a chunk of the
    /// pass in progress for this worker to compute (past the last: none left).
    pub fn grant(&mut self, chunk: usize) -> Result<(), RunError> {
        let chunks = self.config.n.div_ceil(USERS_PER_STEP);
        match self.hand_out.as_mut() {
            Some(h) if h.asked > 0 => {
                h.asked -= 1;
                if chunk < chunks {
                    h.granted.push_back(chunk);
                } else {
                    h.exhausted = true;
                }
                Ok(())
            }
            _ => Err(RunError::Part(
                "a chunk granted where none was asked for".into(),
            )),
        }
    }

    /// Handed out: the run waits for the pool's answer to its claims.
    fn starving(&self) -> bool {
        self.in_pass()
            && self
                .hand_out
                .as_ref()
                .is_some_and(|h| h.granted.is_empty() && !(h.exhausted && h.asked == 0))
    }

    /// Split by users: the pass is done here; its partials wait to be taken
    /// ([`take_outbox`](Self::take_outbox)) and the run waits for every
    /// worker's ([`deliver`](Self::deliver)).
    pub(super) fn post(&mut self) {
        let partials = std::mem::take(&mut self.mine);
        self.posted_chunks = partials.chunks.len();
        // Writing plain data to memory cannot fail.
        self.outbox = Some(postcard::to_allocvec(&partials).unwrap_or_default());
        self.waiting = true;
    }

    /// Whether the run waits for the other workers' partials (or, handed
    /// out, for a chunk).
    pub fn waiting(&self) -> bool {
        self.waiting || self.starving()
    }

    /// The partials of the pass just finished, once (then None until the next).
    pub fn take_outbox(&mut self) -> Option<Vec<u8>> {
        self.outbox.take()
    }

    /// Split by users: one chunk of this worker's share of the statistic,
    /// summed on its own (the single-worker pass sums the same chunks).
    pub(super) fn split_statistics_step(&mut self, next_user: usize) -> Result<bool, RunError> {
        let mut cursor = next_user.div_ceil(USERS_PER_STEP);
        let mut next_user = next_user;
        if let Take::Chunk(c) = self.take_chunk(&mut cursor) {
            let users = users_of_chunk(self.config.n, c);
            let mut chunk = self.statistic_accumulator();
            chunk.add_users(&self.data, users.clone());
            self.mine.chunks.push(c);
            self.mine.statistic.push(chunk.into_partial());
            self.units_done += 1;
            next_user = users.end;
        }
        if self.share_done(cursor) {
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
        let mut cursor = next_user.div_ceil(USERS_PER_LOCAL_STEP);
        let mut next_user = next_user;
        if let Take::Chunk(c) = self.take_chunk(&mut cursor) {
            let users = users_of_chunk(self.config.n, c);
            let sum = local_gd_risk_sum(&self.data, &self.local_gd_params(), users.clone());
            self.mine.chunks.push(c);
            append_per_run(&mut self.mine.sums, vec![vec![sum]]);
            self.units_done += 1;
            next_user = users.end;
        }
        if self.share_done(cursor) {
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
        // Checked before anything changes: refused partials leave the run as it was.
        let n = self.config.n;
        let all = Partials::in_chunk_order(
            decode_partials::<Partials>(parts)?,
            n,
            n.div_ceil(USERS_PER_STEP),
        )?;
        // (what, entries per run, entries wanted, runs, progress units per chunk)
        let (what, got, want, runs, units) = match &self.phase {
            Phase::Statistics { .. } => (
                "statistic chunks",
                vec![all.statistic.len()],
                n.div_ceil(USERS_PER_STEP),
                1,
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
                runs.len(),
            ),
            Phase::Jobs {
                running: Some(Running::FedRepGroup { runs, local, .. }),
                ..
            } => (
                "final chunks",
                counts(&all.sums),
                n.div_ceil(USERS_PER_STEP),
                runs.len() + usize::from(*local),
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
        if self.hand_out.is_some() {
            // Progress counts every worker's chunks (a unit per run of a chunk).
            let others = all.chunks.len() - self.posted_chunks;
            self.units_done += others * units;
            self.hand_out = Some(HandOut::default());
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
                running: Some(Running::FedRepGroup { runs, local, .. }),
            } => self.apply_group_pass(index, runs, local, all),
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
