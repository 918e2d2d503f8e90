//! How a sweep is shared between workers and put back together: a worker's
//! [`Shard`], the split of jobs by cost ([`assign_longest_first`]), and the
//! [`Plan`] of a sweep's jobs that a part's [`Stamps`] are checked against
//! when shards' parts are merged ([`decode_parts`]). Nothing here knows a
//! scenario: each gives its plan, its parts and the jobs its rows belong to.

use super::error::{ConfigError, RunError};
use serde::{Deserialize, Serialize};

/// A run's share of a sweep split over workers (shard `index` of `count`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// The whole sweep in one worker.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// An error unless this share exists (index below a count of at least 1).
    pub fn check(self) -> Result<(), ConfigError> {
        if self.count == 0 || self.index >= self.count {
            return Err(ConfigError::invalid(
                "shards",
                format!("shard {} of {} does not exist", self.index, self.count),
            ));
        }
        Ok(())
    }

    /// For a sweep that does not split (`info().splits` is false): only the
    /// first shard exists.
    pub fn only_first(self) -> Result<(), Vec<ConfigError>> {
        if self.index == 0 {
            Ok(())
        } else {
            Err(vec![ConfigError::invalid(
                "shards",
                "this sweep runs in one worker",
            )])
        }
    }
}

/// Which of `shards` shards computes each job, from the jobs' relative costs:
/// the costliest first, each to the least loaded shard (ties to the lower job
/// and shard index; the classic longest-processing-time rule). It depends only
/// on the costs and the shard count, so every worker computes the same plan.
pub fn assign_longest_first(costs: &[f64], shards: usize) -> Vec<usize> {
    let mut by_cost: Vec<(usize, f64)> = costs.iter().copied().enumerate().collect();
    by_cost.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut load = vec![0.0f64; shards.max(1)];
    let mut owner = vec![0; costs.len()];
    for (job, cost) in by_cost {
        let target = (0..load.len())
            .min_by(|&a, &b| load[a].total_cmp(&load[b]).then(a.cmp(&b)))
            .unwrap_or(0);
        load[target] += cost;
        owner[job] = target;
    }
    owner
}

/// 64-bit FNV-1a of `bytes`, continuing from `hash` (start with [`FNV_START`]):
/// a cheap digest that any change of one byte changes (each step is a
/// bijection of the state). Unkeyed: it detects damage, not a forger, who can
/// recompute it.
pub fn fnv1a64(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The FNV-1a offset basis.
pub const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// How much of a sweep's plan a merge must hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// The finished sweep (the CLI's `merge` and `--threads`, the page's pool
    /// once every worker is done): every job of the plan exactly once, from
    /// finished parts, each at its place among the shards.
    Whole,
    /// What the workers have finished so far (the page's progress, a stopped
    /// sweep, the empty charts before a run): every job given must be of the
    /// plan and given once; jobs may be missing.
    SoFar,
}

/// What a part says of itself, written by [`Run::part`](super::Run::part) before its results
/// and checked by [`decode_parts`] against the plan of the settings it is
/// merged under: the share it was computed as, whether its run had finished,
/// and per job (run) it holds, the job's place in the plan with a fingerprint
/// of the scenario, every setting (seed included) and the job. A part edited
/// to claim other settings (another seed, preset, ε, shard count) keeps the
/// fingerprints of the settings it was computed from, so the merge refuses it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamps {
    pub shard: usize,
    pub shards: usize,
    pub finished: bool,
    /// (job, fingerprint), in job order, each job once.
    pub jobs: Vec<(usize, u64)>,
}

impl Stamps {
    /// The jobs the part lists (for a part whose rows carry no job: a sweep
    /// that does not split).
    pub fn listed(&self) -> Vec<usize> {
        self.jobs.iter().map(|s| s.0).collect()
    }
}

/// A sweep's jobs as its settings plan them: how many, each one's fingerprint
/// (see [`Stamps`]) and its name for messages. The run that computes a part
/// and the merge that reads it build the plan from their settings the same
/// way, so the fingerprints agree exactly when the settings do.
pub struct Plan<'a> {
    config: u64,
    jobs: usize,
    label: Box<dyn Fn(usize) -> String + 'a>,
}

