//! What an audit shows: its two charts (the attack's lower bounds against the accountant's ε,
//! and the attack's trade-off against the accountant's bound), their tables, `audit.csv` and the
//! reading of the bounds in words (the overlay on a scenario's own ε chart: `overlay.rs`).

use super::target::{AuditOptions, AuditRow, AUDIT_ALPHA};
use crate::plot::{ChartSpec, LineStyle, Series};
use crate::privacy::audit::{attack_point, phi, phi_inverse};
use crate::privacy::gdp::mu_for_epsilon;
use crate::privacy::report::fmt_num;
use crate::scenarios::table::{chart_table, Table};
use crate::scenarios::{ChartInfo, OutputFile};
use serde::Serialize;

#[cfg(test)]
use super::overlay::{audit_overlay, names_curve};

pub const AUDIT_HEADER: &str = "method,epsilon,epsilon_spent,delta,runs,mode,broken,epsilon_lb_cp,epsilon_lb_gdp,mu_lb,threshold,fnr,fpr,n";

/// `audit.csv`: one record per audited release; a bound that does not apply
/// (NaN: the GDP route of a release that is not Gaussian) is an empty field;
/// `n` is the records the release was audited at (empty where no setting
/// sizes the audit).
pub fn audit_csv(rows: &[AuditRow]) -> String {
    use crate::scenarios::csv_out::{number as num, CsvFile};
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
            r.n.map_or(String::new(), |n| n.to_string()),
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
                  the judged runs); the shaded band holds the attack's true curve with 95 % confidence for the whole curve at once \
                  (Dvoretzky–Kiefer–Wolfowitz). No attack on a μ-GDP mechanism can go below the accountant's curve G_μ: a dip of the \
                  observed curve below it that stays inside the band is sampling noise, and only a band wholly below it at some \
                  false-positive rate shows a broken bound (the notes say which). The closer the points come to the curve, the \
                  tighter the accountant's ε.",
        toggle: None,
        animate: false,
        claims: &[],
    },
];

/// The most characters a note's verdict line has.
pub const VERDICT_CHARS: usize = 160;

/// One note of an audit: its verdict first ("caught: 2.81 > 1.33", "consistent:
/// 0.9 ≤ 1.33"), at most [`VERDICT_CHARS`] characters, and what decided it (the
/// page folds it).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AuditNote {
    pub verdict: String,
    pub details: String,
}

impl AuditNote {
    /// A verdict and its details; the verdict is followed by `who` (what it is
    /// about) where both fit in [`VERDICT_CHARS`], else `who` leads the details.
    pub fn new(verdict: String, who: &str, details: String) -> Self {
        let with_who = format!("{verdict} ({who})");
        if who.is_empty() {
            AuditNote { verdict, details }
        } else if with_who.chars().count() <= VERDICT_CHARS {
            AuditNote {
                verdict: with_who,
                details,
            }
        } else {
            AuditNote {
                verdict,
                details: format!("{who}: {details}"),
            }
        }
    }

    /// The verdict and the details as one text (the CLI's, the tests').
    pub fn text(&self) -> String {
        if self.details.is_empty() {
            self.verdict.clone()
        } else {
            format!("{}. {}", self.verdict, self.details)
        }
    }
}

/// What the page shows of an audit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AuditView {
    pub charts: Vec<ChartSpec>,
    pub tables: Vec<Table>,
    /// `audit.csv`, then `scores.csv`.
    pub files: Vec<OutputFile>,
    /// What the bounds show and what they do not, in words: each note its
    /// verdict first, then what decided it.
    pub notes: Vec<AuditNote>,
    /// The audited releases (the page draws them on the scenario's ε chart
    /// with `audit_overlay`).
    pub rows: Vec<AuditRow>,
}

/// The view of an audit's finished releases `rows`, with every target's scores (in, out)
/// and `scores.csv`.
pub(super) fn audit_view(
    rows: &[AuditRow],
    scores: &[(Vec<f64>, Vec<f64>)],
    judged: &[usize],
    options: &AuditOptions,
    scores_csv: String,
) -> AuditView {
    let (tradeoff, reading) = tradeoff_chart(rows, scores, judged);
    let charts = vec![eps_chart(rows, options), tradeoff];
    let mut notes = notes(rows);
    if let Some(reading) = reading {
        notes.insert(notes.len().saturating_sub(1), reading);
    }
    AuditView {
        tables: vec![eps_table(rows, &charts[0]), chart_table(&charts[1])],
        charts,
        files: vec![
            OutputFile {
                name: "audit.csv",
                text: audit_csv(rows),
            },
            OutputFile {
                name: "scores.csv",
                text: scores_csv,
            },
        ],
        notes,
        rows: rows.to_vec(),
    }
}

