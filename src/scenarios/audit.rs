//! The audit game, the same for every scenario: a scenario supplies its
//! audited releases ([`AuditTarget`]: the neighbouring pair under its
//! relation, with a worst-case canary, and the attack's score of one private
//! run), and [`AuditRun`] runs each R times per side with fresh noise, the data
//! fixed, then turns the scores into lower bounds with `privacy::audit`, at
//! 95 %: the Clopper–Pearson route bounds ε itself; the Gaussian-DP route rules
//! out μ-GDP for μ < μ_LB, and its ε figure is the ε of μ_LB-GDP, which assumes
//! the Gaussian trade-off shape.
//!
//! Every target's pair is neighbouring under the run's own relation
//! (replace-one: the canary against its mirror; add/remove-one: the canary
//! against nothing) and exactly one sensitivity of the accountant apart in the
//! released statistic, so an honest run's bounds stay under its ε.
//!
//! Like a sweep, an audit is estimated before it runs (each target's seconds
//! per run, from its scenario's cost model, times 2R) and refused at `runs`
//! above [`MAX_AUDIT_SECONDS`]. Its default runs per side (`runs: 0`) are the
//! most its attacks want (enough to catch their deliberately broken runs,
//! `runs.rs`) that fit [`DEFAULT_AUDIT_SECONDS`] in one wasm worker, so that a
//! default audit fits in a class; where they do not fit, a scenario whose
//! records a setting counts is audited at fewer of them first
//! ([`AuditRun::sized`]), and only then are the runs cut.
//!
//! The threshold is chosen on a held-out half of each side's scores and the
//! bounds are computed on the other half only (Nasr et al. 2023): it never
//! sees the scores it is judged on. An attack whose score's midpoint is known
//! in advance (two values, or two mirror-image sides) fixes its threshold
//! there and every run is judged.

mod dirac;
mod overlay;
mod runs;
mod target;
mod view;

use super::error::ConfigError;
use super::machine::Machine;
use super::WASM_FACTOR;
use crate::privacy::audit::{audit_bounds, threshold_from_holdout};
use crate::privacy::report::fmt_num;
pub use dirac::{canary_words, dirac_targets, ClippedRounds};
pub use overlay::audit_overlay;
pub use runs::{gaussian_runs_wanted, separated_runs_wanted};
pub use target::{
    accountant_refuses, dirac_canary, Attack, AuditMode, AuditOptions, AuditRow, AuditTarget,
    AuditTargets, Claim, Sides, AUDIT_ALPHA,
};
pub use view::{audit_csv, AuditNote, AuditView, AUDIT_CHARTS, AUDIT_HEADER, VERDICT_CHARS};
use view::{audit_view, upper_first};

/// Most runs per side accepted.
pub const MAX_AUDIT_RUNS: usize = 100_000;

/// Longest audit accepted (estimated, one core natively): a sweep's limit.
pub const MAX_AUDIT_SECONDS: f64 = 3600.0;

/// The page's budget for a default audit (estimated, one wasm worker):
/// within 2× of the estimate it finishes in under 30 s.
pub const DEFAULT_AUDIT_SECONDS: f64 = 12.0;

/// Fewest runs per side a default audit takes (however long one run is).
pub const MIN_DEFAULT_RUNS: usize = 10;

/// `runs` rounded down to two significant figures.
fn two_figures(runs: usize) -> usize {
    let unit = 10usize.pow((runs.max(1) as f64).log10().floor().max(1.0) as u32 - 1);
    runs / unit * unit
}

/// Seconds to choose one target's threshold on its held-out half of `runs`
/// runs per side: every held-out score of either side (2h of them) is a
/// candidate, with its counts over the 2h held-out scores and two
/// Clopper–Pearson inversions (measured natively on Gaussian scores, h = 500
/// to 20 000).
fn holdout_seconds(runs: f64) -> f64 {
    /// Per candidate and held-out score: one comparison.
    const PER_COMPARISON: f64 = 1.5e-9;
    /// Per candidate: the two inversions.
    const PER_CANDIDATE: f64 = 4.0e-5;
    let candidates = 2.0 * (runs / 2.0).floor();
    candidates * (candidates * PER_COMPARISON + PER_CANDIDATE)
}

