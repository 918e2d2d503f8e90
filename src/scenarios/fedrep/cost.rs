//! How much work a Private FedRep sweep is, in floating-point operations
//! (approximately), before it runs: the page's time estimate and the bound on
//! absurd settings both read it. Each term counts the inner loops of one
//! phase; the constant that turns it into seconds is measured
//! (`SECONDS_PER_GFLOP`).

use super::config::{FedRepConfig, InitMode};
use super::jobs::{assign_shards, is_fedrep, jobs_of_one_seed, Job};
use crate::algorithms::priv_altmin::participants;
use crate::data::shared_representation::Storage;

/// Seconds per 10⁹ counted operations on one core of this project's machines
/// (wasm in one worker and native are within 1.5× of each other): fitted to
/// `dp-explorer sweep --threads 1` on the presets and on n = 10⁶ (docs/performance.md).
pub const SECONDS_PER_GFLOP: f64 = 0.18;

/// The page's seconds (wasm in its workers, Run to done) over the native
/// seconds of the same work: fitted to the page's times of the presets with 2
/// workers on the reference machine when quiet (`make estimates`,
/// docs/performance.md; a load average of 10 made them 3–5× slower, and the
/// probe does not see load: see "The load matters" there).
pub const PAGE_FACTOR: f64 = 1.8;

/// Drawing one Gaussian coordinate of a user's data, in operations.
const DRAW: f64 = 8.0;

/// The operations of each phase of one seed's sweep.
struct SeedWork {
    /// Drawing a stored dataset (0 when streamed).
    data: f64,
    /// The initialization statistic (0 for a random U_0).
    statistic: f64,
    /// One FedRep run's own work (the reference, or Private FedRep at one ε).
    fedrep_run: f64,
    /// Regenerating the users for the FedRep runs' passes (0 when stored):
    /// once for all the FedRep runs a worker holds, which share each pass.
    fedrep_passes: f64,
    local_run: f64,
    /// One Priv-AltMin run (0 when off).
    altmin_run: f64,
}

fn seed_work(c: &FedRepConfig) -> SeedWork {
    let (n, d, k, m) = (c.n as f64, c.d as f64, c.k as f64, c.m as f64);
    let m_train = c.m_train() as f64;
    let draw_all = n * m * d * DRAW;
    let streamed = c.storage() == Storage::Streamed;
    // A pass over the users regenerates them when the data is streamed.
    let pass = if streamed { draw_all } else { 0.0 };
    let data = if streamed { 0.0 } else { draw_all };
    let statistic = if c.init == InitMode::Random {
        0.0
    } else {
        n * (m_train + 1.0) * d * d + pass
    };
    // A round: each user's head (m'·d·k) and gradient (m'·d·k), both twice
    // over the points; the final pass refits the heads on S¹.
    let fedrep_run = c.rounds as f64 * 4.0 * n * m_train * d * k + 2.0 * n * (m - m_train) * d * k;
    let fedrep_passes = (c.rounds as f64 + 1.0) * pass;
    let local_run = 4.0 * n * c.local_steps as f64 * m_train * d + pass;
    let altmin_run = if c.altmin {
        let reads: f64 = (0..c.altmin_rounds)
            .map(|t| participants(c.altmin_mode.mode(), c.altmin_rounds, c.n, t).len() as f64)
            .sum();
        // Per participant: its Gram matrix and k² block updates (d² each), its head.
        let per_user = (m_train + k * k) * d * d + 4.0 * m_train * d * k;
        let dk = d * k;
        reads * per_user
            + c.altmin_rounds as f64 * (dk * dk * dk / 3.0 + if streamed { draw_all } else { 0.0 })
            + 2.0 * n * (m - m_train) * d * k
            + pass
    } else {
        0.0
    };
    SeedWork {
        data,
        statistic,
        fedrep_run,
        fedrep_passes,
        local_run,
        altmin_run,
    }
}

/// The operations of the whole sweep (every seed, every method and ε).
pub fn sweep_work(c: &FedRepConfig) -> f64 {
    let w = seed_work(c);
    let eps = c.target.epsilons.len() as f64;
    let per_seed = w.data
        + w.statistic
        + (1.0 + eps) * w.fedrep_run
        + w.fedrep_passes
        + w.local_run
        + eps * w.altmin_run;
    c.seeds as f64 * per_seed
}