/// The table of the ε chart: one row per audited release (the chart's own
/// table would list the accountant's ε twice, as x and as its diagonal, with
/// the diagonal's two helper points as rows of their own).
fn eps_table(rows: &[AuditRow], chart: &ChartSpec) -> Table {
    let mut t = Table::new(
        format!("{} ({})", chart.title, chart.y_label),
        &[
            "release",
            "target ε",
            "the accountant's ε (upper bound)",
            "ε_LB, Clopper–Pearson route",
            "ε_LB, Gaussian-DP route (Gaussian shape assumed)",
            "runs per side",
            "verdict",
        ],
    );
    for r in rows {
        t.push(vec![
            r.method.clone(),
            fmt_num(r.epsilon),
            fmt_num(r.epsilon_spent),
            fmt_num(r.bounds.epsilon_lb_cp),
            if r.bounds.epsilon_lb_gdp.is_nan() {
                "— (pure ε)".into()
            } else {
                fmt_num(r.bounds.epsilon_lb_gdp)
            },
            r.runs.to_string(),
            verdict_word(r).into(),
        ]);
    }
    t
}

/// The verdict of one release in a word: caught, not caught (a broken run
/// under its claim), consistent (an honest one), or above a claim whose
/// sensitivities are high-probability bounds.
fn verdict_word(r: &AuditRow) -> &'static str {
    match (r.exceeds_claim(), r.worst_case, r.broken) {
        (true, true, _) => "caught",
        (true, false, _) => "above the claim",
        (false, _, true) => "not caught",
        (false, _, false) => "consistent",
    }
}

fn line(name: &str, points: Vec<(f64, f64)>, style: LineStyle, color: usize) -> Series {
    Series::line(name, points, style, color)
}