/// A duration in words, to two figures: "40 ms", "12 s", "3.5 min", "2.1 h".
pub fn fmt_duration(seconds: f64) -> String {
    let short = |x: f64| {
        if x >= 10.0 {
            format!("{x:.0}")
        } else if x >= 1.0 {
            format!("{x:.1}")
        } else {
            format!("{x:.2}")
        }
    };
    if seconds < 1.0 {
        format!("{} ms", short(seconds * 1e3))
    } else if seconds < 120.0 {
        format!("{} s", short(seconds))
    } else if seconds < 7200.0 {
        format!("{} min", short(seconds / 60.0))
    } else {
        format!("{} h", short(seconds / 3600.0))
    }
}

/// The first judged run of a target with `runs` runs per side: half are held
/// out to choose the threshold, none when it is fixed in advance.
fn judged_from(target: &AuditTarget, runs: usize) -> usize {
    if target.fixed_threshold().is_some() {
        0
    } else {
        runs / 2
    }
}

/// Seconds (one core, natively) of the game over `targets` at `runs` per side.
fn cost(targets: &[AuditTarget], runs: usize) -> f64 {
    targets.iter().map(|t| target_cost(t, runs)).sum()
}

fn target_cost(t: &AuditTarget, runs: usize) -> f64 {
    let r = runs as f64;
    let holdout = if t.fixed_threshold().is_some() {
        0.0
    } else {
        holdout_seconds(r)
    };
    2.0 * r * t.seconds_per_run + holdout
}

/// Seconds in one wasm worker of the reference machine of the game over
/// `targets` at `runs` per side.
fn wasm_cost(targets: &[AuditTarget], runs: usize) -> f64 {
    wasm_cost_on(targets, runs, &Machine::REFERENCE)
}

/// Seconds in one wasm worker of `machine`: each target's cost times its wasm
/// factor and the machine's factor for its kind of work.
fn wasm_cost_on(targets: &[AuditTarget], runs: usize, machine: &Machine) -> f64 {
    targets
        .iter()
        .map(|t| {
            target_cost(t, runs) * t.wasm_factor.unwrap_or(WASM_FACTOR) * machine.factor(t.work)
        })
        .sum()
}