impl<'a> Plan<'a> {
    /// `fields`: every setting as text ([`Config::to_fields`](super::field::Config::to_fields));
    /// `label(job)`: the job in words ("seed 3, Private FedRep at ε = 4").
    pub fn new(
        scenario: &str,
        fields: &[(&str, String)],
        jobs: usize,
        label: impl Fn(usize) -> String + 'a,
    ) -> Self {
        let mut hash = fnv1a64(FNV_START, b"dp-explorer plan\0");
        hash = fnv1a64(hash, scenario.as_bytes());
        for (name, value) in fields {
            hash = fnv1a64(hash, b"\0");
            hash = fnv1a64(hash, name.as_bytes());
            hash = fnv1a64(hash, b"=");
            hash = fnv1a64(hash, value.as_bytes());
        }
        Plan {
            config: hash,
            jobs,
            label: Box::new(label),
        }
    }

    /// The plan of a sweep that does not split: one job, all of it.
    pub fn whole(scenario: &str, fields: &[(&str, String)]) -> Self {
        Plan::new(scenario, fields, 1, |_| "the whole sweep".to_string())
    }

    /// The number of jobs of the sweep.
    pub fn len(&self) -> usize {
        self.jobs
    }

    pub fn is_empty(&self) -> bool {
        self.jobs == 0
    }

    /// The fingerprint of job `job` under these settings.
    pub fn fingerprint(&self, job: usize) -> u64 {
        fnv1a64(fnv1a64(self.config, b"\0job "), &(job as u64).to_le_bytes())
    }

    /// The job in words.
    pub fn label(&self, job: usize) -> String {
        (self.label)(job)
    }

    /// The stamps of a part of `shard` that holds `jobs` (any order, repeats
    /// counted once).
    pub fn stamps(
        &self,
        shard: Shard,
        finished: bool,
        jobs: impl IntoIterator<Item = usize>,
    ) -> Stamps {
        Stamps {
            shard: shard.index,
            shards: shard.count,
            finished,
            jobs: sorted_once(jobs)
                .into_iter()
                .map(|j| (j, self.fingerprint(j)))
                .collect(),
        }
    }
}

fn sorted_once(jobs: impl IntoIterator<Item = usize>) -> Vec<usize> {
    let mut jobs: Vec<usize> = jobs.into_iter().collect();
    jobs.sort_unstable();
    jobs.dedup();
    jobs
}

/// At most this many jobs are named in a message; the rest are counted.
const JOBS_NAMED: usize = 4;

fn name_jobs(plan: &Plan, jobs: &[usize]) -> String {
    let mut text = jobs
        .iter()
        .take(JOBS_NAMED)
        .map(|&j| plan.label(j))
        .collect::<Vec<_>>()
        .join("; ");
    if jobs.len() > JOBS_NAMED {
        text.push_str(&format!(" and {} more", jobs.len() - JOBS_NAMED));
    }
    text
}

/// Partials of workers split by users ([`Run::deliver`](super::Run::deliver)), decoded (postcard
/// bytes; what a worker computes in memory for the others, not a merge).
pub fn decode_partials<P: serde::de::DeserializeOwned>(
    parts: &[Vec<u8>],
) -> Result<Vec<P>, RunError> {
    parts
        .iter()
        .map(|bytes| postcard::from_bytes(bytes).map_err(|e| RunError::Part(e.to_string())))
        .collect()
}

/// The shards' parts of a merge (postcard bytes from [`Run::part`](super::Run::part), part `i`
/// being shard `i` of `parts.len()`), decoded and checked against `plan`, the
/// plan of the settings they are merged under. `held(part)` gives the part's
/// stamps and the job of each of its result rows. Refused, naming the part
/// ([`RunError::PartRefused`]): bytes that do not decode; a part computed as
/// another share; a job the plan does not have, or whose fingerprint is not
/// the plan's (computed from other settings); a job another part holds too;
/// and with [`Coverage::Whole`], an unfinished part, or rows of jobs it does
/// not stamp (or a stamped job without rows). With [`Coverage::Whole`] the
/// parts must also hold every job ([`RunError::Incomplete`]). So a merge that
/// passes holds exactly the plan's results, each computed from these settings.
pub fn decode_parts<P: serde::de::DeserializeOwned>(
    parts: &[Vec<u8>],
    plan: &Plan,
    coverage: Coverage,
    held: impl Fn(&P) -> (&Stamps, Vec<usize>),
) -> Result<Vec<P>, RunError> {
    decode_parts_beside(parts, plan, coverage, held, &[])
}