/// The audited ε against the accountant's: each route's lower bound at every audited ε,
/// over the diagonal of the accountant's ε.
fn eps_chart(rows: &[AuditRow], options: &AuditOptions) -> ChartSpec {
    // What is broken is in each release's method (its claim's words).
    let broken = if options.broken {
        " (deliberately broken runs)"
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
    ChartSpec {
        title: format!(
            "Audited ε against the accountant's ({} mode)",
            options.mode.name()
        ),
        x_label: "the accountant's ε (upper bound)".into(),
        y_label: "the attack's lower bound on ε (95 %)".into(),
        log_x: false,
        log_y: false,
        x_hint: Some((0.0, top * 1.05)),
        series: by_eps,
    }
}

/// Half-width of the Dvoretzky–Kiefer–Wolfowitz band (Massart's constant) of an empirical
/// CDF of `n` scores at level `a`: P(sup |F̂ − F| > w) ≤ 2·exp(−2n·w²) = a.
fn dkw_width(n: usize, a: f64) -> f64 {
    if n == 0 {
        return 1.0;
    }
    ((2.0 / a).ln() / (2.0 * n as f64)).sqrt()
}

/// The trade-off of the largest audited ε: the attack's rates at 41 thresholds on the
/// judged runs, with a simultaneous 95 % band (DKW on each side's scores at α/2), the
/// accountant's bound (pure ε-DP, or G_μ) and the G_μ the attack rules out; and what the
/// curve shows against the accountant's, in words (None: nothing audited yet).
fn tradeoff_chart(
    rows: &[AuditRow],
    scores: &[(Vec<f64>, Vec<f64>)],
    judged: &[usize],
) -> (ChartSpec, Option<AuditNote>) {
    let mut tradeoff = Vec::new();
    let mut reading = None;
    if let Some((t, r)) = rows
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.epsilon_spent.total_cmp(&b.1.epsilon_spent))
    {
        let (ins, outs) = &scores[t];
        let h = judged.get(t).copied().unwrap_or(ins.len() / 2);
        let (ji, jo) = (&ins[h..], &outs[h..]);
        let mut all: Vec<f64> = ji
            .iter()
            .chain(jo)
            .copied()
            .filter(|x| x.is_finite())
            .collect();
        all.sort_by(|a, b| a.total_cmp(b));
        all.dedup();
        // Every distinct judged score is a threshold (and one above them all).
        let rates: Vec<(f64, f64)> = all
            .iter()
            .copied()
            .chain([f64::INFINITY])
            .map(|th| {
                let p = attack_point(ji, jo, th, AUDIT_ALPHA);
                (p.fpr, p.fnr)
            })
            .collect();
        let shown: Vec<(f64, f64)> = (0..=40)
            .filter_map(|q| rates.get(q * (rates.len().saturating_sub(1)) / 40).copied())
            .collect();
        // The simultaneous band: every threshold's true rates are within (w_out, w_in) of
        // the observed ones with 95 % confidence, so the true trade-off curve at x lies
        // between the lowest FNR − w_in over FPR ≤ x + w_out and the lowest FNR + w_in
        // over FPR ≤ x − w_out.
        let (w_in, w_out) = (
            dkw_width(ji.len(), AUDIT_ALPHA / 2.0),
            dkw_width(jo.len(), AUDIT_ALPHA / 2.0),
        );
        let lowest = |x: f64| -> Option<f64> {
            rates
                .iter()
                .filter(|p| p.0 <= x + 1e-12)
                .map(|p| p.1)
                .min_by(f64::total_cmp)
        };
        let grid: Vec<f64> = (0..=100).map(|i| i as f64 / 100.0).collect();
        let band: Vec<(f64, f64, f64)> = grid
            .iter()
            .map(|&x| {
                let lo = lowest(x + w_out).map_or(0.0, |y| (y - w_in).max(0.0));
                let hi = lowest(x - w_out).map_or(1.0, |y| (y + w_in).min(1.0));
                (x, lo, hi)
            })
            .collect();
        let mut attack = line(
            "the attack (observed rates; band: 95 % for the whole curve)",
            shown,
            LineStyle::Solid,
            0,
        );
        attack.band = band.clone();
        tradeoff.push(attack);
        let curve = |mu: f64| -> Vec<(f64, f64)> {
            (1..200)
                .map(|i| {
                    let fpr = i as f64 / 200.0;
                    (fpr, phi(phi_inverse(1.0 - fpr) - mu))
                })
                .collect()
        };
        // The accountant's lowest FNR at each FPR.
        let bound: Option<Box<dyn Fn(f64) -> f64>> = if r.delta == 0.0 {
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
            Some(Box::new(move |fpr: f64| {
                (1.0 - e * fpr).max((1.0 - fpr) / e).max(0.0)
            }))
        } else if let Ok(mu) = mu_for_epsilon(r.epsilon_spent, r.delta) {
            tradeoff.push(line(
                &format!("accountant's bound G_μ, μ = {}", fmt_num(mu)),
                curve(mu),
                LineStyle::Dashed,
                8,
            ));
            Some(Box::new(move |fpr: f64| phi(phi_inverse(1.0 - fpr) - mu)))
        } else {
            None
        };
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
        if let Some(bound) = bound {
            reading = Some(band_reading(r, &rates, &band, &*bound, ji.len()));
        }
    }
    let chart = ChartSpec {
        title: "The attack against the bound".into(),
        x_label: "false-positive rate".into(),
        y_label: "false-negative rate".into(),
        log_x: false,
        log_y: false,
        x_hint: Some((0.0, 1.0)),
        series: tradeoff,
    };
    (chart, reading)
}

/// What the trade-off chart shows of release `r` in words: whether the attack's observed
/// curve (`rates`: (FPR, FNR) per threshold) goes below the accountant's bound, and if so
/// whether its 95 % band does too (the band's upper edge below the bound: the bound is
/// broken; otherwise the dip is sampling noise). `judged` runs per side.
fn band_reading(
    r: &AuditRow,
    rates: &[(f64, f64)],
    band: &[(f64, f64, f64)],
    bound: &dyn Fn(f64) -> f64,
    judged: usize,
) -> AuditNote {
    // A margin for the bound's own rounding (its curve is computed, not observed).
    const SLACK: f64 = 1e-9;
    let dips = rates
        .iter()
        .filter(|p| p.0 > 0.0 && p.0 < 1.0)
        .any(|&(x, y)| y < bound(x) - SLACK);
    let broken = band
        .iter()
        .filter(|b| b.0 > 0.0 && b.0 < 1.0)
        .any(|&(x, _, hi)| hi < bound(x) - SLACK);
    let who = format!("{} at ε = {}", r.method, fmt_num(r.epsilon));
    let (verdict, details) = if broken {
        (
            "caught (the trade-off chart): the attack's 95 % band lies below the accountant's bound".to_string(),
            "The attack's curve lies below the accountant's bound even counting its 95 % band: at some false-positive rate the attack misses fewer than the accountant allows any attack to, so the bound is broken.".to_string(),
        )
    } else if dips {
        let head = if r.broken {
            "not caught (the trade-off chart): a dip below the bound, but inside the 95 % band"
        } else {
            "consistent (the trade-off chart): a dip below the bound inside the 95 % band, sampling noise"
        };
        (
            head.to_string(),
            format!(
                "The attack's observed curve dips below the accountant's bound, but inside its 95 % band (for the whole curve, {judged} judged runs per side): at this size it cannot be told from sampling noise, so it proves no broken bound; more runs narrow the band."
            ),
        )
    } else {
        let head = if r.broken {
            "not caught (the trade-off chart): the attack stays above the accountant's bound"
        } else {
            "consistent (the trade-off chart): the attack stays above the accountant's bound, as it must"
        };
        (
            head.to_string(),
            format!(
                "The shaded band is where the attack's true curve lies with 95 % confidence ({judged} judged runs per side)."
            ),
        )
    };
    AuditNote::new(verdict, &who, details)
}

