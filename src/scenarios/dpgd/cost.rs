//! How long a DP-GD sweep takes, before it runs: the page's time estimate and
//! the split of a sweep's (seed, width) groups over workers read it.
//!
//! Each width is counted in four kinds of work (Bombari & Mondelli,
//! Algorithm 1, as this project runs it: `dp_gd_random_features` below p = n,
//! `dp_gd_kernel` from p = n), because each kind runs at its own speed and the
//! ratio differs between native code and wasm:
//! - features: building Φ and Φ_test (a product with the inputs and the activation);
//! - dense: blocked products and factorizations (the Gram matrix, the
//!   Cholesky or eigendecomposition, the noise images, the steps of more than
//!   `SYMMETRIC_MAX_RUNS` runs, the final draws; θ*'s Gram and eigendecomposition);
//! - symmetric: the kernel path's steps through the lower-triangle product,
//!   n² per run and step;
//! - direct: the direct path's steps, two products with Φ per run and step.
//!
//! The seconds per 10⁹ operations of each kind were fitted (least squares on
//! relative error) to the time of every width of `dpgd-paper` alone, natively
//! (`dp-explorer sweep --threads 1`) and in wasm (node, one `Runner`), as
//! `node scripts/time-dpgd-widths.mjs` measures them: docs/performance.md. The shares of the workers use the wasm speeds, since the page's
//! workers are where the balance matters most; they split the native sweep
//! about as evenly.

use super::config::DpGdConfig;
use crate::algorithms::dp_gd_kernel::{
    factors_by_cholesky, keeps_features, FEATURE_BLOCK, SYMMETRIC_MAX_RUNS,
};

/// Seconds per 10⁹ counted operations of each kind of work.
#[derive(Clone, Copy, Debug)]
pub struct Speeds {
    pub features: f64,
    pub dense: f64,
    pub symmetric: f64,
    pub direct: f64,
}

/// One core natively (the CLI's estimate).
pub const NATIVE: Speeds = Speeds {
    features: 0.069,
    dense: 0.075,
    symmetric: 0.111,
    direct: 0.071,
};

/// One wasm worker (node): the page's estimate and the weights of the workers' shares.
pub const WASM: Speeds = Speeds {
    features: 0.357,
    dense: 0.138,
    symmetric: 0.294,
    direct: 0.126,
};

/// The page's time (Run to done, 2 workers) over the busiest worker's
/// seconds at [`WASM`] speeds (fitted under node, one `Runner`): fitted to the
/// page's times of the presets on the reference machine (`make estimates`,
/// docs/performance.md), quiet (`dpgd-paper` 57 s; 235 s at a load average
/// of about 10, which the probe does not see).
pub const PAGE_FACTOR: f64 = 1.8;

/// The operations of each kind in one width of one seed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Work {
    pub features: f64,
    pub dense: f64,
    pub symmetric: f64,
    pub direct: f64,
}

impl Work {
    pub fn seconds(&self, s: &Speeds) -> f64 {
        (self.features * s.features
            + self.dense * s.dense
            + self.symmetric * s.symmetric
            + self.direct * s.direct)
            * 1e-9
    }
}

/// Every run of one width: (steps, whether it adds noise): GD, one DP-GD run
/// per ε, and the loss-versus-T runs if the width is traced.
fn runs(c: &DpGdConfig, p: usize) -> Vec<(usize, bool)> {
    let steps = c.schedule(p, c.time_scale).1;
    let mut runs = vec![(steps, false)];
    runs.extend(c.target.epsilons.iter().map(|_| (steps, true)));
    if c.trace_p.contains(&p) {
        runs.extend(
            c.trace_time_scales
                .iter()
                .map(|&ts| (c.trace_schedule(p, ts).1, true)),
        );
    }
    runs
}

