//! The runs of a Private FedRep sweep (the non-private FedRep reference, local
//! GD, Private FedRep and Priv-AltMin at every ε) and which shard computes each:
//! read by the runner (`run`) and by the cost model (`cost`).

use super::config::FedRepConfig;
use crate::algorithms::priv_altmin::participants;

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Job {
    FedRepReference,
    LocalGd,
    PrivateFedRep { epsilon_index: usize },
    PrivAltMin { epsilon_index: usize },
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
        (0..config.target.epsilons.len()).map(|epsilon_index| Job::PrivateFedRep { epsilon_index }),
    );
    if config.altmin {
        jobs.extend(
            (0..config.target.epsilons.len())
                .map(|epsilon_index| Job::PrivAltMin { epsilon_index }),
        );
    }
    jobs
}

/// Which shard computes each run (indexed by `order`): longest runs first, each
/// to the least loaded shard ([`crate::scenarios::assign_longest_first`]);
/// the runs `skip` (kept from an earlier sweep) cost nothing.
pub(super) fn assign_shards(
    config: &FedRepConfig,
    per_seed: &[Job],
    shards: usize,
    skip: &[usize],
) -> Vec<usize> {
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
        .enumerate()
        .map(|(order, c)| if skip.contains(&order) { 0.0 } else { c })
        .collect();
    crate::scenarios::assign_longest_first(&costs, shards)
}