/// What one exchange of partials between workers costs (posting, copying,
/// waiting for the slowest worker), in operations: about 10 ms.
const EXCHANGE: f64 = 0.01 / (SECONDS_PER_GFLOP * 1e-9);

/// Whether `workers` workers finish the sweep sooner by sharing every run's
/// users than by taking whole runs. Taking whole runs, each worker computes
/// the initialization statistic (or draws the data) of every seed it has a run
/// of, and the longest runs bound the time; sharing users, every pass is cut
/// in `workers` parts, at the cost of one exchange per pass. Only streamed
/// data (each worker regenerates just its users; a stored dataset would be
/// drawn by every worker) and sweeps without Priv-AltMin (its iterations are
/// not cut into blocks) split by users; it must save at least a tenth.
pub fn split_by_users(c: &FedRepConfig, workers: usize) -> bool {
    match worker_loads(c, workers) {
        (by_runs, Some(by_users)) => by_users <= 0.9 * by_runs,
        _ => false,
    }
}

/// The operations of the busiest of `workers` workers taking whole runs, and
/// (when the sweep can share users) of each worker sharing every run's users,
/// exchanges counted.
fn worker_loads(c: &FedRepConfig, workers: usize) -> (f64, Option<f64>) {
    let workers = workers.max(1);
    let w = seed_work(c);
    let per_seed = jobs_of_one_seed(c);
    let job_work = |job: &Job| match job {
        Job::FedRepReference | Job::PrivateFedRep { .. } => w.fedrep_run,
        Job::LocalGd => w.local_run,
        Job::PrivAltMin { .. } => w.altmin_run,
    };
    // Whole runs: each shard's runs, plus the shared work of every seed it touches.
    let owner = assign_shards(c, &per_seed, workers, &[]);
    let mut load = vec![0.0f64; workers];
    for s in 0..c.seeds {
        let (mut touched, mut fedrep) = (vec![false; workers], vec![false; workers]);
        for (j, job) in per_seed.iter().enumerate() {
            let shard = owner[s * per_seed.len() + j];
            load[shard] += job_work(job);
            touched[shard] = true;
            fedrep[shard] |= is_fedrep(job);
        }
        for ((l, t), f) in load.iter_mut().zip(touched).zip(fedrep) {
            if t {
                *l += w.data + w.statistic;
            }
            if f {
                *l += w.fedrep_passes;
            }
        }
    }
    let by_runs = load.iter().copied().fold(0.0, f64::max);
    if workers < 2 || c.altmin || c.storage() != Storage::Streamed {
        return (by_runs, None);
    }
    // Shared users: one exchange after the statistic, each round and the final
    // pass of the FedRep runs (together), and local GD.
    let exchanges = c.seeds as f64 * (1.0 + (c.rounds as f64 + 1.0) + 1.0);
    let total: f64 = c.seeds as f64
        * (w.data + w.statistic + w.fedrep_passes + per_seed.iter().map(job_work).sum::<f64>());
    let by_users = total / workers as f64 + exchanges * EXCHANGE;
    (by_runs, Some(by_users))
}

/// Operations of the busiest of `workers` workers, split as the page's pool
/// splits the sweep ([`split_by_users`]).
pub fn busiest_worker_work(c: &FedRepConfig, workers: usize) -> f64 {
    match worker_loads(c, workers.max(1)) {
        (by_runs, Some(by_users)) if by_users <= 0.9 * by_runs => by_users,
        (by_runs, _) => by_runs,
    }
}

/// Seconds the page spends besides the workers: its fixed part and the
/// points of the curves over rounds (the reference, Private FedRep at each ε).
pub fn page_overhead_seconds(c: &FedRepConfig) -> f64 {
    let points = c.seeds as f64 * c.rounds as f64 * (2.0 + c.target.epsilons.len() as f64);
    crate::scenarios::machine::PAGE_OVERHEAD_SECONDS
        + points * crate::scenarios::machine::POINT_SECONDS
}

/// Seconds the sweep takes on one core (an estimate, within about 2×).
pub fn sweep_seconds(c: &FedRepConfig) -> f64 {
    sweep_work(c) * SECONDS_PER_GFLOP * 1e-9
}
