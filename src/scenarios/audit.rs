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
//! above [`MAX_AUDIT_SECONDS`].
//!
//! The threshold is chosen on a held-out half of each side's scores and the
//! bounds are computed on the other half only (Nasr et al. 2023): it never
//! sees the scores it is judged on.

use super::error::ConfigError;
use super::table::{chart_table, Table};
use super::{ChartInfo, OutputFile, WASM_FACTOR};
use crate::plot::{ChartSpec, LineStyle, Series};
use crate::privacy::audit::{
    attack_point, audit_bounds, phi, phi_inverse, threshold_from_holdout, AuditBounds,
};
use crate::privacy::gdp::mu_for_epsilon;
use crate::privacy::report::fmt_num;
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
        match self {
            AuditMode::WhiteBox => "white-box",
            AuditMode::Final => "final",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "white-box" | "whitebox" | "white" => Some(AuditMode::WhiteBox),
            "final" | "final-output" => Some(AuditMode::Final),
            _ => None,
        }
    }
}

/// How the game is played.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct AuditOptions {
    /// Runs per side (half choose the threshold, half are judged).
    pub runs: usize,
    pub mode: AuditMode,
    /// Deliberately broken: half the noise the accountant asked for, while
    /// claiming the same ε (to see the audit catch a privacy bug).
    pub broken: bool,
    pub seed: u64,
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

/// Most runs per side accepted.
pub const MAX_AUDIT_RUNS: usize = 100_000;

/// Longest audit accepted (estimated, one core natively): a sweep's limit.
pub const MAX_AUDIT_SECONDS: f64 = 3600.0;

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
        }
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
pub type AuditTargets = Result<Vec<Box<dyn AuditTarget>>, Vec<ConfigError>>;

/// The error when the accountant refuses an audited ε (named at `epsilons`).
pub fn accountant_refuses(epsilon: f64, err: impl std::fmt::Display) -> Vec<ConfigError> {
    vec![ConfigError::invalid(
        "epsilons",
        format!("the accountant refuses ε = {epsilon}: {err}"),
    )]
}

