//! The two sides of the audit game: what an audited release claims (the accountant's ε, δ) and
//! the attack a scenario plays against it ([`AuditTarget`]), and what the game finds
//! ([`AuditRow`]: the lower bounds of `privacy::audit`).

use crate::privacy::audit::AuditBounds;
use crate::privacy::Relation;
use crate::rng::combine;
use crate::scenarios::error::ConfigError;
use crate::scenarios::machine::ProbeKind;
use serde::{Deserialize, Serialize};

/// What the observer sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum AuditMode {
    /// Every released iterate (the threat model of the accountant): the score
    /// sums the released noise's projections on the canary's direction.
    #[default]
    WhiteBox,
    /// Only the final output.
    Final,
}

impl AuditMode {
    pub fn name(self) -> &'static str {
        crate::names::serde_name(&self)
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "white-box" | "whitebox" | "white" => Some(AuditMode::WhiteBox),
            "final" | "final-output" => Some(AuditMode::Final),
            _ => None,
        }
    }

    /// Passes over the data one audited run makes, for its cost: a white-box
    /// score also computes the known records' part at every step.
    pub fn passes(self) -> f64 {
        match self {
            AuditMode::WhiteBox => 2.0,
            AuditMode::Final => 1.0,
        }
    }
}

/// How the game is played.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct AuditOptions {
    /// Runs per side (half choose the threshold, half are judged; all are
    /// judged against a threshold fixed in advance). 0: the default, the
    /// most runs the attacks want that fit [`super::DEFAULT_AUDIT_SECONDS`]
    /// in the page ([`super::AuditRun::new`]).
    pub runs: usize,
    pub mode: AuditMode,
    /// Deliberately broken: half the noise the accountant asked for, while
    /// claiming the same ε (to see the audit catch a privacy bug).
    pub broken: bool,
    pub seed: u64,
}

impl AuditOptions {
    /// The noise an audited run adds where the accountant asks for `sigma`:
    /// half of it in a deliberately broken run (which claims the same ε).
    pub fn noise(&self, sigma: f64) -> f64 {
        if self.broken {
            sigma / 2.0
        } else {
            sigma
        }
    }

    /// The claim of a Gaussian release `method` at target ε `epsilon`
    /// (spending `epsilon_spent` at `delta`), whose deliberately broken run
    /// adds half the noise ([`AuditOptions::noise`]).
    pub fn gaussian_claim(
        &self,
        method: &str,
        epsilon: f64,
        epsilon_spent: f64,
        delta: f64,
    ) -> Claim {
        let broken = self.broken.then_some("half the noise");
        Claim::new(method, broken, epsilon, epsilon_spent, delta)
    }

    /// The seed of the audit's noise for release `index` of a scenario
    /// (`scenario`: its own constant, so that scenarios draw apart); each run
    /// and side then takes its own stream of it.
    pub fn release_seed(&self, scenario: u64, index: usize) -> u64 {
        combine(self.seed, combine(scenario, index as u64))
    }
}

impl Default for AuditOptions {
    fn default() -> Self {
        AuditOptions {
            runs: 1000,
            mode: AuditMode::WhiteBox,
            broken: false,
            seed: 1,
        }
    }
}

/// What an audited release claims: the accountant's side of the game.
#[derive(Clone, Debug, PartialEq)]
pub struct Claim {
    /// The method audited, as `results.csv` names it (with what is broken, if
    /// the run is deliberately broken).
    pub method: String,
    /// The target ε of the run and what the accountant says it spends, at δ.
    pub epsilon: f64,
    pub epsilon_spent: f64,
    pub delta: f64,
    /// The start of the name of the curve that draws this release on the
    /// scenario's ε chart (None: not drawn there).
    pub curve: Option<String>,
    /// Whether the accountant's ε is a worst-case guarantee (true), or rests
    /// on sensitivities that hold only with high probability, which a canary
    /// may exceed (the trace-regression paper's variant).
    pub worst_case: bool,
    /// The accountant's report of the run audited, for the privacy statement.
    pub release: Option<crate::scenarios::statement::Release>,
}

impl Claim {
    /// `method`, or `method (broken: <how>)` for a deliberately broken run.
    pub fn new(
        method: &str,
        broken: Option<&str>,
        epsilon: f64,
        epsilon_spent: f64,
        delta: f64,
    ) -> Self {
        Claim {
            method: match broken {
                Some(how) => format!("{method} (broken: {how})"),
                None => method.into(),
            },
            epsilon,
            epsilon_spent,
            delta,
            curve: None,
            worst_case: true,
            release: None,
        }
    }

