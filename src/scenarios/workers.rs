//! How many workers the page's pool runs a sweep on: as many as the
//! machine's cores, as long as their memory fits. Each worker is a wasm
//! instance of its own holding its share's matrices (the cost model's
//! per-worker peak, `Experiment::worker_peak_bytes`), so a machine of many
//! cores and little memory (or a wide DP-GD sweep) gets fewer workers.

/// A worker's memory besides its share's matrices: the module, its stack
/// and heap floor, the results it keeps (about what an idle worker holds).
pub const WORKER_BASE_BYTES: f64 = 40e6;

/// The share of the machine's memory the page lets its workers hold (the
/// browser, the page and other tabs keep the rest).
pub const MEMORY_SHARE: f64 = 0.5;

/// The memory assumed where the browser does not say (`navigator.deviceMemory`
/// is Chromium's only, and rounded down to at most 8 GB): a 4 GB machine's.
pub const ASSUMED_MEMORY_BYTES: f64 = 4e9;

/// Workers for a sweep whose workers each hold `peak_bytes` at most, on a
/// machine of `cores` cores with `memory_bytes` of memory (none: not known):
/// at least 1, at most `cores`, and no more than [`MEMORY_SHARE`] of the
/// memory holds. A sweep that does not split runs on one.
pub fn workers_for(
    splits: bool,
    peak_bytes: f64,
    cores: usize,
    memory_bytes: Option<f64>,
) -> usize {
    if !splits {
        return 1;
    }
    let budget = memory_bytes
        .filter(|m| *m > 0.0)
        .unwrap_or(ASSUMED_MEMORY_BYTES)
        * MEMORY_SHARE;
    let by_memory = (budget / peak_bytes.max(WORKER_BASE_BYTES)).floor();
    (by_memory as usize).min(cores).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_core_gets_a_worker_when_memory_allows() {
        assert_eq!(workers_for(true, 60e6, 8, None), 8);
        assert_eq!(workers_for(true, 60e6, 8, Some(8e9)), 8);
        // Half of the assumed 4 GB holds 33 workers of 60 MB.
        assert_eq!(workers_for(true, 60e6, 64, None), 33);
    }

    #[test]
    fn memory_bounds_the_workers_and_one_always_runs() {
        // 2 GB for workers of 500 MB each: 4 of 16 cores.
        assert_eq!(workers_for(true, 500e6, 16, Some(4e9)), 4);
        assert_eq!(workers_for(true, 5e9, 16, Some(4e9)), 1);
        assert_eq!(workers_for(true, 60e6, 0, None), 1);
    }

    #[test]
    fn a_sweep_that_does_not_split_runs_on_one_worker() {
        assert_eq!(workers_for(false, 1e6, 8, None), 1);
    }
}
