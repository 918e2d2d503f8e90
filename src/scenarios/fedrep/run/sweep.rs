//! A whole Private FedRep sweep (Algorithm 1 at every ε, its references and
//! Priv-AltMin, Jain et al. 2021): its seeds' runs, a shard of them or every
//! run split by users, and the merge of the shards' rows and curves.

use super::super::config::FedRepConfig;
use super::super::jobs::{assign_shards, jobs_of_one_seed, Job};
use super::super::results::{AngleCurve, ResultRow};
use super::super::Part;
use super::user_split::UserShare;
use super::SeedSweep;
use crate::scenarios::adapter::Sweep;
use crate::scenarios::{Checked, ConfigError, RunError, Shard};

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
    /// The whole sweep in one worker.
    pub fn new(config: Checked<FedRepConfig>) -> Result<Self, ConfigError> {
        Self::new_shard(config, Shard::WHOLE)
    }

    /// Only the runs of `shard`.
    pub fn new_shard(config: Checked<FedRepConfig>, shard: Shard) -> Result<Self, ConfigError> {
        Self::new_shard_skipping(config, shard, &[])
    }

    /// Only the runs of `shard` among those not in `skip` (kept from an
    /// earlier sweep: the page's result cache); the others are shared out.
    pub fn new_shard_skipping(
        config: Checked<FedRepConfig>,
        shard: Shard,
        skip: &[usize],
    ) -> Result<Self, ConfigError> {
        let config = config.into_inner();
        shard.check()?;
        let per_seed = jobs_of_one_seed(&config);
        let owner = assign_shards(&config, &per_seed, shard.count, skip);
        let mut parts = Vec::new();
        for s in 0..config.seeds {
            let (seed_config, mut jobs) = one_seed(&config, &per_seed, s);
            jobs.retain(|(order, _)| owner[*order] == shard.index && !skip.contains(order));
            if !jobs.is_empty() {
                parts.push(SeedSweep::new(seed_config, jobs, None));
            }
        }
        Ok(FedRepSweep {
            config,
            parts,
            current: 0,
        })
    }

    /// Every run of the sweep, with worker `share.index` of `share.count`
    /// computing its share of each pass over the users and every worker
    /// applying all the shares (see [`UserShare`]): every worker ends with the
    /// single-worker results. Priv-AltMin's iterations are not cut into
    /// blocks, so a sweep with it does not split by users.
    pub fn new_user_split(
        config: Checked<FedRepConfig>,
        share: Shard,
    ) -> Result<Self, ConfigError> {
        let config = config.into_inner();
        share.check()?;
        if config.altmin {
            return Err(ConfigError::invalid(
                "altmin",
                "a sweep with Priv-AltMin splits by runs, not by users",
            ));
        }
        let per_seed = jobs_of_one_seed(&config);
        let (index, count) = (share.index, share.count);
        let parts = (0..config.seeds)
            .map(|s| {
                let (seed_config, jobs) = one_seed(&config, &per_seed, s);
                SeedSweep::new(seed_config, jobs, Some(UserShare { index, count }))
            })
            .collect();
        Ok(FedRepSweep {
            config,
            parts,
            current: 0,
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

    /// Runs to the end (CLI, tests).
    pub fn run_to_end(&mut self) -> Result<(), RunError> {
        while !self.step()? {}
        Ok(())
    }
}

/// Seed `s` of the sweep: its config (its own seed, one seed) and every
/// job of it, numbered in the whole sweep's order (seed by seed).
fn one_seed(
    config: &FedRepConfig,
    per_seed: &[Job],
    s: usize,
) -> (FedRepConfig, Vec<(usize, Job)>) {
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
    (seed_config, jobs)
}

impl Sweep for FedRepSweep {
    fn is_done(&self) -> bool {
        self.current >= self.parts.len()
    }

    /// Split by users: whether the run waits for the other workers' partials.
    fn waiting(&self) -> bool {
        self.parts.get(self.current).is_some_and(|p| p.waiting())
    }

    /// Split by users: hand out every seed's chunks (see [`SeedSweep::claim`]).
    fn hand_out_chunks(&mut self) -> bool {
        self.parts.iter_mut().all(|p| p.hand_out_chunks())
    }

    fn claim(&mut self) -> bool {
        self.parts.get_mut(self.current).is_some_and(|p| p.claim())
    }

    fn grant(&mut self, chunk: usize) -> Result<(), RunError> {
        match self.parts.get_mut(self.current) {
            Some(p) => p.grant(chunk),
            None => Err(RunError::Part("the sweep is finished".into())),
        }
    }

    /// Split by users: this worker's partials of the pass just finished, once.
    fn take_outbox(&mut self) -> Option<Vec<u8>> {
        self.parts.get_mut(self.current)?.take_outbox()
    }

    /// Split by users: every worker's partials (worker order) of the pass the
    /// run waits on.
    fn deliver(&mut self, parts: &[Vec<u8>]) -> Result<(), RunError> {
        match self.parts.get_mut(self.current) {
            Some(p) => p.deliver(parts),
            None => Err(RunError::Part("the sweep is finished".into())),
        }
    }

    fn progress(&self) -> (usize, usize) {
        self.parts.iter().fold((0, 0), |(d, t), p| {
            let (pd, pt) = p.progress();
            (d + pd, t + pt)
        })
    }

    fn phase(&self) -> String {
        match self.parts.get(self.current) {
            Some(p) if self.config.seeds > 1 => {
                format!("seed {}: {}", p.config.seed, p.phase_label())
            }
            Some(p) => p.phase_label(),
            None => "done".into(),
        }
    }

    /// One bounded unit of work; Ok(true) once everything is done. A seed's
    /// dataset is dropped as soon as its runs are finished.
    fn step(&mut self) -> Result<bool, RunError> {
        if let Some(part) = self.parts.get_mut(self.current) {
            if part.step()? {
                part.release_data();
                self.current += 1;
            }
        }
        Ok(self.is_done())
    }

    type Config = FedRepConfig;
    type Part = Part;
    fn config(&self) -> &FedRepConfig {
        &self.config
    }
    fn part(&self) -> Part {
        Part {
            rows: self.rows(),
            curves: self.curves(),
        }
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