    /// The report of the audited run (its plan's), whose `n` `unit`s it protects.
    pub fn with_report(
        mut self,
        unit: &str,
        n: usize,
        report: &crate::privacy::PrivacyReport,
    ) -> Self {
        self.release = Some(crate::scenarios::statement::Release::new(
            &self.method,
            unit,
            n,
            report,
        ));
        self
    }

    /// The accountant's ε rests on high-probability sensitivities, not a worst
    /// case: a bound above it refutes those sensitivities, not the accountant.
    pub fn high_probability(mut self) -> Self {
        self.worst_case = false;
        self
    }

    /// The curve of the scenario's ε chart that draws this release.
    pub fn on_curve(mut self, name: impl Into<String>) -> Self {
        self.curve = Some(name.into());
        self
    }
}

/// What a scenario's `audit_targets` gives: its audited releases, or the
/// settings that keep it from auditing them.
pub type AuditTargets = Result<Vec<AuditTarget>, Vec<ConfigError>>;

/// The error when the accountant refuses an audited ε (named at `epsilons`).
pub fn accountant_refuses(epsilon: f64, err: impl std::fmt::Display) -> Vec<ConfigError> {
    vec![ConfigError::invalid(
        "epsilons",
        format!("the accountant refuses ε = {epsilon}: {err}"),
    )]
}

/// One audited private release of a scenario: what it claims, what one of
/// its runs costs, and the attack the scenario plays against it. The claim
/// and the cost are the same kind of thing for every scenario; only the
/// attack is each scenario's own.
pub struct AuditTarget {
    /// What the release claims.
    pub claim: Claim,
    /// Seconds one [`AuditTarget::score`] takes on one core natively,
    /// estimated from the scenario's cost model before anything runs.
    pub seconds_per_run: f64,
    pub attack: Box<dyn Attack>,
    /// How much longer a run takes in one wasm worker than natively (None:
    /// the sweeps' [`crate::scenarios::WASM_FACTOR`]).
    pub wasm_factor: Option<f64>,
    /// The kind of work a run is, for scaling its estimate to the machine
    /// the audit runs on (the probe's factor of that kind).
    pub work: ProbeKind,
}

impl AuditTarget {
    pub fn new(claim: Claim, seconds_per_run: f64, attack: impl Attack + 'static) -> Self {
        AuditTarget {
            claim,
            seconds_per_run,
            attack: Box::new(attack),
            wasm_factor: None,
            work: ProbeKind::Scalar,
        }
    }

    /// The canary and the neighbouring pair, in words (for the report).
    pub fn canary(&self) -> String {
        self.attack.canary()
    }
    /// One private run with fresh noise `run`, the canary in or out: its
    /// score ([`Attack::score`]).
    pub fn score(&mut self, canary_in: bool, run: u64) -> f64 {
        self.attack.score(canary_in, run)
    }
    /// Whether the release is a Gaussian mechanism ([`Attack::gaussian`]).
    pub fn gaussian(&self) -> bool {
        self.attack.gaussian()
    }
    /// The threshold fixed in advance, if any ([`Attack::fixed_threshold`]).
    pub fn fixed_threshold(&self) -> Option<f64> {
        self.attack.fixed_threshold()
    }
    /// The runs per side its attack wants at its claim ([`Attack::runs_wanted`]).
    pub fn runs_wanted(&self) -> usize {
        self.attack.runs_wanted(&self.claim)
    }
}