/// The most bytes a worker holds for one width at a time, over the sweep's
/// widths: on the kernel path K and its factor (2·n² numbers), the feature
/// blocks kept for the final pass (or two blocks in flight) and a block of
/// runs' vectors; on the direct path Φ and Φ_test ((n + n_test)·p numbers).
pub fn width_peak_bytes(c: &DpGdConfig) -> f64 {
    let (n, n_test) = (c.n as f64, c.n_test as f64);
    let peak = |p: usize| {
        let features = (n + n_test) * p as f64;
        let numbers = if c.uses_kernel(p) {
            let blocks = if keeps_features(c.n, c.n_test, p) {
                features
            } else {
                2.0 * (n + n_test) * FEATURE_BLOCK as f64
            };
            2.0 * n * n + blocks + 12.0 * n * runs(c, p).len() as f64
        } else {
            features
        };
        8.0 * numbers
    };
    c.p_grid.iter().map(|&p| peak(p)).fold(0.0, f64::max)
}

/// The operations of one width of one seed (the unit a sweep's shards share out).
pub fn width_work(c: &DpGdConfig, p: usize) -> Work {
    let (n, n_test, d, pf) = (c.n as f64, c.n_test as f64, c.d as f64, p as f64);
    let runs = runs(c, p);
    let features = (n + n_test) * pf * (2.0 * d + 10.0);
    if !c.uses_kernel(p) {
        // θ* = Φ⁺Y through the smaller Gram matrix and its eigendecomposition;
        // every run T steps of two products with Φ.
        let small = n.min(pf);
        let steps: f64 = runs.iter().map(|r| r.0 as f64).sum();
        return Work {
            features,
            dense: n.max(pf) * small * small / 2.0 + 4.0 * small * small * small,
            symmetric: 0.0,
            direct: steps * (4.0 * n * pf + pf),
        };
    }
    // The kernel path: the features once if the first pass keeps them, else twice.
    let kept = keeps_features(c.n, c.n_test, p);
    let eigen = !factors_by_cholesky(c.n, p);
    let factor = if eigen {
        4.0 * n * n * n
    } else {
        n * n * n / 3.0
    };
    // Steps: with a runs active, K·W is the lower-triangle product (a ≤
    // SYMMETRIC_MAX_RUNS) or faer's blocked one; each noisy step draws an image
    // through L (triangular, n²/2) or U Λ^{1/2} (n²).
    let mut lengths: Vec<f64> = runs.iter().map(|r| r.0 as f64).collect();
    lengths.sort_by(|a, b| b.total_cmp(a));
    let (mut symmetric, mut blocked) = (0.0, 0.0);
    for (i, &t) in lengths.iter().enumerate() {
        // Steps during which exactly i + 1 runs are active.
        let next = lengths.get(i + 1).copied().unwrap_or(0.0);
        let column_steps = (i + 1) as f64 * (t - next) * n * n;
        if i < SYMMETRIC_MAX_RUNS {
            symmetric += column_steps;
        } else {
            blocked += column_steps;
        }
    }
    let noisy: f64 = runs.iter().filter(|r| r.1).map(|r| r.0 as f64).sum();
    let noise = noisy * n * n * if eigen { 1.0 } else { 0.5 };
    let final_draws = (n + n_test) * pf * 2.0 * (runs.len() as f64 + 1.0);
    Work {
        features: if kept { features } else { 2.0 * features },
        dense: n * n * pf / 2.0 + factor + noise + blocked + final_draws,
        symmetric,
        direct: 0.0,
    }
}

/// The weight of one width in the workers' shares: its seconds in wasm.
pub fn width_share_weight(c: &DpGdConfig, p: usize) -> f64 {
    width_work(c, p).seconds(&WASM)
}

/// Seconds the sweep takes on one core natively or in one wasm worker (an
/// estimate, within about 2×).
pub fn sweep_seconds(c: &DpGdConfig, speeds: &Speeds) -> f64 {
    c.repeats as f64
        * c.p_grid
            .iter()
            .map(|&p| width_work(c, p).seconds(speeds))
            .sum::<f64>()
}

/// Seconds of the busiest of `workers` page workers, each taking the (seed,
/// width) groups the sweep's shards give it (weighted by
/// [`width_share_weight`], as the runner assigns them), times [`PAGE_FACTOR`].
pub fn busiest_worker_seconds(c: &DpGdConfig, workers: usize, speeds: &Speeds) -> f64 {
    let widths = c.p_grid.len();
    let groups = c.repeats * widths;
    let weights: Vec<f64> = (0..groups)
        .map(|g| width_share_weight(c, c.p_grid[g % widths]))
        .collect();
    let owner = crate::scenarios::assign_longest_first(&weights, workers.max(1));
    let mut load = vec![0.0f64; workers.max(1)];
    for (g, &o) in owner.iter().enumerate() {
        load[o] += width_work(c, c.p_grid[g % widths]).seconds(speeds);
    }
    load.into_iter().fold(0.0, f64::max) * PAGE_FACTOR
}

