//! The attack shared by the releases that are a noisy clipped sum over records, round by
//! round (Private FedRep's mean gradient, DP-FLUTE's client sums): a "Dirac" canary of full
//! norm ψ on entry (1, 1) of the sum at every round, in record 0's place, and the score that
//! reads it back. Only how a round is computed is each scenario's own ([`ClippedRounds`]).
//!
//! White-box score (each round's release is seen, as the accountant assumes): the attacker
//! knows the other records and the state, so the release minus the others' part is the
//! canary plus noise; the score sums entry (1, 1) over the rounds. Final-output score: minus
//! entry (1, 1) of the final model (the canary pushes it down). White-box, the threshold is
//! the score's midpoint 0 (under add/remove-one, after taking half the canary's part off
//! every round), fixed in advance: every run is judged.

use super::target::{
    dirac_canary, Attack, AuditMode, AuditOptions, AuditTarget, AuditTargets, Claim,
};
use crate::privacy::Relation;
use crate::rng::{combine, NoiseSource};
use crate::scenarios::error::ConfigError;

/// A scenario's private rounds as the Dirac attack plays them.
pub trait ClippedRounds: Send {
    /// One private run in progress.
    type Run;
    /// A run from the fixed start, with its own noise.
    fn start(&self, noise: NoiseSource) -> Self::Run;
    fn is_done(&self, run: &Self::Run) -> bool;
    /// One round, the canary's entry `canary` added to entry (1, 1) of the
    /// other records' sum: (entry (1, 1) of the release, the others' part of it).
    fn round(&self, run: &mut Self::Run, canary: f64) -> (f64, f64);
    /// The canary's entry `canary` as it enters entry (1, 1) of a release,
    /// without noise (the release's scale: a mean divides it by n).
    fn canary_part(&self, canary: f64) -> f64;
    /// Entry (1, 1) of the run's final model.
    fn final_entry(&self, run: &Self::Run) -> f64;
    /// The canary and the pair under `relation`, in words ([`canary_words`]).
    fn canary(&self, relation: Relation) -> String;
}

/// The Dirac canary and its pair under `relation`, in words: a `record`
/// ("user") whose `part` ("clipped gradient") is ±ψ on `entry` at every
/// round, in record 0's place, every run from the same `start`.
pub fn canary_words(relation: Relation, [record, part, entry, start]: [&str; 4]) -> String {
    match relation {
        Relation::ReplaceOne => format!(
            "a {record} whose {part} is ±ψ on {entry} at every round (replace-one: the +ψ {record} against the −ψ one), in {record} 0's place; the same {start} every run"
        ),
        Relation::AddRemoveOne => format!(
            "a {record} whose {part} is +ψ on {entry} at every round, present or absent (add/remove-one), in {record} 0's place; the same {start} every run"
        ),
    }
}

/// The audited releases of a scenario attacked with a Dirac canary, one per
/// ε of `epsilons`: `release(ε)` gives each one's claim, the seconds of one of
/// its runs and its rounds. The records are clipped to `clip` and
/// neighbouring under `relation`; `scenario` is the scenario's seed constant
/// ([`AuditOptions::release_seed`]).
pub fn dirac_targets<R: ClippedRounds + 'static>(
    epsilons: &[f64],
    (relation, clip): (Relation, f64),
    options: &AuditOptions,
    scenario: u64,
    mut release: impl FnMut(f64) -> Result<(Claim, f64, R), Vec<ConfigError>>,
) -> AuditTargets {
    let mut targets = Vec::new();
    for (e, &epsilon) in epsilons.iter().enumerate() {
        let (claim, seconds_per_run, rounds) = release(epsilon)?;
        let attack = DiracAttack {
            relation,
            clip,
            mode: options.mode,
            seed: options.release_seed(scenario, e),
            rounds,
        };
        targets.push(AuditTarget::new(claim, seconds_per_run, attack));
    }
    Ok(targets)
}

/// The attack with a Dirac canary of norm `clip` under the run's `relation`.
struct DiracAttack<R> {
    relation: Relation,
    clip: f64,
    mode: AuditMode,
    /// The audit's noise seed for this release (each run and side gets its own stream).
    seed: u64,
    rounds: R,
}

impl<R: ClippedRounds> Attack for DiracAttack<R> {
    /// White-box, the score is N(+m, v) in and N(−m, v) out (the +ψ canary
    /// against its −ψ mirror, or against nothing with half the canary's part
    /// taken off): its midpoint 0 is the threshold, fixed before any run, so
    /// every run is judged. From the final output it is chosen on a held-out half.
    fn fixed_threshold(&self) -> Option<f64> {
        (self.mode == AuditMode::WhiteBox).then_some(0.0)
    }

    fn canary(&self) -> String {
        self.rounds.canary(self.relation)
    }

    fn score(&mut self, canary_in: bool, run: u64) -> f64 {
        let noise = NoiseSource::new(combine(self.seed, combine(run, canary_in as u64)));
        let mut state = self.rounds.start(noise);
        let canary = dirac_canary(self.relation, self.clip, canary_in);
        // The score's midpoint at 0: under add/remove-one (the canary against
        // nothing) half the canary's part is taken off every round, so the
        // score is the replace-one score's half, with the same threshold 0.
        let centre = match self.relation {
            Relation::ReplaceOne => 0.0,
            Relation::AddRemoveOne => self.rounds.canary_part(self.clip) / 2.0,
        };
        let mut score = 0.0;
        while !self.rounds.is_done(&state) {
            let (released, others) = self.rounds.round(&mut state, canary);
            score += released - others - centre;
        }
        match self.mode {
            AuditMode::WhiteBox => score,
            AuditMode::Final => -self.rounds.final_entry(&state),
        }
    }
}