/// One audited private release of a scenario.
pub trait AuditTarget: Send {
    /// What the release claims.
    fn claim(&self) -> &Claim;
    fn method(&self) -> String {
        self.claim().method.clone()
    }
    fn epsilon(&self) -> f64 {
        self.claim().epsilon
    }
    fn epsilon_spent(&self) -> f64 {
        self.claim().epsilon_spent
    }
    fn delta(&self) -> f64 {
        self.claim().delta
    }
    fn curve(&self) -> Option<String> {
        self.claim().curve.clone()
    }
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
    /// Seconds one [`AuditTarget::score`] takes on one core natively,
    /// estimated from the scenario's cost model before anything runs.
    fn seconds_per_run(&self) -> f64;
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

/// Whether a series named `name` draws `curve`: the same name, or the name
/// followed by a qualifier (" (spends ε = …)", ", …"), never a longer name
/// ("p = 20" is not "p = 200").
fn names_curve(name: &str, curve: &str) -> bool {
    name.strip_prefix(curve)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', ',', '(']))
}

/// The audit drawn on a scenario's chart whose x axis is ε: for every audited
/// release whose curve the chart shows, a segment at that point's height from
/// the attack's lower bound on ε (95 %; [`AuditRow::epsilon_lb`]) to the ε
/// claimed, so the claim and the evidence sit side by side. Charts without that curve are returned as they are.
pub fn audit_overlay(chart: &ChartSpec, rows: &[AuditRow]) -> ChartSpec {
    let mut out = chart.clone();
    // The smallest x drawn: a bound of 0 cannot sit on a log axis.
    let left = chart
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .filter(|x| x.is_finite() && *x > 0.0)
        .fold(f64::INFINITY, f64::min);
    // A tick at the proved end, 3 % of the y range high, so the segment shows
    // even where it runs along its curve.
    let ys = chart
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .filter(|y| y.is_finite() && (!chart.log_y || *y > 0.0));
    let (lo, hi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| {
        (a.min(y), b.max(y))
    });
    let tick = |y: f64| -> (f64, f64) {
        if chart.log_y {
            let f = (hi / lo).max(10.0).powf(0.03);
            (y / f, y * f)
        } else {
            let h = 0.03 * (hi - lo).max(y.abs() * 0.1).max(f64::MIN_POSITIVE);
            (y - h, y + h)
        }
    };
    let mut listed = false;
    for r in rows {
        let Some(curve) = &r.curve else { continue };
        let height = chart
            .series
            .iter()
            .filter(|s| names_curve(&s.name, curve) && !s.faded)
            .find_map(|s| {
                s.points
                    .iter()
                    .find(|p| (p.0 - r.epsilon).abs() <= 1e-9 * r.epsilon.abs())
                    .map(|p| p.1)
            });
        let (Some(y), lb) = (height, r.epsilon_lb()) else {
            continue;
        };
        if !(y.is_finite() && lb.is_finite() && left.is_finite()) {
            continue;
        }
        let from = if chart.log_x { lb.max(left) } else { lb };
        let mut s = Series::line(
            format!(
                "audit: ε_LB = {} ({}, 95 %) against the claimed {}",
                fmt_num(lb),
                if r.bounds.epsilon_lb_gdp.is_nan() {
                    "Clopper–Pearson"
                } else {
                    "Gaussian-DP route"
                },
                fmt_num(r.epsilon_spent)
            ),
            {
                let (below, above) = tick(y);
                vec![(from, below), (from, above), (from, y), (r.epsilon, y)]
            },
            LineStyle::Dotted,
            11,
        );
        if listed {
            s.in_legend = false;
        } else {
            s.name = "audit: from the attack's lower bound on ε (95 %) to the ε claimed".into();
            listed = true;
        }
        out.series.push(s);
    }
    out
}

pub const AUDIT_HEADER: &str = "method,epsilon,epsilon_spent,delta,runs,mode,broken,epsilon_lb_cp,epsilon_lb_gdp,mu_lb,threshold,fnr,fpr";

/// `audit.csv`: one record per audited release; a bound that does not apply
/// (NaN: the GDP route of a release that is not Gaussian) is an empty field.
pub fn audit_csv(rows: &[AuditRow]) -> String {
    use super::csv_out::{number as num, CsvFile};
    let mut out = CsvFile::with_header(AUDIT_HEADER);
    for r in rows {
        let p = r.bounds.points.first();
        out.row([
            r.method.clone(),
            num(r.epsilon),
            num(r.epsilon_spent),
            num(r.delta),
            r.runs.to_string(),
            r.mode.clone(),
            r.broken.to_string(),
            num(r.bounds.epsilon_lb_cp),
            num(r.bounds.epsilon_lb_gdp),
            num(r.bounds.mu_lb),
            num(p.map_or(f64::NAN, |p| p.threshold)),
            num(p.map_or(f64::NAN, |p| p.fnr)),
            num(p.map_or(f64::NAN, |p| p.fpr)),
        ]);
    }
    out.finish()
}

/// The audit's two charts (the page's canvases, the CLI's SVG names).
pub const AUDIT_CHARTS: &[ChartInfo] = &[
    ChartInfo {
        id: "audit-eps-chart",
        name: "audit chart",
        alt: "The attack's lower bound on epsilon against the accountant's epsilon for each audited run; the same numbers are in the table below",
        caption: "Each point is one audited ε: the accountant's ε (an upper bound: the run is at most this revealing) on the x axis, \
                  the attack's lower bounds at 95 % confidence on the y axis. The Clopper–Pearson route bounds ε itself; the Gaussian-DP \
                  route rules out μ-GDP for every μ below its μ_LB, drawn as the ε of μ_LB-GDP, which assumes the Gaussian trade-off \
                  shape. Honest runs stay under the diagonal; a point above it is a privacy bug caught (try the deliberately broken runs).",
        toggle: None,
        animate: false,
        claims: &[],
    },
    ChartInfo {
        id: "audit-tradeoff-chart",
        name: "trade-off chart",
        alt: "The attack's false-negative rate against its false-positive rate, over the accountant's Gaussian trade-off curve; the same numbers are in the table below",
        caption: "The attack at the largest audited ε: each point is one threshold (its false-positive and false-negative rates on \
                  the judged runs). No attack on a μ-GDP mechanism can go below the accountant's curve G_μ; the closer the points come \
                  to it, the tighter the accountant's ε.",
        toggle: None,
        animate: false,
        claims: &[],
    },
];

/// What the page shows of an audit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AuditView {
    pub charts: Vec<ChartSpec>,
    pub tables: Vec<Table>,
    /// `audit.csv`, then `scores.csv`.
    pub files: Vec<OutputFile>,
    /// What the bounds show and what they do not, in words.
    pub notes: Vec<String>,
    /// The audited releases (the page draws them on the scenario's ε chart
    /// with [`audit_overlay`]).
    pub rows: Vec<AuditRow>,
}

/// The confidence of the bounds: 95 %.
pub const AUDIT_ALPHA: f64 = 0.05;

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

/// The game over a scenario's targets, in bounded steps.
pub struct AuditRun {
    targets: Vec<Box<dyn AuditTarget>>,
    options: AuditOptions,
    scores: Vec<(Vec<f64>, Vec<f64>)>,
    rows: Vec<AuditRow>,
    /// (target, run) of the next pair of runs.
    next: (usize, usize),
}

impl AuditRun {
    pub fn new(targets: Vec<Box<dyn AuditTarget>>, options: AuditOptions) -> Self {
        let scores = targets.iter().map(|_| (Vec::new(), Vec::new())).collect();
        AuditRun {
            targets,
            options,
            scores,
            rows: Vec::new(),
            next: (0, 0),
        }
    }

