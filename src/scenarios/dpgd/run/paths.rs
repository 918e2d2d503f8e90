//! The two paths of one width of the "privacy for free" sweep (Bombari &
//! Mondelli, §5): the direct path steps the DP-GD runs of a width together in
//! R^p with Φ stored; the kernel path simulates them in n dimensions without Φ;
//! and the size of a chunk of GD steps on either.

use super::super::config::WORK_PER_UNIT;
use super::{noise_key, DpGdSweep, Outcome, RunSpec, KERNEL_FRESH_TAG};
use crate::algorithms::dp_gd_kernel::{KernelRunSpec, KernelWidth};
use crate::algorithms::dp_gd_random_features::DpGdBatch;
use crate::data::random_features::RfInputs;
use crate::rng;
use std::sync::Arc;

impl DpGdSweep {
    /// The inputs of seed number `rep` (drawn once, shared by its widths).
    pub(super) fn inputs_for(&mut self, rep: usize) -> Arc<RfInputs> {
        if let Some((r, inputs)) = &self.inputs {
            if *r == rep {
                return inputs.clone();
            }
        }
        self.features = None;
        let c = &self.config;
        let inputs = Arc::new(RfInputs::generate(
            self.seed(rep),
            c.d,
            c.n,
            c.n_test,
            c.data_target(),
        ));
        self.inputs = Some((rep, inputs.clone()));
        inputs
    }

    /// One unit of a batch of direct runs; their rows once all are done.
    pub(super) fn batch_step(&mut self, rep: usize, p_index: usize, runs: &[RunSpec]) {
        let p = self.config.p_grid[p_index];
        let seed = self.seed(rep);
        if self.batch.is_none() {
            let Some(data) = self.features.clone() else {
                return;
            };
            let source = rng::NoiseSource::new(seed);
            let specs = runs
                .iter()
                .map(|run| (run.params, source.release(noise_key(p, run))))
                .collect();
            // Parameters were validated when the sweep was planned.
            self.batch = DpGdBatch::new(data, specs).ok();
        }
        let chunk = batch_chunk(self.config.n, p, runs.len());
        let Some(batch) = self.batch.as_mut() else {
            return;
        };
        for _ in 0..chunk {
            batch.step();
        }
        self.units_done += 1;
        if !batch.is_done() {
            return;
        }
        let Some(batch) = self.batch.take() else {
            return;
        };
        for (run, (train_loss, test_loss, clipped_fraction, noise_std)) in
            runs.iter().zip(batch.results())
        {
            let outcome = Outcome {
                train_loss,
                test_loss,
                clipped_fraction,
                noise_std,
            };
            self.push_run(run, seed, p, outcome, "direct");
        }
        self.next_job += 1;
        if self.next_job == self.jobs.len() {
            self.release();
        }
    }

    /// One unit of a width on the kernel path; its rows once it is done.
    pub(super) fn kernel_step(&mut self, rep: usize, p_index: usize, runs: &[RunSpec]) {
        let p = self.config.p_grid[p_index];
        let seed = self.seed(rep);
        if self.kernel.is_none() {
            let inputs = self.inputs_for(rep);
            self.features = None;
            let source = rng::NoiseSource::new(seed);
            let specs = runs
                .iter()
                .map(|run| {
                    let key = noise_key(p, run);
                    KernelRunSpec {
                        params: run.params,
                        noise: source.release(key),
                        fresh: source.release(rng::combine(key, KERNEL_FRESH_TAG)),
                    }
                })
                .collect();
            // Threads for its features and steps only as `cores` lends them
            // (a sweep's threads whose shares are done): busy shares keep
            // their cores.
            self.kernel = Some(KernelWidth::new(
                inputs,
                seed,
                p,
                self.config.activation,
                specs,
            ));
        }
        let Some(kernel) = self.kernel.as_mut() else {
            return;
        };
        let done = kernel.step();
        self.units_done += 1;
        if !done {
            return;
        }
        let Some(kernel) = self.kernel.take() else {
            return;
        };
        let inputs = self.inputs_for(rep);
        let star = kernel.min_norm();
        let null_test = inputs.test.null_loss();
        let null_train = inputs.train.null_loss();
        self.min_norm_test_loss = star.test_loss;
        self.push_references(
            p,
            seed,
            (star.test_loss, star.train_loss),
            (null_test, null_train),
            "kernel",
        );
        for (run, result) in runs.iter().zip(kernel.results()) {
            let outcome = Outcome {
                train_loss: result.train_loss,
                test_loss: result.test_loss,
                clipped_fraction: result.mean_clipped_fraction,
                noise_std: result.noise_std,
            };
            self.push_run(run, seed, p, outcome, "kernel");
        }
        self.next_job += 1;
        if self.next_job == self.jobs.len() {
            self.release();
        }
    }
}

/// Batch steps per unit of `runs` direct runs at width p (≈ 2np each).
pub(super) fn batch_chunk(n: usize, p: usize, runs: usize) -> usize {
    (4 * WORK_PER_UNIT / (2 * n * p * runs).max(1)).max(1)
}

/// GD steps per unit at width p (a step costs ≈ 2np multiply–adds).
pub(super) fn chunk_steps(n: usize, p: usize) -> usize {
    (WORK_PER_UNIT / (2 * n * p).max(1)).max(1)
}
