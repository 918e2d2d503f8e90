//! One round of Private FedRep in slow motion (Snedeker et al., Algorithm 1
//! lines 6–10): the private run at the first ε of the sweep's first seed,
//! started as the sweep starts it (the same data, Algorithm 2's U_0 from the
//! same statistic and noise, the same noise seed), stepped to the round asked
//! for; that round is then taken by the run's own code ([`FedRep::step`]),
//! with each user's contribution read beside it.

use super::super::jobs::Job;
use super::super::plan::plan_private_fedrep;
use super::{Phase, SeedSweep};
use crate::algorithms::fedrep::FedRep;
use crate::data::shared_representation::FederatedDataset;
use crate::linalg::axpy;
use crate::scenarios::round::{
    drawn_indices, plane_axes, project, ModelStep, Point2, RoundHead, RoundRequest, RoundTrace,
    Stages,
};
use crate::scenarios::ConfigError;
use nalgebra::DMatrix;

use super::super::config::FedRepConfig;

/// The private run at ε = epsilons[0] before its first round, with its data,
/// its σ̂ and the ε it spends.
fn replay(c: &FedRepConfig) -> Result<(FedRep, FederatedDataset, f64), ConfigError> {
    if c.target.epsilons.is_empty() {
        return Err(ConfigError::invalid(
            "epsilons",
            "a round in slow motion needs a private run: give at least one ε",
        ));
    }
    let job = Job::PrivateFedRep { epsilon_index: 0 };
    let mut seed = SeedSweep::new(c.clone(), vec![(0, job.clone())], None);
    // The data and the initialization's statistic, as the sweep draws them.
    while !matches!(seed.phase, Phase::Jobs { .. } | Phase::Done) {
        seed.step()
            .map_err(|e| ConfigError::invalid("preset", e.to_string()))?;
    }
    let (run, report, _) = seed
        .new_fedrep(&job)
        .map_err(|e| ConfigError::invalid("epsilons", e.to_string()))?;
    let spent = report.map_or(f64::NAN, |r| r.epsilon_exact);
    Ok((run, seed.data, spent))
}

/// U after `rounds` rounds of the run of [`replay`], on its own path (tests).
pub fn fedrep_run_after(c: &FedRepConfig, rounds: usize) -> Result<DMatrix<f64>, ConfigError> {
    let (mut run, data, _) = replay(c)?;
    for _ in 0..rounds {
        run.step(&data);
    }
    Ok(run.u().clone())
}