/// Seconds of the busiest of `threads` native threads (`sweep --threads`,
/// [`NATIVE`] speeds): the (seed, width) groups shared out longest first, as
/// the shards take them. Where there are fewer groups than threads, the
/// threads left idle are lent to the runs (`cores`): the features computed
/// beside the Gram products and the steps' product in two bands, counted here
/// as those two kinds at half their time.
pub fn native_thread_seconds(c: &DpGdConfig, threads: usize) -> f64 {
    let threads = threads.max(1);
    let widths = c.p_grid.len();
    let groups = c.repeats * widths;
    let weights: Vec<f64> = (0..groups)
        .map(|g| width_share_weight(c, c.p_grid[g % widths]))
        .collect();
    let owner = crate::scenarios::assign_longest_first(&weights, threads);
    let lent = threads > groups;
    let mut load = vec![0.0f64; threads];
    for (g, &o) in owner.iter().enumerate() {
        let mut w = width_work(c, c.p_grid[g % widths]);
        if lent {
            w.features /= 2.0;
            w.symmetric /= 2.0;
        }
        load[o] += w.seconds(&NATIVE);
    }
    load.into_iter().fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios::assign_longest_first;
    use crate::scenarios::field::Config;

    /// Seconds of every width of `dpgd-paper` alone, measured on the project's
    /// 2-core machine (docs/performance.md; `node scripts/time-dpgd-widths.mjs`):
    /// natively with `dp-explorer sweep --threads 1`, and in wasm under node,
    /// one `Runner` per width.
    const PAPER_WIDTHS: [usize; 11] =
        [50, 125, 316, 794, 1258, 1995, 2000, 3162, 5011, 7943, 16000];
    const NATIVE_SECONDS: [f64; 11] = [
        0.07, 0.12, 0.26, 1.13, 3.09, 5.97, 3.25, 14.56, 1.98, 8.99, 7.21,
    ];
    const WASM_SECONDS: [f64; 11] = [
        0.17, 0.24, 0.67, 2.06, 5.05, 10.93, 6.90, 31.19, 5.51, 20.86, 17.88,
    ];

    fn paper() -> DpGdConfig {
        DpGdConfig::preset("dpgd-paper").unwrap()
    }

    #[test]
    fn the_model_is_within_2x_of_every_measured_width() {
        let c = paper();
        assert_eq!(c.p_grid, PAPER_WIDTHS);
        for (speeds, measured) in [(NATIVE, NATIVE_SECONDS), (WASM, WASM_SECONDS)] {
            for (&p, &t) in PAPER_WIDTHS.iter().zip(&measured) {
                let est = width_work(&c, p).seconds(&speeds);
                assert!(
                    est < 2.0 * t && t < 2.0 * est,
                    "p = {p}: estimated {est:.2} s, measured {t:.2} s"
                );
            }
        }
    }

    #[test]
    fn the_shares_of_two_workers_are_balanced_in_wasm_and_natively() {
        // With the measured times, the busier of two workers does at most 10%
        // more than half of the sweep (the native model before this one gave
        // 66 s of 107 s to one wasm worker).
        let c = paper();
        let weights: Vec<f64> = c
            .p_grid
            .iter()
            .map(|&p| width_share_weight(&c, p))
            .collect();
        let owner = assign_longest_first(&weights, 2);
        for measured in [NATIVE_SECONDS, WASM_SECONDS] {
            let total: f64 = measured.iter().sum();
            let busiest = (0..2)
                .map(|s| {
                    (0..measured.len())
                        .filter(|&g| owner[g] == s)
                        .map(|g| measured[g])
                        .sum::<f64>()
                })
                .fold(0.0, f64::max);
            assert!(busiest <= 0.55 * total, "{busiest:.1} s of {total:.1} s");
        }
    }
}
