//! The audit of Private FedRep's training rounds (Snedeker et al.,
//! Algorithm 1): a canary user whose clipped gradient is a "Dirac" of full
//! norm ψ on entry (1, 1) of the d×k gradient at every round, the worst case
//! the clipping allows, and the attack's score.
//!
//! Replace-one (the paper's relation): user 0 is the canary with +ψ·E₁₁
//! ("in") or the record with −ψ·E₁₁ ("out"), a difference of 2ψ, the
//! sensitivity 2ψ/n of the mean that the accountant uses. The other users'
//! data is the preset's, fixed. Every run starts from the same random U₀,
//! which never looks at the data: the audit attacks the T rounds, and the ε it
//! is compared with is what those rounds spend (`init = random`).
//!
//! White-box score (the accountant's threat model: each round's Gaussian
//! release, the noisy mean gradient, is seen): the attacker knows the other
//! users and U_t, so ĝ_t − (1/n) Σ_{others} clip(∇_i) = ±ψE₁₁/n + ξ_t; the score
//! sums entry (1, 1) over the rounds. Final-output score: −U_T[1, 1].

use super::config::{FedRepConfig, InitMode};
use super::plan::plan_private_fedrep;
use crate::algorithms::fedrep::{BlockPartial, FedRep, FedRepParams, USER_BLOCK};
use crate::data::shared_representation::{FederatedDataset, Storage};
use crate::linalg::{gaussian_matrix, orthonormalize};
use crate::rng::{combine, stream, NoiseSource, Purpose};
use crate::scenarios::audit::{
    accountant_refuses, AuditMode, AuditOptions, AuditTarget, AuditTargets, Claim,
};
use crate::scenarios::error::ConfigError;
use nalgebra::DMatrix;
use std::sync::Arc;

/// One audited Private FedRep release (one ε).
pub struct FedRepAudit {
    claim: Claim,
    clip: f64,
    params: FedRepParams,
    data: Arc<FederatedDataset>,
    u0: DMatrix<f64>,
    mode: AuditMode,
    /// The audit's noise seed for this ε (each run and side gets its own stream).
    seed: u64,
}

/// The audited releases of a Private FedRep config: every ε.
pub fn fedrep_audit_targets(c: &FedRepConfig, options: &AuditOptions) -> AuditTargets {
    let c = FedRepConfig {
        init: InitMode::Random,
        ..c.clone()
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
    let mut targets: Vec<Box<dyn AuditTarget>> = Vec::new();
    for (e, &epsilon) in c.epsilons.iter().enumerate() {
        let plan =
            plan_private_fedrep(&c, epsilon).map_err(|err| accountant_refuses(epsilon, err))?;
        targets.push(Box::new(FedRepAudit {
            claim: Claim::new(
                "private-fedrep",
                options.broken.then_some("half the noise"),
                epsilon,
                plan.report.epsilon_exact,
                c.delta,
            )
            .on_curve("Private FedRep"),
            clip: c.clip,
            params: FedRepParams {
                rounds: c.rounds,
                step: c.step,
                clip: Some(c.clip),
                sigma: if options.broken {
                    plan.sigma / 2.0
                } else {
                    plan.sigma
                },
                batch: c.batch,
            },
            data: data.clone(),
            u0: u0.clone(),
            mode: options.mode,
            seed: combine(options.seed, combine(0xFED, e as u64)),
        }));
    }
    Ok(targets)
}

impl AuditTarget for FedRepAudit {
    fn claim(&self) -> &Claim {
        &self.claim
    }
    fn canary(&self) -> String {
        "a user whose clipped gradient is ±ψ on entry (1, 1) at every round; replace-one: the +ψ user against the −ψ one; the same random U₀ every run".into()
    }

    fn score(&mut self, canary_in: bool, run: u64) -> f64 {
        let data = &*self.data;
        let (n, d, k) = (data.n(), data.d(), data.k());
        let noise = NoiseSource::new(combine(self.seed, combine(run, canary_in as u64)));
        let mut model = FedRep::new(data, self.u0.clone(), self.params.clone(), noise);
        let blocks = n.div_ceil(USER_BLOCK);
        let sign = if canary_in { 1.0 } else { -1.0 };
        let mut score = 0.0;
        while !model.is_done() {
            let mut partials = model.block_partials(data, 0..blocks);
            let others: f64 = partials.iter().map(|p| p.sum[0]).sum::<f64>() / n as f64;
            let mut canary = vec![0.0; d * k];
            canary[0] = sign * self.clip;
            partials.push(BlockPartial {
                sum: canary,
                clipped: 0,
            });
            model.apply_partials(data, &partials);
            score += model.last_release()[0] - others;
        }
        match self.mode {
            AuditMode::WhiteBox => score,
            AuditMode::Final => -model.u()[(0, 0)],
        }
    }
}
