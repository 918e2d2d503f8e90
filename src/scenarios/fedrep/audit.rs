//! The audit of Private FedRep's training rounds (Snedeker et al.,
//! Algorithm 1): a canary user whose clipped gradient is a "Dirac" of full
//! norm ψ on entry (1, 1) of the d×k gradient at every round, the worst case
//! the clipping allows, and the attack's score.
//!
//! The pair follows the run's relation. Replace-one (the paper's): user 0 is
//! the canary with +ψ·E₁₁ ("in") or the record with −ψ·E₁₁ ("out"), 2ψ apart,
//! the sensitivity 2ψ/n of the mean that the accountant uses. Add/remove-one:
//! the +ψ·E₁₁ canary ("in") against no user 0 at all ("out"), ψ apart, the
//! sensitivity ψ/n (n, the mean's denominator, is public and fixed, as the
//! accountant assumes). The other users' data is the preset's, fixed. Every
//! run starts from the same random U₀, which never looks at the data: the
//! audit attacks the T rounds, and the ε it is compared with is what those
//! rounds spend (`init = random`).
//!
//! White-box score (the accountant's threat model: each round's Gaussian
//! release, the noisy mean gradient, is seen): the attacker knows the other
//! users and U_t, so ĝ_t − (1/n) Σ_{others} clip(∇_i) = canary/n + ξ_t; the score
//! sums entry (1, 1) over the rounds. Final-output score: −U_T[1, 1]. The
//! game is the shared [`DiracAttack`]; this file says how a round is computed.

use super::config::{FedRepConfig, InitMode};
use super::cost::SECONDS_PER_GFLOP;
use super::method::Method;
use super::plan::plan_private_fedrep;
use crate::algorithms::fedrep::{BlockPartial, FedRep, FedRepParams, USER_BLOCK};
use crate::data::shared_representation::{FederatedDataset, Storage};
use crate::linalg::{gaussian_matrix, orthonormalize};
use crate::privacy::Relation;
use crate::rng::{stream, NoiseSource, Purpose};
use crate::scenarios::adapter::AuditSizeBy;
use crate::scenarios::audit::{
    accountant_refuses, canary_words, dirac_targets, AuditOptions, AuditTargets, ClippedRounds,
};
use crate::scenarios::error::ConfigError;
use crate::scenarios::Checked;
use nalgebra::DMatrix;
use std::sync::Arc;

/// Private FedRep's rounds at one ε, from the same random U₀ every run.
pub struct FedRepRounds {
    params: FedRepParams,
    data: Arc<FederatedDataset>,
    u0: DMatrix<f64>,
}

/// The audited releases of a Private FedRep config: every ε.
pub fn fedrep_audit_targets(c: &Checked<FedRepConfig>, options: &AuditOptions) -> AuditTargets {
    let c = FedRepConfig {
        init: InitMode::Random,
        ..FedRepConfig::clone(c)
    };
    if c.model()
        .storage_for_budget(super::config::STORE_LIMIT_BYTES)
        != Storage::Stored
    {
        return Err(vec![ConfigError::invalid(
            "n",
            "an audit repeats the run thousands of times: lower n (or m, d) so the data fits in memory",
        )]);
    }
    let mut data = c.model().generate();
    // User 0 is the canary's slot: no data of its own (its gradient is 0), the
    // canary's contribution is added to the sum instead.
    let (m, d) = (data.model.m, data.model.d);
    data.x[..m * d].iter_mut().for_each(|v| *v = 0.0);
    data.y[..m].iter_mut().for_each(|v| *v = 0.0);
    let data = Arc::new(data);
    let u0 = orthonormalize(gaussian_matrix(
        c.d,
        c.k,
        &mut stream(c.seed, Purpose::Initialization, 0xA0D17),
    ));
    // One run: T rounds, each user's head and gradient (both twice over its
    // m′ training points), as the sweep's cost model counts a FedRep run. A
    // run alone (its passes over the users shared with no other run) takes
    // 1.1 times that while the users' data fits in the cache, 2.2 times once
    // it does not: measured natively on a quiet machine (fedrep-paper, 60 runs
    // per side) at n = 300 (0.30 s against 0.36 s), n = 2000 (8 MB of data:
    // 2.05 s against 2.38 s) and n = 20 000 (80 MB: 48.4 s against 47.5 s).
    let data_bytes = (c.n * c.m * c.d * 8) as f64;
    let alone = if data_bytes <= 16e6 { 1.1 } else { 2.2 };
    let seconds_per_run = alone
        * c.rounds as f64
        * 4.0
        * (c.n * c.m_train() * c.d * c.k) as f64
        * SECONDS_PER_GFLOP
        * 1e-9;
    let canary = (c.relation, c.clip);
    let epsilons = &c.target.epsilons;
    dirac_targets(epsilons, canary, options, 0xFED, |epsilon| {
        let plan =
            plan_private_fedrep(&c, epsilon).map_err(|err| accountant_refuses(epsilon, err))?;
        let spent = plan.report.epsilon_exact;
        let claim = options.gaussian_claim(Method::PrivateFedrep.name(), epsilon, spent, c.delta);
        let rounds = FedRepRounds {
            params: FedRepParams {
                rounds: c.rounds,
                step: c.step,
                clip: Some(c.clip),
                sigma: options.noise(plan.sigma),
                batch: c.batch,
            },
            data: data.clone(),
            u0: u0.clone(),
        };
        let claim = claim.with_report("user", c.n, &plan.report);
        Ok((claim.on_curve("Private FedRep"), seconds_per_run, rounds))
    })
}

/// What sizes the audit: the users n, at least 50 (the rounds' costs that do not
/// grow with n are U's update and QR).
pub const AUDIT_SIZE: AuditSizeBy<FedRepConfig> = AuditSizeBy::federated(
    "users",
    |c| c.n,
    "the white-box score sums the canary's part of each round's noisy mean and that round's noise, whatever the other users' data, and both scale as 1/n (the noise is calibrated to the mean's sensitivity, 2ψ/n under replace-one), so at any n it is the same distribution scaled by 1/n, which changes no error rate of a threshold at its midpoint 0",
);

impl ClippedRounds for FedRepRounds {
    type Run = FedRep;

    fn start(&self, noise: NoiseSource) -> FedRep {
        FedRep::new(&self.data, self.u0.clone(), self.params.clone(), noise)
    }

    fn is_done(&self, model: &FedRep) -> bool {
        model.is_done()
    }

    /// The users' block partials, with the canary's as one more block.
    fn round(&self, model: &mut FedRep, canary: f64) -> (f64, f64) {
        let data = &*self.data;
        let (n, d, k) = (data.n(), data.d(), data.k());
        let mut partials = model.block_partials(data, 0..n.div_ceil(USER_BLOCK));
        let others: f64 = partials.iter().map(|p| p.sum[0]).sum::<f64>() / n as f64;
        let mut sum = vec![0.0; d * k];
        sum[0] = canary;
        partials.push(BlockPartial { sum, clipped: 0 });
        model.apply_partials(data, &partials);
        (model.last_release()[0], others)
    }

    /// The release is the mean over the n users.
    fn canary_part(&self, canary: f64) -> f64 {
        canary / self.data.n() as f64
    }

    fn final_entry(&self, model: &FedRep) -> f64 {
        model.u()[(0, 0)]
    }

    fn canary(&self, relation: Relation) -> String {
        canary_words(
            relation,
            ["user", "clipped gradient", "entry (1, 1)", "random U₀"],
        )
    }
}