/// [`decode_parts`] beside results kept from an earlier sweep (the page's
/// result cache, [`Configured::reuse`](super::Configured::reuse)) that hold the
/// jobs `kept`: the shards computed the other jobs, so a shard holding one of
/// `kept` is refused, and with [`Coverage::Whole`] the shards and `kept`
/// together must hold every job.
pub fn decode_parts_beside<P: serde::de::DeserializeOwned>(
    parts: &[Vec<u8>],
    plan: &Plan,
    coverage: Coverage,
    held: impl Fn(&P) -> (&Stamps, Vec<usize>),
    kept: &[usize],
) -> Result<Vec<P>, RunError> {
    let count = parts.len();
    let refuse = |part: usize, message: String| RunError::PartRefused { part, message };
    let mut owner: Vec<Option<usize>> = vec![None; plan.len()];
    let kept_mark = usize::MAX;
    for &job in kept {
        if job >= plan.len() {
            return Err(RunError::Part(format!(
                "the kept results hold job {job}, but these settings plan {} jobs",
                plan.len()
            )));
        }
        owner[job] = Some(kept_mark);
    }
    let mut decoded = Vec::with_capacity(count);
    for (i, bytes) in parts.iter().enumerate() {
        let part: P = match postcard::take_from_bytes(bytes) {
            Ok((part, [])) => part,
            Ok((_, rest)) => {
                return Err(refuse(
                    i,
                    format!(
                        "its results end in {} bytes that are not results",
                        rest.len()
                    ),
                ))
            }
            Err(e) => return Err(refuse(i, format!("its results could not be read ({e})"))),
        };
        let (stamps, row_jobs) = held(&part);
        if (stamps.shard, stamps.shards) != (i, count) {
            return Err(refuse(
                i,
                format!(
                    "its results were computed as shard {} of {}, but it is given as shard {i} of {count}",
                    stamps.shard, stamps.shards
                ),
            ));
        }
        if coverage == Coverage::Whole && !stamps.finished {
            return Err(refuse(i, "its run had not finished".into()));
        }
        for &(job, fingerprint) in &stamps.jobs {
            if job >= plan.len() {
                return Err(refuse(
                    i,
                    format!(
                        "it holds job {job}, but these settings plan {} jobs: it was computed \
                         from other settings",
                        plan.len()
                    ),
                ));
            }
            if fingerprint != plan.fingerprint(job) {
                return Err(refuse(
                    i,
                    format!(
                        "its results for {} were computed from other settings than the ones \
                         merged (another seed, preset or setting)",
                        plan.label(job)
                    ),
                ));
            }
            if owner[job] == Some(kept_mark) {
                return Err(refuse(
                    i,
                    format!(
                        "it holds {}, which the results kept from the previous run hold too",
                        plan.label(job)
                    ),
                ));
            }
            if let Some(other) = owner[job] {
                return Err(refuse(
                    i,
                    format!(
                        "it holds {}, which shard {other} holds too: each job once",
                        plan.label(job)
                    ),
                ));
            }
            owner[job] = Some(i);
        }
        if coverage == Coverage::Whole {
            let listed: Vec<usize> = stamps.jobs.iter().map(|s| s.0).collect();
            let rows = sorted_once(row_jobs);
            if let Some(&job) = rows.iter().find(|j| listed.binary_search(j).is_err()) {
                return Err(refuse(
                    i,
                    format!("it holds results of job {job}, which it does not list"),
                ));
            }
            if let Some(&job) = listed.iter().find(|j| rows.binary_search(j).is_err()) {
                return Err(refuse(
                    i,
                    format!("it lists {} but holds no result of it", plan.label(job)),
                ));
            }
        }
        decoded.push(part);
    }
    if coverage == Coverage::Whole {
        let missing: Vec<usize> = (0..plan.len()).filter(|&j| owner[j].is_none()).collect();
        if !missing.is_empty() {
            return Err(RunError::Incomplete(format!(
                "{} of the {} jobs of these settings are in no part: {}",
                missing.len(),
                plan.len(),
                name_jobs(plan, &missing)
            )));
        }
    }
    Ok(decoded)
}
#[cfg(test)]
mod tests {
    use super::*;