    pub fn is_done(&self) -> bool {
        self.next.0 >= self.targets.len()
    }

    /// The audited releases (targets).
    pub fn releases(&self) -> usize {
        self.targets.len()
    }

    /// Seconds of one pair of runs (canary in, canary out) of every target.
    fn seconds_per_pair(&self) -> f64 {
        self.targets.iter().map(|t| 2.0 * t.seconds_per_run()).sum()
    }

    /// Seconds the game takes on one core natively, estimated before it runs
    /// (within about 2×): R pairs of runs of every target, and choosing each
    /// target's threshold on its held-out half.
    pub fn estimated_seconds(&self) -> f64 {
        let runs = self.options.runs as f64;
        runs * self.seconds_per_pair() + self.targets.len() as f64 * holdout_seconds(runs)
    }

    /// Seconds in one wasm worker (the page's estimate): the native estimate
    /// times [`WASM_FACTOR`].
    pub fn estimated_wasm_seconds(&self) -> f64 {
        self.estimated_seconds() * WASM_FACTOR
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
        let cost =
            |runs: usize| runs as f64 * per_pair + releases as f64 * holdout_seconds(runs as f64);
        // The most runs per side within the limit (the cost grows with the
        // runs), to two significant figures.
        let (mut lo, mut hi) = (0usize, self.options.runs);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if cost(mid) <= MAX_AUDIT_SECONDS {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let unit = 10usize.pow((lo.max(1) as f64).log10().floor().max(1.0) as u32 - 1);
        let fits = Some(lo / unit * unit).filter(|&r| r >= 2);
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
        let h = ins.len() / 2;
        let threshold = threshold_from_holdout(&ins[..h], &outs[..h], AUDIT_ALPHA);
        let target = &self.targets[t];
        let mut bounds = audit_bounds(
            &ins[h..],
            &outs[h..],
            &[threshold],
            target.delta(),
            AUDIT_ALPHA,
        );
        if !target.gaussian() {
            // The GDP route assumes a Gaussian trade-off: not a bound here.
            bounds.mu_lb = f64::NAN;
            bounds.epsilon_lb_gdp = f64::NAN;
        }
        self.rows.push(AuditRow {
            method: target.method(),
            epsilon: target.epsilon(),
            epsilon_spent: target.epsilon_spent(),
            delta: target.delta(),
            runs: self.options.runs,
            mode: self.options.mode.name().into(),
            broken: self.options.broken,
            canary: target.canary(),
            bounds,
            curve: target.curve(),
            worst_case: target.claim().worst_case,
        });
    }

    pub fn rows(&self) -> &[AuditRow] {
        &self.rows
    }

    /// The charts, their tables, the files and the reading of what is finished.
    pub fn view(&self) -> AuditView {
        let rows = &self.rows;
        let line = |name: &str, points: Vec<(f64, f64)>, style, color| {
            Series::line(name, points, style, color)
        };
        let broken = if self.options.broken {
            " (broken runs: half the noise)"
        } else {
            ""
        };
        let top = rows
            .iter()
            .map(|r| r.epsilon_spent)
            .chain(rows.iter().map(|r| r.bounds.epsilon_lb_gdp))
            .filter(|x| x.is_finite())
            .fold(1.0f64, f64::max);
        let gdp: Vec<(f64, f64)> = rows
            .iter()
            .map(|r| (r.epsilon_spent, r.bounds.epsilon_lb_gdp))
            .filter(|p| p.1.is_finite())
            .collect();
        let mut by_eps = Vec::new();
        if !gdp.is_empty() || rows.is_empty() {
            by_eps.push(line(
                &format!("ε_LB, Gaussian-DP route (Gaussian shape assumed){broken}"),
                gdp,
                LineStyle::Solid,
                0,
            ));
        }
        by_eps.extend([line(
            &format!("ε_LB, Clopper–Pearson route{broken}"),
            rows.iter()
                .map(|r| (r.epsilon_spent, r.bounds.epsilon_lb_cp))
                .collect(),
            LineStyle::Dashed,
            1,
        )]);
        by_eps.push(line(
            "the accountant's ε (upper bound)",
            vec![(0.0, 0.0), (top * 1.05, top * 1.05)],
            LineStyle::Dotted,
            8,
        ));
        // The trade-off of the largest audited ε.
        let mut tradeoff = Vec::new();
        let mut notes = Vec::new();
        if let Some((t, r)) = rows
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.epsilon_spent.total_cmp(&b.1.epsilon_spent))
        {
            let (ins, outs) = &self.scores[t];
            let h = ins.len() / 2;
            let (ji, jo) = (&ins[h..], &outs[h..]);
            let mut all: Vec<f64> = ji
                .iter()
                .chain(jo)
                .copied()
                .filter(|x| x.is_finite())
                .collect();
            all.sort_by(|a, b| a.total_cmp(b));
            let points: Vec<(f64, f64)> = (0..=40)
                .filter_map(|q| all.get(q * (all.len().saturating_sub(1)) / 40).copied())
                .map(|th| {
                    let p = attack_point(ji, jo, th, AUDIT_ALPHA);
                    (p.fpr, p.fnr)
                })
                .collect();
            tradeoff.push(line(
                "the attack (observed rates)",
                points,
                LineStyle::Solid,
                0,
            ));
            let curve = |mu: f64| -> Vec<(f64, f64)> {
                (1..200)
                    .map(|i| {
                        let fpr = i as f64 / 200.0;
                        (fpr, phi(phi_inverse(1.0 - fpr) - mu))
                    })
                    .collect()
            };
            if r.delta == 0.0 {
                // Pure ε-DP: FNR ≥ max(0, 1 − e^ε·FPR, e^−ε·(1 − FPR)).
                let e = r.epsilon_spent.exp();
                tradeoff.push(line(
                    &format!("accountant's bound, pure ε = {}", fmt_num(r.epsilon_spent)),
                    (0..=200)
                        .map(|i| {
                            let fpr = i as f64 / 200.0;
                            (fpr, (1.0 - e * fpr).max((1.0 - fpr) / e).max(0.0))
                        })
                        .collect(),
                    LineStyle::Dashed,
                    8,
                ));
            } else if let Ok(mu) = mu_for_epsilon(r.epsilon_spent, r.delta) {
                tradeoff.push(line(
                    &format!("accountant's bound G_μ, μ = {}", fmt_num(mu)),
                    curve(mu),
                    LineStyle::Dashed,
                    8,
                ));
            }
            if r.bounds.mu_lb > 0.0 {
                tradeoff.push(line(
                    &format!(
                        "ruled out below it by the attack: G_μ, μ_LB = {}",
                        fmt_num(r.bounds.mu_lb)
                    ),
                    curve(r.bounds.mu_lb),
                    LineStyle::Dotted,
                    1,
                ));
            }
        }
        for r in rows {
            let found = if r.bounds.epsilon_lb_gdp.is_nan() {
                format!(
                    "ε ≥ {} (Clopper–Pearson; the Gaussian-DP route does not apply to a pure-ε mechanism)",
                    fmt_num(r.bounds.epsilon_lb_cp)
                )
            } else {
                format!(
                    "ε ≥ {} by Clopper–Pearson; the Gaussian-DP route rules out μ-GDP for every μ < μ_LB = {}, which is ε ≥ {} at this δ if the release has the Gaussian trade-off shape (a Gaussian mechanism's)",
                    fmt_num(r.bounds.epsilon_lb_cp),
                    fmt_num(r.bounds.mu_lb),
                    fmt_num(r.bounds.epsilon_lb_gdp)
                )
            };
            let verdict = match (r.exceeds_claim(), r.worst_case) {
                (true, true) => "That is more than the accountant allows: a privacy bug, caught.",
                (true, false) => "That is more than the accountant allows: its sensitivities are high-probability bounds, and this canary is a sample they do not cover, so its ε is no worst-case guarantee.",
                (false, _) => "Below the accountant's ε, as it must be: the audit found no bug, but a lower bound under the claim does not prove the claim; only the accountant's proof does.",
            };
            notes.push(format!(
                "{} at ε = {} (the accountant: ε = {} at δ = {}), from {} runs per side (half chose the threshold, half were judged), with 95 % confidence: {}. {}",
                r.method,
                fmt_num(r.epsilon),
                fmt_num(r.epsilon_spent),
                fmt_num(r.delta),
                r.runs,
                found,
                verdict
            ));
        }
        if let Some(r) = rows.first() {
            notes.push(format!("The canary: {}.", r.canary));
        }
        let charts = vec![
            ChartSpec {
                title: format!(
                    "Audited ε against the accountant's ({} mode)",
                    self.options.mode.name()
                ),
                x_label: "the accountant's ε (upper bound)".into(),
                y_label: "the attack's lower bound on ε (95 %)".into(),
                log_x: false,
                log_y: false,
                x_hint: Some((0.0, top * 1.05)),
                series: by_eps,
            },
            ChartSpec {
                title: "The attack against the bound".into(),
                x_label: "false-positive rate".into(),
                y_label: "false-negative rate".into(),
                log_x: false,
                log_y: false,
                x_hint: Some((0.0, 1.0)),
                series: tradeoff,
            },
        ];
        AuditView {
            tables: charts.iter().map(chart_table).collect(),
            charts,
            files: vec![
                OutputFile {
                    name: "audit.csv",
                    text: audit_csv(rows),
                },
                OutputFile {
                    name: "scores.csv",
                    text: self.scores_csv(),
                },
            ],
            notes,
            rows: rows.clone(),
        }
    }

