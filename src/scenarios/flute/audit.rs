//! The audit of DP-FLUTE's rounds (this project's private extension of
//! Liu, Shen & Yang 2024, Algorithm 1): a canary client, and the attack's score.
//!
//! A client's whole contribution to a round is the pair v_i = (∇_B L_i,
//! w_i w_iᵀ), clipped to ψ as one vector. The canary is the worst case the
//! clipping allows: a contribution (±ψ·E₁₁, 0) of full norm on entry (1, 1)
//! of the d×k part at every round. It takes client 0's place: client 0's own
//! data and head are left out of the sums on both sides. Replace-one: +ψ
//! ("in") against −ψ ("out"), 2ψ apart; add/remove-one: +ψ against nothing,
//! ψ apart — the sensitivity the accountant uses under each relation. The other
//! clients' data and the random start (B⁰, W⁰) are the preset's, fixed.
//!
//! White-box score (each round's release S̃_t is seen, as the accountant
//! assumes): the attacker knows the other clients and the state, so
//! S̃_t − S_others,t = canary + noise; the score sums entry (1, 1) over the
//! rounds: N(±Tψ, Tσ²) under replace-one. Final-output score: −B_T[1, 1]
//! (the canary pushes B's first entry down).

use super::config::FluteConfig;
use super::plan::plan;
use crate::algorithms::flute::Flute;
use crate::data::shared_representation::FederatedDataset;
use crate::privacy::Relation;
use crate::rng::{combine, stream, NoiseSource, Purpose};
use crate::scenarios::audit::{
    accountant_refuses, AuditMode, AuditOptions, AuditTarget, AuditTargets, Claim,
};
use crate::scenarios::error::ConfigError;
use crate::scenarios::Checked;
use std::sync::Arc;

/// Seconds per M·N·d·(k + 2) of a private round's client sums, measured
/// natively on `flute-private` (the sweep's cost model counts 0.7 ns with
/// its metrics; the audit computes none).
const SECONDS_PER_ROUND_UNIT: f64 = 0.46e-9;

/// One audited DP-FLUTE release (one ε).
pub struct FluteAudit {
    claim: Claim,
    relation: Relation,
    clip: f64,
    start: Flute,
    data: Arc<FederatedDataset>,
    mode: AuditMode,
    seed: u64,
    seconds_per_run: f64,
}

/// The audited releases of a FLUTE config: DP-FLUTE at every ε.
pub fn flute_audit_targets(c: &Checked<FluteConfig>, options: &AuditOptions) -> AuditTargets {
    if !c.private {
        return Err(vec![ConfigError::invalid(
            "private",
            "the audit attacks DP-FLUTE: turn the private runs on",
        )]);
    }
    if c.epsilons.is_empty() {
        return Err(vec![ConfigError::invalid(
            "epsilons",
            "the audit attacks DP-FLUTE: give at least one ε",
        )]);
    }
    let data = Arc::new(c.model(c.seed, c.m).generate().points);
    let mut targets: Vec<Box<dyn AuditTarget>> = Vec::new();
    for (e, &epsilon) in c.epsilons.iter().enumerate() {
        let p = plan(c, epsilon).map_err(|err| accountant_refuses(epsilon, err))?;
        let sigma = if options.broken {
            p.flute_sigma / 2.0
        } else {
            p.flute_sigma
        };
        // The sweep's start (B⁰, W⁰ from the same stream as its DP-FLUTE runs).
        let mut init = stream(c.seed, Purpose::Initialization, 1);
        let params = super::run::flute_params(c, c.gamma1, Some(c.clip), sigma);
        // One run: the private rounds' client sums over the other clients.
        let seconds_per_run = params.rounds as f64
            * (c.n * c.m * c.d) as f64
            * (c.k as f64 + 2.0)
            * SECONDS_PER_ROUND_UNIT;
        let start = Flute::new(&data, c.alpha, params, &mut init, 0);
        targets.push(Box::new(FluteAudit {
            claim: Claim::new(
                "dp-flute",
                options.broken.then_some("half the noise"),
                epsilon,
                p.flute_report.epsilon_exact,
                c.delta,
            )
            .on_curve("DP-FLUTE (project's extension)"),
            relation: c.relation,
            clip: c.clip,
            start,
            data: data.clone(),
            mode: options.mode,
            seed: combine(options.seed, combine(0xF1, e as u64)),
            seconds_per_run,
        }));
    }
    Ok(targets)
}

impl AuditTarget for FluteAudit {
    fn claim(&self) -> &Claim {
        &self.claim
    }
    fn canary(&self) -> String {
        match self.relation {
            Relation::ReplaceOne => "a client whose clipped contribution is ±ψ on entry (1, 1) of ∇_B at every round (replace-one: the +ψ client against the −ψ one), in client 0's place; the same random start every run".into(),
            Relation::AddRemoveOne => "a client whose clipped contribution is +ψ on entry (1, 1) of ∇_B at every round, present or absent (add/remove-one), in client 0's place; the same random start every run".into(),
        }
    }
    fn seconds_per_run(&self) -> f64 {
        self.seconds_per_run
    }

    fn score(&mut self, canary_in: bool, run: u64) -> f64 {
        let data = &*self.data;
        let mut flute = self.start.clone();
        flute.set_noise(NoiseSource::new(combine(
            self.seed,
            combine(run, canary_in as u64),
        )));
        let canary = match (canary_in, self.relation) {
            (true, _) => self.clip,
            (false, Relation::ReplaceOne) => -self.clip,
            (false, Relation::AddRemoveOne) => 0.0,
        };
        let mut score = 0.0;
        while !flute.is_done() {
            let mut sums = flute.client_sums(data, 1..data.n());
            let others = sums.s[0];
            sums.s[0] += canary;
            flute.apply_sums(sums);
            score += flute.last_release()[(0, 0)] - others;
        }
        match self.mode {
            AuditMode::WhiteBox => score,
            AuditMode::Final => -flute.b()[(0, 0)],
        }
    }
}