    /// A part as a scenario's: its stamps, then rows that name their job.
    #[derive(Serialize, Deserialize)]
    struct Toy {
        stamps: Stamps,
        rows: Vec<usize>,
    }

    fn toy_plan() -> Plan<'static> {
        Plan::new("toy", &[("x", "1".into())], 3, |j| format!("job {j}"))
    }

    /// Shard `index` of `count` listing `jobs` and holding rows of `rows`.
    fn toy(index: usize, count: usize, jobs: &[usize], rows: &[usize]) -> Vec<u8> {
        let stamps = toy_plan().stamps(Shard { index, count }, true, jobs.iter().copied());
        postcard::to_allocvec(&Toy {
            stamps,
            rows: rows.to_vec(),
        })
        .unwrap()
    }

    fn toy_merge(parts: &[Vec<u8>]) -> Result<Vec<usize>, RunError> {
        let decoded = decode_parts::<Toy>(parts, &toy_plan(), Coverage::Whole, |p| {
            (&p.stamps, p.rows.clone())
        })?;
        Ok(decoded.into_iter().flat_map(|p| p.rows).collect())
    }

    #[test]
    fn every_job_of_the_plan_once_with_its_rows() {
        let ok = [toy(0, 2, &[0, 2], &[0, 2, 2]), toy(1, 2, &[1], &[1])];
        assert_eq!(toy_merge(&ok).unwrap(), [0, 2, 2, 1]);
        let refused = |parts: &[Vec<u8>]| match toy_merge(parts) {
            Err(RunError::PartRefused { part, message }) => (part, message),
            other => panic!("expected a refusal, got {other:?}"),
        };
        let (part, message) = refused(&[toy(0, 2, &[0, 1], &[0, 1]), toy(1, 2, &[1, 2], &[1, 2])]);
        assert_eq!(part, 1);
        assert!(
            message.contains("job 1, which shard 0 holds too"),
            "{message}"
        );
        let (part, message) = refused(&[toy(0, 1, &[0, 1, 2, 5], &[0, 1, 2, 5])]);
        assert_eq!(part, 0);
        assert!(message.contains("plan 3 jobs"), "{message}");
        let (_, message) = refused(&[toy(0, 1, &[0, 1], &[0, 1, 2])]);
        assert!(
            message.contains("job 2, which it does not list"),
            "{message}"
        );
        let (_, message) = refused(&[toy(0, 1, &[0, 1, 2], &[0, 1])]);
        assert!(
            message.contains("lists job 2 but holds no result"),
            "{message}"
        );
        match toy_merge(&[toy(0, 2, &[0], &[0]), toy(1, 2, &[2], &[2])]) {
            Err(RunError::Incomplete(message)) => {
                assert!(message.contains("1 of the 3 jobs") && message.contains("job 1"));
            }
            other => panic!("expected a missing job, got {other:?}"),
        }
    }

    #[test]
    fn fingerprints_follow_every_setting_and_the_job() {
        let fields = |seed: &str| vec![("n", "200".to_string()), ("seed", seed.to_string())];
        let a = Plan::new("fedrep", &fields("1"), 3, |j| j.to_string());
        let b = Plan::new("fedrep", &fields("2"), 3, |j| j.to_string());
        let c = Plan::new("dpgd", &fields("1"), 3, |j| j.to_string());
        let fingerprints: Vec<u64> = [&a, &b, &c]
            .iter()
            .flat_map(|p| (0..3).map(|j| p.fingerprint(j)))
            .collect();
        let mut distinct = fingerprints.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), fingerprints.len());
        let again = Plan::new("fedrep", &fields("1"), 3, |_| String::new());
        assert_eq!(a.fingerprint(2), again.fingerprint(2));
        let stamps = a.stamps(Shard { index: 1, count: 2 }, true, [2, 0, 2]);
        assert_eq!(stamps.listed(), [0, 2]);
        assert_eq!((stamps.shard, stamps.shards, stamps.finished), (1, 2, true));
    }
}