    /// `scores.csv`: every run's score.
    pub fn scores_csv(&self) -> String {
        use super::csv_out::{number as num, CsvFile};
        let mut out = CsvFile::new(["method", "epsilon", "side", "run", "score"]);
        for (t, (ins, outs)) in self.scores.iter().enumerate() {
            let target = &self.targets[t];
            let (method, epsilon) = (target.method(), num(target.epsilon()));
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

#[cfg(test)]
mod tests {
    use super::*;

    fn row(curve: &str, epsilon: f64, gdp: f64, cp: f64) -> AuditRow {
        AuditRow {
            method: "m".into(),
            epsilon,
            epsilon_spent: epsilon,
            delta: 1e-5,
            runs: 100,
            mode: "white-box".into(),
            broken: false,
            canary: String::new(),
            bounds: AuditBounds {
                runs_in: 50,
                runs_out: 50,
                delta: 1e-5,
                alpha: AUDIT_ALPHA,
                points: Vec::new(),
                epsilon_lb_cp: cp,
                mu_lb: f64::NAN,
                epsilon_lb_gdp: gdp,
            },
            curve: Some(curve.into()),
            worst_case: true,
        }
    }

    #[test]
    fn the_overlay_marks_the_audited_point_of_its_own_curve_only() {
        let chart = ChartSpec {
            title: String::new(),
            x_label: "ε".into(),
            y_label: String::new(),
            log_x: true,
            log_y: false,
            x_hint: None,
            series: vec![
                Series::line(
                    "DP-GD, p = 200",
                    vec![(1.0, 5.0), (2.0, 6.0)],
                    LineStyle::Solid,
                    0,
                ),
                Series::line(
                    "DP-GD, p = 20 (spends ε = 0.5–1.4)",
                    vec![(1.0, 3.0), (2.0, 4.0)],
                    LineStyle::Solid,
                    1,
                ),
            ],
        };
        let rows = [
            row("DP-GD, p = 20", 2.0, 1.25, 0.5),
            // Pure ε: the Clopper–Pearson bound; 0 on a log axis starts at the left edge.
            row("DP-GD, p = 20", 1.0, f64::NAN, 0.0),
            row("another curve", 2.0, 1.0, 1.0),
        ];
        let out = audit_overlay(&chart, &rows);
        assert_eq!(out.series.len(), 4);
        let p = &out.series[2].points;
        assert_eq!(
            (p[0].0, p[1].0, p[2], p[3]),
            (1.25, 1.25, (1.25, 4.0), (2.0, 4.0))
        );
        assert!(
            p[0].1 < 4.0 && p[1].1 > 4.0,
            "a tick at the proved end: {p:?}"
        );
        assert!(out.series[2].in_legend);
        assert_eq!(out.series[3].points[2..], [(1.0, 3.0), (1.0, 3.0)]);
        assert!(!out.series[3].in_legend);
        assert!(names_curve(
            "Private FedRep (spends ε = 2.8)",
            "Private FedRep"
        ));
        assert!(!names_curve("DP-GD, p = 200", "DP-GD, p = 20"));
    }
}
