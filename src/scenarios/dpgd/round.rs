//! One DP-GD step in slow motion (Bombari & Mondelli, Algorithm 1): the run at
//! the first ε and the widest width of the sweep's first seed, replayed on the
//! direct path with the sweep's inputs, frozen weights and noise stream, to
//! the step asked for; that step is then taken by
//! [`DpGd::step_in_slow_motion`], which computes θ after it exactly as the run
//! does.

use super::config::{DpGdConfig, SigmaQuery};
use super::plan::{dpgd_private_run, dpgd_sigma, DpGdPrivateRun};
use super::run::noise_key_of;
use crate::algorithms::dp_gd_random_features::{DpGd, DpGdParams, DpGdStep};
use crate::data::random_features::{frozen_weights, RfFeatures, RfInputs};
use crate::rng::NoiseSource;
use crate::scenarios::round::{
    norm, ModelStep, Point2, RoundHead, RoundRequest, RoundTrace, Stages,
};
use crate::scenarios::ConfigError;
use nalgebra::DVector;
use std::sync::Arc;

/// The run a round is taken from: its features, parameters and ε.
struct Replay {
    run: DpGd,
    p: usize,
    epsilon: f64,
    epsilon_spent: f64,
    sensitivity: f64,
}

/// The DP-GD run at ε = epsilons[0] and the widest p of the grid (the
/// overparameterized end, where the paper's point is made), of the sweep's
/// first seed, as the sweep's direct path starts it.
fn replay(c: &DpGdConfig) -> Result<Replay, ConfigError> {
    let p = c.p_grid.iter().copied().max().unwrap_or(1);
    let epsilon = c.target.epsilons[0];
    let DpGdPrivateRun {
        eta,
        steps,
        sensitivity,
        sigma,
        epsilon_spent,
    } = dpgd_private_run(c, p, epsilon)?;
    let seed = c.seed;
    let inputs = RfInputs::generate(seed, c.d, c.n, c.n_test, c.data_target());
    let w = frozen_weights(seed, p, c.d);
    let data = Arc::new(RfFeatures::build(&inputs, &w, c.activation));
    let params = DpGdParams {
        eta,
        steps,
        clip: Some(c.clip(p)),
        sigma,
    };
    let noise = NoiseSource::new(seed).release(noise_key_of(p, epsilon, eta, steps));
    let run = DpGd::new(data, params, noise)
        .map_err(|e| ConfigError::invalid("epsilons", e.to_string()))?;
    Ok(Replay {
        run,
        p,
        epsilon,
        epsilon_spent,
        sensitivity,
    })
}

/// The run of [`replay`] after `steps` steps (for tests: the run's own path).
pub fn run_after(c: &DpGdConfig, steps: usize) -> Result<DVector<f64>, ConfigError> {
    let mut r = replay(c)?;
    r.run.advance(steps);
    Ok(r.run.theta().clone())
}

/// Step `request.round` (1-based) of the DP-GD run at the first ε and width,
/// in slow motion, with θ after it (for tests).
pub fn dpgd_round(
    c: &DpGdConfig,
    request: RoundRequest,
) -> Result<(RoundTrace, DVector<f64>), ConfigError> {
    let mut r = replay(c)?;
    let steps = r.run.params().steps;
    if request.round == 0 || request.round > steps {
        return Err(ConfigError::invalid(
            "round",
            format!(
                "the run at ε = {} and p = {} takes {steps} steps: choose a round from 1 to {steps}",
                r.epsilon, r.p
            ),
        ));
    }
    r.run.advance(request.round - 1);
    let step: DpGdStep = r
        .run
        .step_in_slow_motion()
        .expect("the round is within the run");
    let data = r.run.data();
    let n = data.train.x.nrows() as f64;
    let params = *r.run.params();
    // On the sum's scale: Σ clip(g_i) = n ḡ, and θ ← θ − (η/n)(Σ clip(g_i) + N)
    // with N = −(n/η)·(the noise added to θ), of std (n/η)·√η·(2C/n)·σ = 2Cσ/√η.
    let sum: Vec<f64> = step.mean_gradient.iter().map(|g| g * n).collect();
    let noise: Vec<f64> = step.noise.iter().map(|z| -z * n / params.eta).collect();
    let sigma = r.run.noise_std() * n / params.eta;
    // Σ g_i unclipped = 2 Φᵀ r.
    let residuals = DVector::from_column_slice(&step.residuals);
    let non_private_sum = (data.train.x.tr_mul(&residuals) * 2.0).as_slice().to_vec();
    let stages = Stages {
        raw_norms: step.raw_norms.clone(),
        factors: &step.factors,
        clip: params.clip.unwrap_or(f64::INFINITY),
        sum: &sum,
        noise: &noise,
        non_private_sum: &non_private_sum,
        sigma,
    };
    // ⟨g_i, e⟩ = 2 r_i (Φe)_i.
    let project = |axes: &(Vec<f64>, Vec<f64>), drawn: &[usize]| -> Vec<Point2> {
        let along = |e: &Vec<f64>| &data.train.x * DVector::from_column_slice(e);
        let (a, b) = (along(&axes.0), along(&axes.1));
        drawn
            .iter()
            .map(|&i| {
                [
                    2.0 * step.residuals[i] * a[i],
                    2.0 * step.residuals[i] * b[i],
                ]
            })
            .collect()
    };
    let (measured, plane) = stages.measure(project);
    let theta = r.run.theta().clone();
    let change: Vec<f64> = theta
        .iter()
        .zip(step.theta_before.iter())
        .map(|(a, b)| a - b)
        .collect();
    let trace = RoundTrace::new(
        RoundHead {
            method: "DP-GD".into(),
            run: format!(
                "p = {} random features, n = {} samples, seed {}, ε = {} (spends {:.4} at δ = {}), sensitivity of ḡ 2C/n = {:.3e}; replayed on the direct path",
                r.p, c.n, c.seed, r.epsilon, r.epsilon_spent, crate::privacy::report::fmt_num(c.delta), r.sensitivity
            ),
            unit: "sample",
            round: request.round,
            rounds: steps,
            epsilon: r.epsilon,
            delta: c.delta,
        },
        measured,
        plane,
        ModelStep {
            measure: "training loss",
            before: step.loss_before,
            after: data.train_loss(&theta),
            change_norm: norm(&change),
        },
    );
    // σ at other ε: the same schedule and sensitivity, σ of the sum's scale.
    let sigma_at = |epsilon: f64| {
        let multiplier = dpgd_sigma(&SigmaQuery::of(
            c,
            epsilon,
            steps,
            params.eta,
            r.sensitivity,
        ));
        let run = DpGdParams {
            sigma: multiplier,
            ..params
        };
        Some(run.noise_std(c.n) * n / params.eta)
    };
    Ok((trace.with_sigmas(&c.target.epsilons, sigma_at), theta))
}

/// The scenario's [`crate::scenarios::adapter::Experiment::ROUND`].
pub fn round_of(
    c: &crate::scenarios::Checked<DpGdConfig>,
    request: RoundRequest,
) -> Result<RoundTrace, Vec<ConfigError>> {
    dpgd_round(c, request)
        .map(|(trace, _)| trace)
        .map_err(|e| vec![e])
}