/// Round `request.round` (1-based) of Private FedRep at the first ε, in slow
/// motion, with U after it and the mean that round released (for tests).
pub fn fedrep_round(
    c: &FedRepConfig,
    request: RoundRequest,
) -> Result<(RoundTrace, DMatrix<f64>, Vec<f64>), ConfigError> {
    let rounds = c.rounds;
    if request.round == 0 || request.round > rounds {
        return Err(ConfigError::invalid(
            "round",
            format!("the run takes {rounds} rounds: choose a round from 1 to {rounds}"),
        ));
    }
    let (mut run, data, spent) = replay(c)?;
    for _ in 1..request.round {
        run.step(&data);
    }
    let (n, d, k) = (data.n(), data.d(), data.k());
    let u_before = run.u().clone();
    let angle_before = *run.angles().last().unwrap_or(&f64::NAN);
    // The round's own code: U after it and what it released, (1/n)Σ clip(∇_i) + ξ.
    let mut own = run.clone();
    own.step(&data);
    let released = own.last_release().to_vec();
    let xi = run.round_noise(d * k);
    // On the sum's scale: n·release = Σ clip(∇_i) + nξ.
    let noise: Vec<f64> = xi.iter().map(|z| z * n as f64).collect();
    // Each user's contribution, in the order the round adds them.
    let mut raw_norms = Vec::with_capacity(n);
    let mut factors = Vec::with_capacity(n);
    let mut sum = vec![0.0; d * k];
    let mut non_private_sum = vec![0.0; d * k];
    // One pass: every norm and factor and both sums, and a copy of each drawn
    // contribution, projected once the sum and the noise fix the plane.
    let drawn = drawn_indices(n);
    let mut kept: Vec<Vec<f64>> = Vec::with_capacity(drawn.len());
    run.clone()
        .for_each_contribution(&data, |i, g, f, contribution| {
            raw_norms.push(g);
            factors.push(f);
            if f > 0.0 {
                axpy(f, contribution, &mut sum);
                axpy(1.0, contribution, &mut non_private_sum);
            }
            if drawn.get(kept.len()) == Some(&i) {
                kept.push(contribution.to_vec());
            }
        });
    let axes = plane_axes(&sum, &noise);
    let points: Vec<Point2> = kept.iter().map(|c| project(c, &axes)).collect();
    let stages = Stages {
        raw_norms,
        factors: &factors,
        clip: c.clip,
        sum: &sum,
        noise: &noise,
        non_private_sum: &non_private_sum,
        sigma: run.params().sigma * n as f64,
    };
    let (measured, plane) = stages.measure(|_, _| points.clone());
    let u_after = own.u().clone();
    let trace = RoundTrace::new(
        RoundHead {
            method: "Private FedRep".into(),
            run: format!(
                "n = {n} users, d = {d}, k = {k}, seed {}, ε = {} (spends {spent:.4} at δ = {}), clip ψ = {}, σ̂ = {:.3e} on the mean",
                c.seed, c.target.epsilons[0], crate::privacy::report::fmt_num(c.delta), c.clip, run.params().sigma
            ),
            unit: "user",
            round: request.round,
            rounds,
            epsilon: c.target.epsilons[0],
            delta: c.delta,
        },
        measured,
        plane,
        ModelStep {
            measure: "principal angle to U*",
            before: angle_before,
            after: *own.angles().last().unwrap_or(&f64::NAN),
            change_norm: (&u_after - &u_before).norm(),
        },
    );
    // σ at other ε: the run's calibration, σ̂ on the mean times n.
    let sigma_at = |epsilon: f64| {
        plan_private_fedrep(c, epsilon)
            .ok()
            .map(|plan| plan.sigma * n as f64)
    };
    Ok((
        trace.with_sigmas(&c.target.epsilons, sigma_at),
        u_after,
        released,
    ))
}

/// The scenario's [`crate::scenarios::adapter::Experiment::ROUND`].
pub fn round_of(
    c: &crate::scenarios::Checked<FedRepConfig>,
    request: RoundRequest,
) -> Result<RoundTrace, Vec<ConfigError>> {
    fedrep_round(c, request)
        .map(|(trace, _, _)| trace)
        .map_err(|e| vec![e])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::fedrep::USER_BLOCK;
    use crate::scenarios::field::Config;

    /// What the round released is the clipped sum the run's blocks add up
    /// (in block order) over n, plus the ξ the trace redrew: bit for bit.
    #[test]
    fn the_redrawn_noise_is_the_noise_the_round_added() {
        let c = FedRepConfig::from_pairs(
            "fedrep-paper",
            [
                ("n", "300"),
                ("epsilons", "1"),
                ("altmin", "off"),
                ("rounds", "3"),
            ],
        )
        .unwrap()
        .into_inner();
        let (mut run, data, _) = replay(&c).unwrap();
        run.step(&data);
        let (n, d, k) = (data.n(), data.d(), data.k());
        let partials = run.clone().block_partials(&data, 0..n.div_ceil(USER_BLOCK));
        let mut sum = vec![0.0; d * k];
        for p in &partials {
            axpy(1.0, &p.sum, &mut sum);
        }
        let xi = run.round_noise(d * k);
        let mut own = run.clone();
        own.step(&data);
        let expected: Vec<f64> = sum.iter().zip(&xi).map(|(s, z)| s / n as f64 + z).collect();
        assert_eq!(own.last_release(), &expected[..]);
        assert!(xi.iter().any(|z| *z != 0.0));
    }
}