/// The attack on one audited release: its canary, and the score of one run.
pub trait Attack: Send {
    /// The canary and the neighbouring pair, in words (for the report).
    fn canary(&self) -> String;
    /// One private run with fresh noise `run` (the same `run` on both sides
    /// draws different noise), the canary in (`true`) or out; its score (larger
    /// means "in").
    fn score(&mut self, canary_in: bool, run: u64) -> f64;
    /// Whether the release is a Gaussian mechanism (μ-GDP), so the
    /// Gaussian-DP route applies; a pure-ε mechanism (δ = 0) says false and is
    /// judged by Clopper–Pearson against the pure-DP trade-off alone.
    fn gaussian(&self) -> bool {
        true
    }
    /// A threshold fixed before any run (a score of two values, whose "in"
    /// side is known in advance): every run is judged, none is held out to
    /// choose it. None: chosen on a held-out half.
    fn fixed_threshold(&self) -> Option<f64> {
        None
    }
    /// Where the score is "in" (1) or "out" (0) with chances the attack can
    /// compute exactly (the exponential mechanism's softmax): (P(1 | canary
    /// in), P(1 | canary out)), so the audit can say before it runs which ε
    /// its size can catch ([`super::AuditRun::reach`]). None otherwise.
    fn exact_rates(&self) -> Option<(f64, f64)> {
        None
    }
    /// The runs per side at which the attack catches its deliberately broken
    /// run at `claim` (the default audit takes fewer when they would not fit
    /// its time budget, [`super::DEFAULT_AUDIT_SECONDS`], even at the fewest
    /// records it may audit). By default a Gaussian release's, from its claim
    /// ([`super::gaussian_runs_wanted`]: half the noise doubles μ).
    fn runs_wanted(&self, claim: &Claim) -> usize {
        super::gaussian_runs_wanted(
            claim.epsilon_spent,
            claim.delta,
            self.fixed_threshold().is_some(),
        )
    }
}

/// What an attack holds twice, once per side of the neighbouring pair: the
/// data (or the mechanism's scores) with the canary in, and out.
#[derive(Clone)]
pub struct Sides<T> {
    pub canary_in: T,
    pub canary_out: T,
}

impl<T> Sides<T> {
    /// The side of a run: the canary in (`true`) or out.
    pub fn get(&self, canary_in: bool) -> &T {
        if canary_in {
            &self.canary_in
        } else {
            &self.canary_out
        }
    }
}

/// The canary's one entry in a release whose records are clipped to `clip`
/// (a "Dirac" of full norm ψ): +ψ with the canary in; out, its mirror −ψ
/// under replace-one, or no record at all (0) under add/remove-one. The two
/// sides are the sensitivity of the clipped sum apart under either relation.
pub fn dirac_canary(relation: Relation, clip: f64, canary_in: bool) -> f64 {
    match (canary_in, relation) {
        (true, _) => clip,
        (false, Relation::ReplaceOne) => -clip,
        (false, Relation::AddRemoveOne) => 0.0,
    }
}

/// One audited release's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AuditRow {
    pub method: String,
    pub epsilon: f64,
    pub epsilon_spent: f64,
    pub delta: f64,
    pub runs: usize,
    pub mode: String,
    pub broken: bool,
    pub canary: String,
    pub bounds: AuditBounds,
    /// The curve of the scenario's ε chart that draws the audited release.
    pub curve: Option<String>,
    /// Whether the claimed ε is a worst-case guarantee ([`Claim::worst_case`]).
    pub worst_case: bool,
    /// Whether the threshold was fixed before any run (every run judged)
    /// rather than chosen on a held-out half.
    #[serde(default)]
    pub threshold_fixed: bool,
    /// The number of records (users, clients, samples) the release was
    /// audited at, and the preset's (they differ where a default audit was
    /// resized to fit its time budget, [`super::AuditSize`]); None for a
    /// scenario whose audit is not sized by a setting.
    #[serde(default)]
    pub n: Option<usize>,
    #[serde(default)]
    pub preset_n: Option<usize>,
}

impl AuditRow {
    /// Whether a route's bound exceeds the accountant's ε: Clopper–Pearson's
    /// refutes the (ε, δ) claim; the Gaussian-DP route's refutes μ-GDP at the
    /// accountant's μ (its ε at δ), the claim of a Gaussian mechanism.
    pub fn exceeds_claim(&self) -> bool {
        // f64::max ignores a NaN (no Gaussian-DP route for a pure-ε release).
        self.bounds.epsilon_lb_gdp.max(self.bounds.epsilon_lb_cp)
            > self.epsilon_spent * (1.0 + 1e-9)
    }

    /// The lower bound to show: the Gaussian-DP route where it applies,
    /// Clopper–Pearson for a pure-ε release. The Gaussian-DP figure is the ε
    /// of μ_LB-GDP: it assumes the release has the Gaussian trade-off shape
    /// (as a Gaussian mechanism's does).
    pub fn epsilon_lb(&self) -> f64 {
        if self.bounds.epsilon_lb_gdp.is_nan() {
            self.bounds.epsilon_lb_cp
        } else {
            self.bounds.epsilon_lb_gdp
        }
    }
}

/// The confidence of the bounds: 95 %.
pub const AUDIT_ALPHA: f64 = 0.05;
