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
//! (the canary pushes B's first entry down). The game is the shared
//! [`DiracAttack`]; this file says how a round is computed.

use super::config::FluteConfig;
use super::plan::plan;
use crate::algorithms::flute::Flute;
use crate::data::shared_representation::FederatedDataset;
use crate::privacy::Relation;
use crate::rng::{stream, NoiseSource, Purpose};
use crate::scenarios::adapter::AuditSizeBy;
use crate::scenarios::audit::{
    accountant_refuses, canary_words, dirac_targets, AuditOptions, AuditTargets, ClippedRounds,
};
use crate::scenarios::error::ConfigError;
use crate::scenarios::Checked;
use std::sync::Arc;

/// Seconds per M·N·d·(k + 2) of a private round's client sums, measured
/// natively on `flute-private` (the sweep's cost model counts 0.7 ns with
/// its metrics; the audit computes none).
const SECONDS_PER_ROUND_UNIT: f64 = 0.46e-9;

/// What sizes the audit: the clients M (`n`), at least 50 (the rounds' costs that do
/// not grow with the clients are the k×k solves and B's update).
pub const AUDIT_SIZE: AuditSizeBy<FluteConfig> = AuditSizeBy::federated(
    "clients",
    |c| c.n,
    "the white-box score sums the canary's part of each round's noisy client sum and that round's noise, whatever the other clients' data, and neither depends on the number of clients (the sum's sensitivity, and so its noise, is ψ's), so its distribution is the same at any M",
);

/// DP-FLUTE's rounds at one ε, from the sweep's start (B⁰, W⁰).
pub struct FluteRounds {
    start: Flute,
    data: Arc<FederatedDataset>,
}

/// The audited releases of a FLUTE config: DP-FLUTE at every ε.
pub fn flute_audit_targets(c: &Checked<FluteConfig>, options: &AuditOptions) -> AuditTargets {
    if !c.private {
        return Err(vec![ConfigError::invalid(
            "private",
            "the audit attacks DP-FLUTE: turn the private runs on",
        )]);
    }
    if c.target.epsilons.is_empty() {
        return Err(vec![ConfigError::invalid(
            "epsilons",
            "the audit attacks DP-FLUTE: give at least one ε",
        )]);
    }
    let data = Arc::new(c.model(c.seed, c.m).generate().points);
    let canary = (c.relation, c.clip);
    let epsilons = &c.target.epsilons;
    dirac_targets(epsilons, canary, options, 0xF1, |epsilon| {
        let p = plan(c, epsilon).map_err(|err| accountant_refuses(epsilon, err))?;
        let sigma = options.noise(p.flute_sigma);
        // The sweep's start (B⁰, W⁰ from the same stream as its DP-FLUTE runs).
        let mut init = stream(c.seed, Purpose::Initialization, 1);
        let params = super::run::flute_params(c, c.gamma1, Some(c.clip), sigma);
        // One run: the private rounds' client sums over the other clients.
        let seconds_per_run = params.rounds as f64
            * (c.n * c.m * c.d) as f64
            * (c.k as f64 + 2.0)
            * SECONDS_PER_ROUND_UNIT;
        let spent = p.flute_report.epsilon_exact;
        let claim = options.gaussian_claim("dp-flute", epsilon, spent, c.delta);
        let rounds = FluteRounds {
            start: Flute::new(&data, c.alpha, params, &mut init, 0),
            data: data.clone(),
        };
        let claim = claim
            .on_curve("DP-FLUTE (project's extension)")
            .with_report("client", c.n, &p.flute_report);
        Ok((claim, seconds_per_run, rounds))
    })
}

impl ClippedRounds for FluteRounds {
    type Run = Flute;

    fn start(&self, noise: NoiseSource) -> Flute {
        let mut flute = self.start.clone();
        flute.set_noise(noise);
        flute
    }

    fn is_done(&self, flute: &Flute) -> bool {
        flute.is_done()
    }

    /// The other clients' sums (client 0's place left out), the canary added.
    fn round(&self, flute: &mut Flute, canary: f64) -> (f64, f64) {
        let mut sums = flute.client_sums(&self.data, 1..self.data.n());
        let others = sums.s[0];
        sums.s[0] += canary;
        flute.apply_sums(sums);
        (flute.last_release()[(0, 0)], others)
    }

    /// The release is the clients' sum.
    fn canary_part(&self, canary: f64) -> f64 {
        canary
    }

    fn final_entry(&self, flute: &Flute) -> f64 {
        flute.b()[(0, 0)]
    }

    fn canary(&self, relation: Relation) -> String {
        let words = [
            "client",
            "clipped contribution",
            "entry (1, 1) of ∇_B",
            "random start",
        ];
        canary_words(relation, words)
    }
}