/// The most runs per side, up to `most`, whose game takes at most `seconds`
/// by `cost` (the cost grows with the runs).
fn most_runs(
    targets: &[AuditTarget],
    most: usize,
    seconds: f64,
    cost: fn(&[AuditTarget], usize) -> f64,
) -> usize {
    let (mut lo, mut hi) = (0usize, most + 1);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if cost(targets, mid) <= seconds {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

fn runs_wanted(targets: &[AuditTarget]) -> usize {
    targets
        .iter()
        .map(AuditTarget::runs_wanted)
        .max()
        .unwrap_or(1000)
        .min(MAX_AUDIT_RUNS)
}

/// The default runs per side of an audit of `targets`: the most any of its
/// attacks wants ([`Attack::runs_wanted`](target::Attack::runs_wanted)), or
/// fewer, to two figures, when they would not fit [`DEFAULT_AUDIT_SECONDS`]
/// in one wasm worker; never under [`MIN_DEFAULT_RUNS`].
pub fn default_runs(targets: &[AuditTarget]) -> usize {
    default_runs_within(targets, DEFAULT_AUDIT_SECONDS)
}

/// [`default_runs`] within `budget` seconds in one wasm worker.
fn default_runs_within(targets: &[AuditTarget], budget: f64) -> usize {
    let wanted = runs_wanted(targets);
    let fits = most_runs(targets, wanted, budget, wasm_cost);
    let runs = if fits >= wanted {
        wanted
    } else {
        two_figures(fits)
    };
    runs.max(MIN_DEFAULT_RUNS)
}

/// The setting that sizes a scenario's audit (its number of records: users,
/// clients, samples), as a config gives it: what a default audit too slow at
/// the preset's size may lower ([`AuditRun::sized`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeField {
    /// The setting (`n`).
    pub field: &'static str,
    /// The records it counts, plural ("users").
    pub noun: &'static str,
    /// Its value in the config audited (the size the audit runs at).
    pub n: usize,
    /// The fewest records the scenario audits at.
    pub floor: usize,
    /// Why an audit at fewer records attacks the same release, in words
    /// that complete "audited at n = 400 of the preset's 20 000 users: …".
    pub why: &'static str,
}

/// The size an audit ran at, against the preset's.
#[derive(Clone, Debug, PartialEq)]
pub struct AuditSize {
    pub field: &'static str,
    pub noun: &'static str,
    /// The preset's records, and the records audited.
    pub preset: usize,
    pub audited: usize,
    /// Whether every ε claimed at the audited size is the one claimed at the
    /// preset's (each recomputed by the scenario's own plan).
    pub same_claims: bool,
    /// How many times cheaper one pair of runs is at the audited size
    /// (the cost models' estimates).
    pub cheaper: f64,
    why: &'static str,
}

/// A count of records with its thousands apart: 2000, 20 000.
fn count(n: usize) -> String {
    let digits = n.to_string();
    if digits.len() <= 4 {
        return digits;
    }
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

impl AuditSize {
    /// Whether the audit ran at fewer records than the preset's.
    pub fn resized(&self) -> bool {
        self.audited != self.preset
    }

    /// "at n = 400 of the preset's 20 000 users" (or "at the preset's n = 400 users").
    pub fn words(&self) -> String {
        if self.resized() {
            format!(
                "at {} = {} of the preset's {} {}",
                self.field,
                count(self.audited),
                count(self.preset),
                self.noun
            )
        } else {
            format!(
                "at the preset's {} = {} {}",
                self.field,
                count(self.preset),
                self.noun
            )
        }
    }

    /// The note of a resized audit: where, why it is the same game, what the
    /// claims are there.
    pub fn note(&self) -> String {
        self.audit_note().text()
    }

    /// [`note`](Self::note) as the page shows it: where it ran first, the
    /// rest folded.
    pub fn audit_note(&self) -> AuditNote {
        let at = format!("{} = {}", self.field, count(self.audited));
        let claims = if self.same_claims {
            format!("The ε claimed at {at} is the preset's (each recomputed by the scenario's accountant at {at}).")
        } else {
            format!("The ε claimed at {at} differs from the preset's for some releases (their sensitivities depend on {}): each row claims the ε at {at}.", self.field)
        };
        AuditNote::new(
            format!(
                "Audited {} (a run {}× cheaper), to fit the default's time budget",
                self.words(),
                fmt_factor(self.cheaper),
            ),
            "",
            format!("{}. {claims}", upper_first(self.why)),
        )
    }
}

/// A factor to two figures: "2.4", "50", "130".
fn fmt_factor(x: f64) -> String {
    if x >= 10.0 {
        format!("{}", two_figures(x.round() as usize))
    } else {
        format!("{x:.1}")
    }
}

/// Whether two sets of claims are the same (releases and ε spent).
fn same_claims(a: &[AuditTarget], b: &[AuditTarget]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(a, b)| {
            let (x, y) = (a.claim.epsilon_spent, b.claim.epsilon_spent);
            a.claim.method == b.claim.method && (x - y).abs() <= 1e-9 * x.abs().max(y.abs())
        })
}

/// The game over a scenario's targets, in bounded steps.
pub struct AuditRun {
    targets: Vec<AuditTarget>,
    options: AuditOptions,
    /// The records audited and the preset's (None: not sized by a setting).
    size: Option<AuditSize>,
    scores: Vec<(Vec<f64>, Vec<f64>)>,
    rows: Vec<AuditRow>,
    /// (target, run) of the next pair of runs.
    next: (usize, usize),
}

impl AuditRun {
    /// The game over `targets`; `options.runs` 0 takes the default
    /// ([`default_runs`]).
    pub fn new(targets: Vec<AuditTarget>, options: AuditOptions) -> Self {
        Self::within(targets, options, DEFAULT_AUDIT_SECONDS)
    }

    /// [`AuditRun::new`] whose default fits `budget` seconds in one wasm
    /// worker instead of [`DEFAULT_AUDIT_SECONDS`].
    fn within(targets: Vec<AuditTarget>, mut options: AuditOptions, budget: f64) -> Self {
        if options.runs == 0 {
            options.runs = default_runs_within(&targets, budget);
        }
        let scores = targets.iter().map(|_| (Vec::new(), Vec::new())).collect();
        AuditRun {
            targets,
            options,
            size: None,
            scores,
            rows: Vec::new(),
            next: (0, 0),
        }
    }

    /// The game over `targets`, the releases of a config whose records
    /// `size` counts (None: a scenario whose audit no setting sizes). A
    /// default white-box audit (`options.runs` 0) whose attacks want more
    /// runs ([`AuditRun::runs_wanted`]) than fit `budget` seconds in one
    /// wasm worker (the page's: [`DEFAULT_AUDIT_SECONDS`]) runs at fewer
    /// records instead: `rebuild(n′)` gives
    /// the releases at n′ records, their claims recomputed by the
    /// scenario's own plan, with n′ the records that fit (by the cost
    /// models: the preset's scaled by the budget over the estimate, to two
    /// figures, until it fits), never under the scenario's floor; only there
    /// are the runs cut ([`default_runs`]). A white-box score is the
    /// canary's part plus the mechanism's noise, round by round, whatever
    /// the other records hold, so the game at n′ is the game at n (each
    /// scenario says why, [`SizeField::why`]). Runs asked for, and the
    /// final-output mode (whose score reads the whole model), are never
    /// resized. If the scenario refuses n′ (a setting's rule), the audit
    /// keeps the records it last accepted.
    pub fn sized(
        targets: Vec<AuditTarget>,
        size: Option<SizeField>,
        options: AuditOptions,
        budget: f64,
        mut rebuild: impl FnMut(usize) -> AuditTargets,
    ) -> Self {
        let Some(field) = size else {
            return AuditRun::within(targets, options, budget);
        };
        let resizable = options.runs == 0 && options.mode == AuditMode::WhiteBox;
        let mut at = (field.n, None::<Vec<AuditTarget>>);
        if resizable {
            // At most a few steps: each estimate is the cost models', nearly
            // linear in the records.
            for _ in 0..6 {
                let current = at.1.as_deref().unwrap_or(&targets);
                let seconds = wasm_cost(current, runs_wanted(current));
                if seconds <= budget || at.0 <= field.floor {
                    break;
                }
                let scaled = (at.0 as f64 * budget / seconds).floor() as usize;
                let next = two_figures(scaled).max(field.floor);
                if next >= at.0 {
                    break;
                }
                match rebuild(next) {
                    Ok(t) if !t.is_empty() => at = (next, Some(t)),
                    _ => break,
                }
            }
        }
        let (audited, resized) = at;
        let size = |finals: &[AuditTarget]| AuditSize {
            field: field.field,
            noun: field.noun,
            preset: field.n,
            audited,
            same_claims: same_claims(&targets, finals),
            cheaper: cost(&targets, 1) / cost(finals, 1).max(f64::MIN_POSITIVE),
            why: field.why,
        };
        let (size, finals) = match resized {
            Some(finals) => (size(&finals), finals),
            None => (size(&targets), targets),
        };
        let mut run = AuditRun::within(finals, options, budget);
        run.size = Some(size);
        run
    }

    /// The records audited and the preset's, where a setting sizes the audit.
    pub fn size(&self) -> Option<&AuditSize> {
        self.size.as_ref()
    }

    pub fn is_done(&self) -> bool {
        self.next.0 >= self.targets.len()
    }

    /// Runs per side (the default, when the options asked for it).
    pub fn runs(&self) -> usize {
        self.options.runs
    }

    /// Before it runs, for deliberately broken runs whose attack knows its
    /// chances exactly ([`Attack::exact_rates`](target::Attack::exact_rates)):
    /// which audited ε this number of runs can be expected to catch, and why
    /// not the others (the most any attack can show at this size, or what this
    /// canary's game shows). None where no attack knows its chances, or for
    /// honest runs.
    pub fn reach(&self) -> Option<String> {
        use crate::privacy::audit::{
            clopper_pearson_upper, epsilon_lb_clopper_pearson, AttackPoint,
        };
        if !self.options.broken {
            return None;
        }
        let mut caught = Vec::new();
        let mut edge = Vec::new();
        let mut missed = Vec::new();
        for t in &self.targets {
            let Some((p_in, p_out)) = t.attack.exact_rates() else {
                continue;
            };
            let n = self.options.runs - judged_from(t, self.options.runs);
            // The Clopper–Pearson bound when `misses` in-runs score 0 and `false_alarms` out-runs score 1.
            let bound = |misses: usize, false_alarms: usize| {
                let point = AttackPoint {
                    threshold: 0.5,
                    fnr: misses as f64 / n as f64,
                    fpr: false_alarms as f64 / n as f64,
                    fnr_upper: clopper_pearson_upper(misses, n, AUDIT_ALPHA / 2.0),
                    fpr_upper: clopper_pearson_upper(false_alarms, n, AUDIT_ALPHA / 2.0),
                };
                epsilon_lb_clopper_pearson(&point, t.claim.delta)
            };
            // The counts a run expects, and two standard deviations to either side: the bound
            // a run gets is above the pessimistic one, below the optimistic one, most of the time.
            let count = |p: f64, sds: f64| {
                let mean = p * n as f64;
                let sd = (n as f64 * p * (1.0 - p)).sqrt();
                (mean + sds * sd).round().clamp(0.0, n as f64) as usize
            };
            let at = |sds: f64| bound(count(1.0 - p_in, sds), count(p_out, sds));
            let (expected, pessimistic, optimistic) = (at(0.0), at(2.0), at(-2.0));
            let ceiling = bound(0, 0);
            // How far apart the two sides are, whatever the runs: the game's own ε.
            let game = (p_in / p_out).ln().max(((1.0 - p_out) / (1.0 - p_in)).ln());
            let (claim, eps) = (t.claim.epsilon_spent, fmt_num(t.claim.epsilon));
            let above = |x: f64| x > claim * (1.0 + 1e-9);
            if above(pessimistic) {
                caught.push(format!(
                    "ε = {eps} (expected lower bound {} > {})",
                    fmt_num(expected),
                    fmt_num(claim)
                ));
            } else if above(optimistic) {
                edge.push(format!(
                    "ε = {eps} (expected lower bound {} against {}: it depends on the draws)",
                    fmt_num(expected),
                    fmt_num(claim)
                ));
            } else if game <= claim {
                missed.push(format!(
                    "ε = {eps}: this canary's game itself separates in and out by only ε = {} here, so no number of runs catches it",
                    fmt_num(game)
                ));
            } else if ceiling <= claim {
                missed.push(format!(
                    "ε = {eps}: even an attack that told every run apart proves no more than ε ≥ {} at {n} judged runs per side",
                    fmt_num(ceiling)
                ));
            } else {
                missed.push(format!(
                    "ε = {eps}: the expected lower bound is {} ≤ {}; more runs reach it",
                    fmt_num(expected),
                    fmt_num(claim)
                ));
            }
        }
        if caught.is_empty() && edge.is_empty() && missed.is_empty() {
            return None;
        }
        let mut out = format!(
            "At {} runs per side the broken runs can be expected to be caught at ",
            self.options.runs
        );
        out.push_str(&if caught.is_empty() {
            "no audited ε".to_string()
        } else {
            caught.join(", ")
        });
        if !edge.is_empty() {
            out.push_str(&format!("; perhaps at {}", edge.join(", ")));
        }
        if !missed.is_empty() {
            out.push_str(&format!("; not at {}", missed.join("; ")));
        }
        out.push('.');
        Some(out)
    }

    /// The most runs per side its attacks want, to catch their deliberately
    /// broken runs ([`Attack::runs_wanted`](target::Attack::runs_wanted)).
    pub fn runs_wanted(&self) -> usize {
        runs_wanted(&self.targets)
    }

    /// The audited releases (targets).
    pub fn releases(&self) -> usize {
        self.targets.len()
    }

    /// Seconds of one pair of runs (canary in, canary out) of every target.
    fn seconds_per_pair(&self) -> f64 {
        self.targets.iter().map(|t| 2.0 * t.seconds_per_run).sum()
    }

    /// Seconds the game takes on one core natively, estimated before it runs
    /// (within about 2×): R pairs of runs of every target, and choosing the
    /// threshold on a held-out half where it is not fixed in advance.
    pub fn estimated_seconds(&self) -> f64 {
        cost(&self.targets, self.options.runs)
    }

    /// Seconds in one wasm worker (the page's estimate): the native estimate
    /// times each target's wasm factor ([`WASM_FACTOR`] unless it has its own).
    pub fn estimated_wasm_seconds(&self) -> f64 {
        wasm_cost(&self.targets, self.options.runs)
    }

    /// Seconds in one wasm worker of `machine` (the page passes the factors
    /// its probe measured; the default runs stay those of the reference
    /// machine, so an audit's runs do not depend on the machine).
    pub fn estimated_wasm_seconds_on(&self, machine: &Machine) -> f64 {
        wasm_cost_on(&self.targets, self.options.runs, machine)
    }

    /// The bound a sweep has, for an audit: an error at `runs` when the
    /// estimate is over [`MAX_AUDIT_SECONDS`], with the estimate and the most
    /// runs per side that fit.
    pub fn check_work(&self) -> Result<(), ConfigError> {
        let seconds = self.estimated_seconds();
        if seconds <= MAX_AUDIT_SECONDS {
            return Ok(());
        }
        let per_pair = self.seconds_per_pair();
        let releases = self.targets.len();
        let lo = most_runs(&self.targets, self.options.runs, MAX_AUDIT_SECONDS, cost);
        let fits = Some(two_figures(lo)).filter(|&r| r >= 2);
        let how = match fits {
            Some(r) => format!("lower runs to at most {r}, or audit fewer ε or smaller runs"),
            None => "even 2 runs per side are too many: audit fewer ε or smaller runs (the settings that size one run: n, rounds, the dimensions)".into(),
        };
        Err(ConfigError::invalid(
            "runs",
            format!(
                "this audit would take about {} on one core (the limit is {} h): {} runs per side for each of {releases} release{}, about {} per run; {how}",
                fmt_duration(seconds),
                MAX_AUDIT_SECONDS / 3600.0,
                self.options.runs,
                if releases == 1 { "" } else { "s" },
                fmt_duration(per_pair / 2.0 / releases.max(1) as f64),
            ),
        ))
    }

    /// (pairs of runs done, in all).
    pub fn progress(&self) -> (usize, usize) {
        let total = self.targets.len() * self.options.runs;
        (
            (self.next.0 * self.options.runs + self.next.1).min(total),
            total,
        )
    }

    /// Up to `pairs` more pairs of runs (in and out); true once done.
    pub fn step(&mut self, pairs: usize) -> bool {
        for _ in 0..pairs {
            let (t, r) = self.next;
            let Some(target) = self.targets.get_mut(t) else {
                return true;
            };
            let run = r as u64;
            let s_in = target.score(true, run);
            let s_out = target.score(false, run);
            self.scores[t].0.push(s_in);
            self.scores[t].1.push(s_out);
            if r + 1 >= self.options.runs {
                self.finish(t);
                self.next = (t + 1, 0);
            } else {
                self.next = (t, r + 1);
            }
        }
        self.is_done()
    }

    fn finish(&mut self, t: usize) {
        let (ins, outs) = &self.scores[t];
        let target = &self.targets[t];
        let h = judged_from(target, ins.len());
        let threshold = target
            .fixed_threshold()
            .unwrap_or_else(|| threshold_from_holdout(&ins[..h], &outs[..h], AUDIT_ALPHA));
        let claim = &target.claim;
        let mut bounds = audit_bounds(
            &ins[h..],
            &outs[h..],
            &[threshold],
            claim.delta,
            AUDIT_ALPHA,
        );
        if !target.gaussian() {
            // The GDP route assumes a Gaussian trade-off: not a bound here.
            bounds.mu_lb = f64::NAN;
            bounds.epsilon_lb_gdp = f64::NAN;
        }
        self.rows.push(AuditRow {
            method: claim.method.clone(),
            epsilon: claim.epsilon,
            epsilon_spent: claim.epsilon_spent,
            delta: claim.delta,
            runs: self.options.runs,
            mode: self.options.mode.name().into(),
            broken: self.options.broken,
            canary: target.canary(),
            bounds,
            curve: claim.curve.clone(),
            worst_case: claim.worst_case,
            threshold_fixed: target.fixed_threshold().is_some(),
            n: self.size.as_ref().map(|s| s.audited),
            preset_n: self.size.as_ref().map(|s| s.preset),
        });
    }

    /// The privacy statement of the releases this audit attacks, as their
    /// plans state them (`settings`: the audited settings, for the seed).
    pub fn statement(&self, info: &super::ScenarioInfo, settings: &[(&str, String)]) -> String {
        let releases: Vec<&super::statement::Release> = self
            .targets
            .iter()
            .filter_map(|t| t.claim.release.as_ref())
            .collect();
        super::statement::write(info, settings, &releases, Some(self.options.broken))
    }

    pub fn rows(&self) -> &[AuditRow] {
        &self.rows
    }

    /// The charts, their tables, the files and the reading of what is finished.
    pub fn view(&self) -> AuditView {
        let judged: Vec<usize> = self
            .targets
            .iter()
            .zip(&self.scores)
            .map(|(t, s)| judged_from(t, s.0.len()))
            .collect();
        let mut view = audit_view(
            &self.rows,
            &self.scores,
            &judged,
            &self.options,
            self.scores_csv(),
        );
        if let Some(size) = self.size.as_ref().filter(|s| s.resized()) {
            view.notes.insert(0, size.audit_note());
        }
        view
    }

    /// `scores.csv`: every run's score.
    pub fn scores_csv(&self) -> String {
        use super::csv_out::{number as num, CsvFile};
        let mut out = CsvFile::new(["method", "epsilon", "side", "run", "score"]);
        for (t, (ins, outs)) in self.scores.iter().enumerate() {
            let claim = &self.targets[t].claim;
            let (method, epsilon) = (&claim.method, num(claim.epsilon));
            for (side, v) in [("in", ins), ("out", outs)] {
                for (i, s) in v.iter().enumerate() {
                    out.row([
                        method.as_str(),
                        epsilon.as_str(),
                        side,
                        &i.to_string(),
                        &num(*s),
                    ]);
                }
            }
        }
        out.finish()
    }
}