/// `s` with its first letter capitalised (a clause made a sentence).
pub(super) fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// What the bounds show and what they do not, one note per release (its
/// verdict first: the attack's best lower bound against the accountant's ε),
/// then the canary.
fn notes(rows: &[AuditRow]) -> Vec<AuditNote> {
    let mut notes = Vec::new();
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
        // The larger route's bound (f64::max ignores the pure release's NaN), as exceeds_claim judges.
        let lb = fmt_num(r.bounds.epsilon_lb_gdp.max(r.bounds.epsilon_lb_cp));
        let spent = fmt_num(r.epsilon_spent);
        let (verdict, why) = match (r.exceeds_claim(), r.worst_case, r.broken) {
            (true, true, _) => (
                format!("caught: {lb} > {spent}, the accountant's ε: a privacy bug, caught"),
                "The attack proves more than the accountant allows: a privacy bug, caught.",
            ),
            (true, false, _) => (
                format!("above the claim: {lb} > {spent}, from a canary the high-probability sensitivities do not cover"),
                "That is more than the accountant allows: its sensitivities are high-probability bounds, and this canary is a sample they do not cover, so its ε is no worst-case guarantee.",
            ),
            (false, _, true) => (
                format!("not caught: {lb} ≤ {spent}, the accountant's ε: this broken run's bug is not shown at this size"),
                "Below the accountant's ε although the run is broken: the attack at this number of runs is not strong enough to show it; more runs, or a stronger attack, may.",
            ),
            (false, _, false) => (
                format!("consistent: {lb} ≤ {spent}, the accountant's ε, as it must be"),
                "Below the accountant's ε, as it must be: the audit found no bug, but a lower bound under the claim does not prove the claim; only the accountant's proof does.",
            ),
        };
        // Where a default ran at fewer records than the preset's, the size it
        // was audited (and its claim computed) at.
        let at = match (r.n, r.preset_n) {
            (Some(n), Some(preset)) if n != preset => format!(" at n = {n}"),
            _ => String::new(),
        };
        let who = format!("{} at ε = {}{at}", r.method, fmt_num(r.epsilon));
        let details = format!(
            "The accountant: ε = {} at δ = {}. From {} runs per side ({}), with 95 % confidence: {}. {}",
            spent,
            fmt_num(r.delta),
            r.runs,
            if r.threshold_fixed {
                "the threshold fixed before any run, every run judged"
            } else {
                "half chose the threshold, half were judged"
            },
            found,
            why
        );
        notes.push(AuditNote::new(verdict, &who, details));
    }
    if let Some(r) = rows.first() {
        notes.push(AuditNote::new(
            "The canary: the worst-case record the attack looks for".into(),
            "",
            format!("{}.", upper_first(&r.canary)),
        ));
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::privacy::audit::AuditBounds;

    fn row(curve: &str, epsilon: f64, gdp: f64, cp: f64) -> AuditRow {
        AuditRow {
            method: "m".into(),
            epsilon,
            epsilon_spent: epsilon,
            delta: 1e-5,
            runs: 100,
            mode: "white-box".into(),
            broken: false,
            threshold_fixed: false,
            n: None,
            preset_n: None,
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

    /// Scores of a Gaussian mechanism at separation `shift`: N(shift, 1) in,
    /// N(0, 1) out, 1000 runs per side (500 judged).
    fn gaussian_scores(seed: u64, shift: f64) -> (Vec<f64>, Vec<f64>) {
        use rand::RngExt;
        use rand_distr::StandardNormal;
        let mut rng = crate::rng::stream(seed, crate::rng::Purpose::MechanismNoise, 9);
        let ins = (0..1000)
            .map(|_| shift + rng.sample::<f64, _>(StandardNormal))
            .collect();
        let outs = (0..1000)
            .map(|_| rng.sample::<f64, _>(StandardNormal))
            .collect();
        (ins, outs)
    }

    /// The trade-off chart's band and its reading: an honest mechanism's
    /// observed curve may dip below G_μ (its claim), never its band; a
    /// mechanism with twice the claimed μ lies below it, band and all.
    #[test]
    fn the_band_holds_an_honest_curve_and_excludes_a_broken_one() {
        let delta = 1e-5;
        let claim = 2.0;
        let mu = mu_for_epsilon(claim, delta).unwrap();
        let mut r = row("m", claim, 0.0, 0.0);
        r.delta = delta;
        let (mut dips, mut broken_honest) = (0, 0);
        for seed in 0..20 {
            let scores = [gaussian_scores(seed, mu)];
            let (chart, reading) = tradeoff_chart(std::slice::from_ref(&r), &scores, &[500]);
            let reading = reading.unwrap().text();
            let band = &chart.series[0].band;
            assert_eq!(band.len(), 101);
            assert!(band.iter().all(|b| 0.0 <= b.1 && b.1 <= b.2 && b.2 <= 1.0));
            if reading.contains("so the bound is broken") {
                broken_honest += 1;
            }
            if reading.contains("sampling noise") {
                dips += 1;
            }
        }
        // A 95 % band for the whole curve: an honest run's band reaches its curve
        // in (nearly) every seed, and at μ exactly its observed curve dips often.
        assert!(
            broken_honest <= 1,
            "{broken_honest} of 20 honest runs read as broken"
        );
        assert!(dips >= 3, "only {dips} of 20 honest curves dip below G_μ");
        for seed in 0..5 {
            let scores = [gaussian_scores(100 + seed, 2.0 * mu)];
            let (_, reading) = tradeoff_chart(std::slice::from_ref(&r), &scores, &[500]);
            assert!(
                reading.unwrap().text().contains("so the bound is broken"),
                "seed {seed}: twice the claimed μ not read as broken"
            );
        }
    }

    #[test]
    fn notes_say_their_verdict_first_in_a_short_line_and_the_table_lists_each_release_once() {
        let long = "JL + exponential mechanism (broken: the exponent without its factor 2, twice the ε it claims)";
        let mut caught = row("c", 1.33, 2.81, 2.0);
        caught.method = long.into();
        caught.broken = true;
        let mut missed = row("c", 3.0, 1.2, 1.0);
        missed.method = long.into();
        missed.broken = true;
        let honest = row("c", 1.33, 0.9, 0.7);
        let rows = [caught, missed, honest];
        let notes = notes(&rows);
        assert_eq!(notes.len(), 4);
        for n in &notes {
            assert!(n.verdict.chars().count() <= VERDICT_CHARS, "{}", n.verdict);
        }
        assert!(
            notes[0].verdict.starts_with("caught: 2.81 > 1.33"),
            "{}",
            notes[0].verdict
        );
        assert!(notes[0].text().contains("a privacy bug, caught"));
        assert!(notes[0].text().contains("(broken: "));
        assert!(
            notes[1].verdict.starts_with("not caught: 1.2 ≤ 3"),
            "{}",
            notes[1].verdict
        );
        assert!(
            notes[2].verdict.starts_with("consistent: 0.9 ≤ 1.33"),
            "{}",
            notes[2].verdict
        );
        assert!(notes[2].verdict.contains("as it must be"));
        assert!(notes[3].verdict.starts_with("The canary"));
        let chart = eps_chart(&rows, &AuditOptions::default());
        let table = eps_table(&rows, &chart);
        assert_eq!(table.rows.len(), rows.len());
        let spent = table
            .headers
            .iter()
            .filter(|h| h.contains("the accountant's ε"))
            .count();
        assert_eq!(spent, 1, "{:?}", table.headers);
        assert_eq!(table.rows[0].last().unwrap(), "caught");
        assert_eq!(table.rows[1].last().unwrap(), "not caught");
        assert_eq!(table.rows[2].last().unwrap(), "consistent");
    }
}
