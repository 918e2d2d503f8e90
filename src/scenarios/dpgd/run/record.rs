//! The rows of the "privacy for free" sweep (Bombari & Mondelli, §5 and Fig.
//! 3): the references of a width (θ*, the trivial predictor), each finished
//! run's row, and the phase label.

use super::super::rows::{fmt_eps, DpGdRow, Method};
use super::{DpGdSweep, Job, Outcome, RunKind, RunSpec};
use crate::algorithms::dp_gd_kernel::KernelWidth;
use crate::algorithms::dp_gd_random_features::{DpGd, DpGdBatch};

impl DpGdSweep {
    /// The rows of the two references at width p: θ* (min-norm) and θ = 0,
    /// each (test loss, train loss).
    pub(super) fn push_references(
        &mut self,
        p: usize,
        seed: u64,
        (star_test, star_train): (f64, f64),
        (null_test, null_train): (f64, f64),
        path: &str,
    ) {
        let star = DpGdRow {
            method: Method::MinNorm,
            p,
            epsilon: f64::NAN,
            delta: self.config.delta,
            seed,
            steps: 0,
            eta: f64::NAN,
            clip: f64::NAN,
            time_scale: f64::NAN,
            sigma: 0.0,
            noise_std: 0.0,
            test_loss: star_test,
            train_loss: star_train,
            excess_risk: 0.0,
            clipped_fraction: f64::NAN,
            epsilon_spent: f64::NAN,
            path: path.into(),
            order: self.current_order(),
        };
        let zero = DpGdRow {
            method: Method::Zero,
            test_loss: null_test,
            train_loss: null_train,
            excess_risk: null_test - star_test,
            ..star.clone()
        };
        self.rows.push(star);
        self.rows.push(zero);
    }

    /// The row of a finished GD or DP-GD run at width p, whichever path ran it
    /// (a loss-versus-T run goes to the trace).
    pub(super) fn push_run(&mut self, run: &RunSpec, seed: u64, p: usize, o: Outcome, path: &str) {
        let c = &self.config;
        let row = DpGdRow {
            method: run.kind.method(),
            p,
            epsilon: run.epsilon,
            delta: c.delta,
            seed,
            steps: run.params.steps,
            eta: run.params.eta,
            clip: run.params.clip.unwrap_or(f64::NAN),
            time_scale: run.params.eta * run.params.steps as f64 * p as f64 / c.d as f64,
            sigma: run.params.sigma,
            noise_std: o.noise_std,
            test_loss: o.test_loss,
            train_loss: o.train_loss,
            excess_risk: o.test_loss - self.min_norm_test_loss,
            clipped_fraction: if run.kind != RunKind::Gd {
                o.clipped_fraction
            } else {
                f64::NAN
            },
            epsilon_spent: run.epsilon_spent,
            path: path.into(),
            order: self.current_order(),
        };
        if run.kind == RunKind::Trace {
            self.trace.push(row);
        } else {
            self.rows.push(row);
        }
    }

    /// What the sweep is doing now, in words (for a progress line).
    pub fn phase_label(&self) -> String {
        let Some(job) = self.jobs.get(self.next_job) else {
            return "done".into();
        };
        let c = &self.config;
        let seed_note = |rep: usize| {
            if c.repeats > 1 {
                format!(" (seed {} of {})", rep + 1, c.repeats)
            } else {
                String::new()
            }
        };
        match job {
            Job::Features { rep, p_index } => format!(
                "random features, p = {}{}",
                c.p_grid[*p_index],
                seed_note(*rep)
            ),
            Job::MinNorm { rep, p_index } => {
                format!("θ* = Φ⁺Y at p = {}{}", c.p_grid[*p_index], seed_note(*rep))
            }
            Job::Batch { rep, p_index, runs } => {
                let (done, total) = self.batch.as_ref().map_or((0, 0), DpGdBatch::progress);
                format!(
                    "GD and DP-GD, {} runs together at p = {} (direct path): step {done} of {total}{}",
                    runs.len(),
                    c.p_grid[*p_index],
                    seed_note(*rep)
                )
            }
            Job::Kernel { rep, p_index, runs } => {
                let what = self
                    .kernel
                    .as_ref()
                    .map_or_else(|| "starting".to_string(), KernelWidth::phase_label);
                format!(
                    "GD and DP-GD, kernel path (n-dimensional, exact in distribution) at p = {}, {} runs: {what}{}",
                    c.p_grid[*p_index],
                    runs.len(),
                    seed_note(*rep)
                )
            }
            Job::Run { rep, p_index, run } => {
                let what = match run.kind {
                    RunKind::Gd => "GD (non-private)".to_string(),
                    RunKind::Dp => format!("DP-GD, ε = {}", fmt_eps(run.epsilon)),
                    RunKind::Trace => format!(
                        "DP-GD vs T, ε = {}, T = {}",
                        fmt_eps(run.epsilon),
                        run.params.steps
                    ),
                };
                let done = self.active.as_ref().map_or(0, DpGd::steps_done);
                format!(
                    "{what} at p = {} (direct path): step {done} of {}{}",
                    c.p_grid[*p_index],
                    run.params.steps,
                    seed_note(*rep)
                )
            }
        }
    }
}
