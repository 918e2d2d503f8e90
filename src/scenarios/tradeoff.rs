//! The trade-off chart of a run, for Explain ε: what any membership attack on
//! the run shown can reach, as its true-positive rate (TPR) against its
//! false-positive rate (FPR). One chart holds the accountant's exact curve
//! (a run of Gaussian releases only is μ-GDP: TPR ≤ Φ(Φ⁻¹(FPR) + μ); Dong,
//! Roth & Su 2022), the (ε, δ) region that the ε spent at δ implies (TPR ≤
//! e^ε·FPR + δ and 1 − FPR ≤ e^ε·(1 − TPR) + δ; the pure-DP region at δ = 0
//! for the exponential mechanism), the audit's attack on that release as points
//! with their Clopper–Pearson boxes (the deliberately broken runs' too, when
//! the audit ran them), and the risk the run was calibrated to, when it was
//! (Kulynych & Gomez, NeurIPS 2024). Every sentence it writes is a statement
//! that holds for the numbers drawn (DESIGN §10).
//!
//! Built from an explain entry's [`Release`] (the accountant's reports of the
//! runs it shows) and the audit's rows; the page's wasm `tradeoff_chart` only
//! delegates here.

use super::audit::AuditRow;
use super::statement::Release;
use super::table::Table;
use crate::plot::{ChartSpec, Hue, LineStyle, Series};
use crate::privacy::attacker::tpr_bound;
use crate::privacy::report::{fmt_eps, fmt_num};
use crate::privacy::risk::{tpr_at, Risk};
use crate::privacy::tradeoff::{fpr_grid, gaussian_curve, region_edge, RateBox};
use serde::Serialize;

/// The chart, the table under it and the sentences that read it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TradeoffChart {
    pub spec: ChartSpec,
    pub table: Table,
    /// What the chart shows for this run, one true sentence (or two) each.
    pub notes: Vec<String>,
}

/// The FPRs the table reads the bounds at.
const TABLE_FPRS: [f64; 4] = [0.001, 0.01, 0.1, 0.5];

/// What the accountant guarantees for a release's runs, all together: the
/// largest ε and δ (every run is (ε, δ)-DP at those), and μ when every run is
/// μ-GDP (the largest: a curve that bounds every one of them).
struct Guarantee {
    epsilon: f64,
    delta: f64,
    mu: Option<f64>,
    /// The smallest μ, when the runs differ (shown as a range).
    mu_least: Option<f64>,
    /// Only pure ε-DP releases (δ = 0).
    pure_only: bool,
    /// The pure ε-DP stages, each "name (mechanism)".
    pure_names: Vec<String>,
    /// Sensitivities that hold only with high probability.
    likely_only: bool,
}

impl Guarantee {
    fn of(release: &Release) -> Option<Self> {
        let reports = &release.reports;
        if reports.is_empty() {
            return None;
        }
        let max = |f: &dyn Fn(&crate::privacy::PrivacyReport) -> f64| {
            reports.iter().map(f).fold(f64::NEG_INFINITY, f64::max)
        };
        let mus: Option<Vec<f64>> = reports.iter().map(|p| p.gaussian_mu()).collect();
        let (mu, mu_least) = match mus {
            Some(m) => {
                let hi = m.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let lo = m.iter().copied().fold(f64::INFINITY, f64::min);
                (Some(hi), (hi - lo > 1e-9 * hi).then_some(lo))
            }
            None => (None, None),
        };
        let mut pure_names: Vec<String> = Vec::new();
        for s in reports.iter().flat_map(|p| &p.pure) {
            let named = format!("{} ({})", s.name, s.mechanism);
            if !pure_names.contains(&named) {
                pure_names.push(named);
            }
        }
        Some(Guarantee {
            epsilon: max(&|p| p.epsilon_exact),
            delta: max(&|p| p.delta),
            mu,
            mu_least,
            pure_only: reports.iter().all(|p| p.stages.is_empty()),
            pure_names,
            likely_only: reports.iter().any(|p| p.high_probability_sensitivities),
        })
    }

    /// The highest TPR at `fpr` by the tightest bound drawn.
    fn limit(&self, fpr: f64) -> f64 {
        match self.mu {
            Some(mu) => tpr_at(mu, fpr),
            None => tpr_bound(self.epsilon, self.delta, fpr),
        }
    }

    /// The region's name: pure ε-DP at δ = 0.
    fn region_name(&self) -> String {
        if self.delta == 0.0 {
            format!("pure ε-DP bound, ε = {}", fmt_eps(self.epsilon))
        } else {
            format!(
                "(ε, δ) bound, ε = {}, δ = {}",
                fmt_eps(self.epsilon),
                fmt_num(self.delta)
            )
        }
    }
}

/// `x` to four significant digits rounded down (an interval's lower end, shown
/// no narrower than it is; [`fmt_eps`] rounds its upper end up).
fn fmt_down(x: f64) -> String {
    if !(x.is_finite() && x > 0.0) {
        return fmt_num(x);
    }
    let scale = 10f64.powi(3 - x.log10().floor() as i32);
    fmt_num((x * scale * (1.0 + 1e-12)).floor() / scale)
}

/// Equal as the accountant's numbers travel (a row's ε spent is the report's).
fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

/// The audit's rows that attack a run of `release`: the same ε spent at the
/// same δ (the claim the curve draws), honest and deliberately broken alike.
fn audited<'a>(release: &Release, rows: &'a [AuditRow]) -> Vec<&'a AuditRow> {
    rows.iter()
        .filter(|r| {
            release
                .reports
                .iter()
                .any(|p| same(r.epsilon_spent, p.epsilon_exact) && same(r.delta, p.delta))
        })
        .collect()
}

/// A curve of many points: a line (the exact curve, blue), dashed (the
/// region's edge, vermillion) or dotted (the coin flip, grey).
fn curve(name: String, points: Vec<(f64, f64)>, style: LineStyle, hue: Hue) -> Series {
    Series::line(name, points, style, hue.into())
}

/// One attack point and its box, drawn as a marker with the band it spans
/// (deep purple; magenta for the broken runs').
fn boxed_point(name: String, b: &RateBox, hue: Hue) -> Series {
    let [x0, x1] = b.fpr_interval;
    let [y0, y1] = b.tpr_interval;
    let mut s = Series::line(name, vec![(b.fpr, b.tpr)], LineStyle::Markers, hue.into());
    s.band = vec![(x0, y0, y1), (x1, y0, y1)];
    s
}

/// The trade-off chart of the runs `release` stands for (an explain entry's),
/// with the audit's attack on them among `audit` (a finished audit's rows;
/// the others are left out) and `target`, the risk the run was calibrated to
/// (TPR at FPR), when it was. None for a release without a report.
pub fn tradeoff_chart(
    release: &Release,
    audit: &[AuditRow],
    target: Option<Risk>,
) -> Option<TradeoffChart> {
    let g = Guarantee::of(release)?;
    let unit = release.unit.as_str();
    let extra: Vec<f64> = target.iter().map(|t| t.fpr).collect();
    let xs = fpr_grid(&extra);
    let mut series = Vec::new();
    let mut notes = Vec::new();
    let mut table = Table::new(
        format!(
            "What any attack on {} can reach, and the audit's attack",
            release.who
        ),
        &[
            "what",
            "FPR",
            "TPR",
            "FPR, 95 % interval",
            "TPR, 95 % interval",
        ],
    );
    let mut table_fprs: Vec<f64> = TABLE_FPRS.to_vec();
    table_fprs.extend(&extra);
    table_fprs.sort_by(f64::total_cmp);
    table_fprs.dedup();

    // The exact curve, where every release is Gaussian.
    if let Some(mu) = g.mu {
        let points = gaussian_curve(mu, &xs);
        series.push(curve(
            format!("exact curve, μ = {}", fmt_eps(mu)),
            points,
            LineStyle::Line,
            Hue::Blue,
        ));
        notes.push(format!(
            "Every membership test on what {} releases (any rule that answers “in” or “out” for one {unit}'s data, or \
             which of two values it holds) has its (FPR, TPR) on or below the solid curve, TPR ≤ Φ(Φ⁻¹(FPR) + μ) with μ = {}: this run's exact guarantee, \
             since its Gaussian noise composes to μ-GDP. At FPR = 0.01 that is TPR ≤ {}.",
            release.who,
            fmt_eps(mu),
            fmt_eps(tpr_at(mu, 0.01)),
        ));
        if let Some(lo) = g.mu_least {
            notes.push(format!(
                "This entry stands for {} runs whose μ ranges from {} to {}: the curve is the largest μ's, \
                 which bounds every one of them.",
                release.reports.len(),
                fmt_num(lo),
                fmt_eps(mu)
            ));
        }
        for &x in &table_fprs {
            table.push(vec![
                "exact curve: highest TPR".into(),
                fmt_num(x),
                fmt_eps(tpr_at(mu, x)),
                "—".into(),
                "—".into(),
            ]);
        }
    }

    // The (ε, δ) region: its upper edge, shaded down to the coin flip.
    let edge = region_edge(g.epsilon, g.delta, &xs);
    let inside = g.mu.is_none_or(|mu| {
        gaussian_curve(mu, &xs)
            .iter()
            .zip(&edge)
            .all(|(c, e)| c.1 <= e.1 + 1e-12)
    });
    let mut region = curve(
        g.region_name(),
        edge.clone(),
        LineStyle::Dashed,
        Hue::Vermillion,
    );
    region.band = edge.iter().map(|&(x, t)| (x, x.min(t), t)).collect();
    series.push(region);
    let inequalities = if g.delta == 0.0 {
        "TPR ≤ e^ε·FPR and 1 − FPR ≤ e^ε·(1 − TPR)".to_string()
    } else {
        "TPR ≤ e^ε·FPR + δ and 1 − FPR ≤ e^ε·(1 − TPR) + δ".to_string()
    };
    if g.mu.is_some() {
        notes.push(format!(
            "The dashed edge is what the ε spent says alone, ε = {} at δ = {}: {inequalities}. Every test that beats a \
             coin flip lies in the shaded area{}.",
            fmt_eps(g.epsilon),
            fmt_num(g.delta),
            if inside {
                "; the exact curve lies inside it, since (ε, δ) is a looser summary of the same noise"
            } else {
                ""
            }
        ));
    } else if g.pure_only {
        notes.push(format!(
            "{} releases no Gaussian noise: {} is pure ε-DP, so there is no Gaussian trade-off curve to draw. Its guarantee is the pure-DP region with ε = {} and δ = 0: every test has \
             {inequalities}, on or below the dashed edge (the shaded area holds every test that beats a coin flip).",
            release.who,
            g.pure_names.join(", "),
            fmt_eps(g.epsilon),
        ));
    } else {
        notes.push(format!(
            "Not every release of {} is Gaussian ({} is pure ε-DP, added by basic composition), so there is no exact \
             Gaussian curve: the chart draws the (ε, δ) region the accountant reports, ε = {} at δ = {}, where every \
             test has {inequalities} (on or below the dashed edge).",
            release.who,
            g.pure_names.join(", "),
            fmt_eps(g.epsilon),
            fmt_num(g.delta),
        ));
    }
    for &x in &table_fprs {
        table.push(vec![
            format!(
                "{}: highest TPR",
                if g.delta == 0.0 {
                    "pure ε-DP bound"
                } else {
                    "(ε, δ) bound"
                }
            ),
            fmt_num(x),
            fmt_eps(tpr_bound(g.epsilon, g.delta, x)),
            "—".into(),
            "—".into(),
        ]);
    }
    series.push(curve(
        "coin flip".into(),
        xs.iter().map(|&x| (x, x)).collect(),
        LineStyle::Dotted,
        Hue::Grey,
    ));
    if g.likely_only {
        notes.push(
            "Its sensitivities hold only with high probability (the paper's variant): these bounds are the \
             guarantee on that likely event only."
                .into(),
        );
    }

    // The risk it was calibrated to.
    if let Some(t) = target {
        series.push(Series::line(
            format!(
                "calibrated risk: TPR {} at FPR {}",
                fmt_num(t.tpr),
                fmt_num(t.fpr)
            ),
            vec![(t.fpr, t.tpr)],
            LineStyle::Markers,
            Hue::Green.into(),
        ));
        let allowed = g.limit(t.fpr);
        let reading = if (allowed - t.tpr).abs() <= 1e-6 * t.tpr {
            format!(
                " The {} passes through it: at FPR {} no attack does better.",
                if g.mu.is_some() {
                    "exact curve"
                } else {
                    "dashed edge"
                },
                fmt_num(t.fpr)
            )
        } else {
            format!(
                " At FPR {} this run allows TPR ≤ {}.",
                fmt_num(t.fpr),
                fmt_eps(allowed)
            )
        };
        notes.push(format!(
            "The marked point is the risk the noise was calibrated to: an attacker who wrongly accuses a share {} of \
             outsiders finds at most a share {} of insiders.{reading}",
            fmt_num(t.fpr),
            fmt_num(t.tpr)
        ));
        table.push(vec![
            "calibrated risk".into(),
            fmt_num(t.fpr),
            fmt_num(t.tpr),
            "—".into(),
            "—".into(),
        ]);
    }

    // The audit's attack on these runs, honest and broken.
    let bound_name = if g.mu.is_some() {
        "exact curve"
    } else {
        "dashed edge"
    };
    for r in audited(release, audit) {
        let b = &r.bounds;
        for p in &b.points {
            let rb = RateBox::of(p, b.runs_in, b.runs_out, b.alpha);
            let hue = if r.broken {
                Hue::Magenta
            } else {
                Hue::DeepPurple
            };
            series.push(boxed_point(
                format!("attack on {} (95 % box)", r.method),
                &rb,
                hue,
            ));
            let verdict = if rb.above(|x| tpr_bound(g.epsilon, g.delta, x)) {
                format!(
                    "its box lies wholly above the dashed edge{}, so it refutes the claim ε = {} at δ = {} at 95 % \
                     confidence",
                    if g.mu.is_some() { " and the exact curve" } else { "" },
                    fmt_eps(g.epsilon),
                    fmt_num(g.delta)
                )
            } else if rb.above(|x| g.limit(x)) {
                format!(
                    "its box lies wholly above the exact curve, so it refutes this run's μ-GDP claim (μ = {}) at \
                     95 % confidence, though not the looser (ε, δ) bound",
                    fmt_eps(g.mu.unwrap_or(f64::NAN))
                )
            } else {
                format!(
                    "its box does not lie wholly above the {bound_name}, so it does not contradict the claim \
                     (an attack can only prove that a run leaks at least so much)"
                )
            };
            let broken = if r.broken {
                " These runs are deliberately broken: they do not have the claimed guarantee."
            } else {
                ""
            };
            let mut runs = if b.runs_in == b.runs_out {
                format!("{} judged runs per side", b.runs_in)
            } else {
                format!("{} judged runs in, {} out", b.runs_in, b.runs_out)
            };
            if let (Some(n), Some(of)) = (r.n, r.preset_n) {
                if n != of {
                    runs.push_str(&format!(
                        ", at n = {n} of the preset's {of}: the same ε at δ"
                    ));
                }
            }
            notes.push(format!(
                "The audit's attack on {} ({runs}): FPR {}, TPR {}, in a box of the 95 % Clopper–Pearson interval \
                 of each rate (both hold with probability at least 90 %); {verdict}.{broken}",
                r.method,
                fmt_num(rb.fpr),
                fmt_num(rb.tpr),
            ));
            let interval = |[lo, hi]: [f64; 2]| format!("{} – {}", fmt_down(lo), fmt_eps(hi));
            table.push(vec![
                format!("audit's attack on {}", r.method),
                fmt_num(rb.fpr),
                fmt_num(rb.tpr),
                interval(rb.fpr_interval),
                interval(rb.tpr_interval),
            ]);
        }
    }
    notes.push(
        "Tick “log x axis” to read the low-FPR regime (an attacker who may wrongly accuse very few outsiders), \
         which a linear axis squeezes against its left edge."
            .into(),
    );

    let spec = ChartSpec::new(
        format!("What any attack on {} can reach", release.who),
        "false-positive rate FPR (outsiders wrongly flagged)",
        "true-positive rate TPR (insiders found)",
        series,
    );
    Some(TradeoffChart { spec, table, notes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::privacy::audit::audit_bounds;
    use crate::privacy::{Calibration, GaussianStage, PrivacyEvent, PrivacyReport, Relation};

    /// One Gaussian release of μ = `mu` (sensitivity 1, σ = 1/μ) at δ = 1e-6.
    fn gaussian(mu: f64) -> Release {
        let stage = GaussianStage::new("steps", "Gaussian", 1.0, 1.0 / mu, 1);
        let p = PrivacyReport::from_stages(
            vec![stage],
            1e-6,
            Relation::ReplaceOne,
            Calibration::Exact,
            5.2,
        )
        .unwrap();
        Release::new("DP-GD", "sample", 1000, &p)
    }

    fn pure(epsilon: f64) -> Release {
        let event = PrivacyEvent::Exponential {
            name: "selection".into(),
            mechanism: "exponential mechanism".into(),
            epsilon,
            sensitivity: 1.0,
            candidates: 10,
        };
        let p = PrivacyReport::from_event(
            &event,
            1e-5,
            Relation::ReplaceOne,
            Calibration::Exact,
            epsilon,
        )
        .unwrap();
        Release::new("JL + EM", "user", 1000, &p)
    }

    /// An audit row of `release`'s claim whose one threshold has `fn_count`
    /// of 1000 in-runs below it and `fp_count` of 1000 out-runs above it.
    fn row(release: &Release, fn_count: usize, fp_count: usize, broken: bool) -> AuditRow {
        let p = &release.reports[0];
        let ins: Vec<f64> = (0..1000)
            .map(|i| if i < fn_count { 0.0 } else { 1.0 })
            .collect();
        let outs: Vec<f64> = (0..1000)
            .map(|i| if i < fp_count { 1.0 } else { 0.0 })
            .collect();
        AuditRow {
            method: if broken {
                "dpgd (broken: half the noise)".into()
            } else {
                "dpgd".into()
            },
            epsilon: p.epsilon_target,
            epsilon_spent: p.epsilon_exact,
            delta: p.delta,
            runs: 1000,
            mode: "white-box".into(),
            broken,
            canary: String::new(),
            bounds: audit_bounds(&ins, &outs, &[0.5], p.delta, 0.05),
            curve: None,
            worst_case: true,
            threshold_fixed: true,
            n: None,
            preset_n: None,
        }
    }

    fn named<'a>(c: &'a TradeoffChart, start: &str) -> Vec<&'a Series> {
        c.spec
            .series
            .iter()
            .filter(|s| s.name.starts_with(start))
            .collect()
    }

    #[test]
    fn the_exact_curve_passes_through_the_reference_risk() {
        // μ = 1.044796 = Φ⁻¹(0.99) − Φ⁻¹(0.9) gives TPR 0.10 at FPR 0.01, and ε = 5.136816 at δ = 1e-6
        // (both computed independently, as in privacy::risk's tests).
        let c = tradeoff_chart(&gaussian(1.044796), &[], None).unwrap();
        let exact = named(&c, "exact curve")[0];
        assert_eq!(exact.style, LineStyle::Line);
        let at = |s: &Series, x: f64| s.points.iter().find(|p| (p.0 - x).abs() < 1e-15).unwrap().1;
        assert!((at(exact, 0.01) - 0.10).abs() < 1e-6, "{}", at(exact, 0.01));
        // The region is that of the ε it spends: ε = 5.136816 at δ = 1e-6.
        let region = named(&c, "(ε, δ) bound")[0];
        assert!(region.name.contains("ε = 5.137"), "{}", region.name);
        let eps = 5.136816f64;
        let x = 1e-4;
        let want = (eps.exp() * x + 1e-6).min(1.0 - (-eps).exp() * (1.0 - 1e-6 - x));
        assert!(
            (at(region, x) - want).abs() < 1e-5 * want,
            "{} vs {want}",
            at(region, x)
        );
        // Its shading runs from the coin flip to the edge; the curve lies under the edge.
        assert!(region.band.iter().all(|&(x, lo, hi)| lo == x.min(hi)));
        for (c, e) in exact.points.iter().zip(&region.points) {
            assert!(c.1 <= e.1 + 1e-12, "{c:?} above {e:?}");
        }
        assert!(
            c.notes[0].contains("μ = 1.045") && c.notes[0].contains("TPR ≤ 0.1"),
            "{}",
            c.notes[0]
        );
        assert!(c
            .notes
            .iter()
            .any(|n| n.contains("the exact curve lies inside it")));
        // No audit, no target: no points.
        assert!(c.spec.series.iter().all(|s| s.style != LineStyle::Markers));
        // The table reads the curve at FPR 0.01.
        assert!(c
            .table
            .rows
            .iter()
            .any(|r| r[0].starts_with("exact curve") && r[1] == "0.01" && r[2] == "0.1"));
    }

    #[test]
    fn a_given_risk_target_is_marked_and_read_against_the_curve() {
        let risk = Risk::new(0.1, 0.01).unwrap();
        let c = tradeoff_chart(&gaussian(risk.mu()), &[], Some(risk)).unwrap();
        let t = named(&c, "calibrated risk")[0];
        assert_eq!(
            (t.points.clone(), t.style),
            (vec![(0.01, 0.1)], LineStyle::Markers)
        );
        assert!(
            c.notes.iter().any(|n| n.contains("passes through it")),
            "{:?}",
            c.notes
        );
        // A run noisier than the target: the point lies above the curve, and the note says what the run allows.
        let c = tradeoff_chart(&gaussian(0.681494), &[], Some(risk)).unwrap();
        let n = c.notes.iter().find(|n| n.contains("marked point")).unwrap();
        assert!(n.contains("allows TPR ≤ 0.05"), "{n}");
    }

    #[test]
    fn the_audit_s_points_carry_their_clopper_pearson_boxes_and_verdicts() {
        let release = gaussian(1.044796);
        // Honest: 900 of 1000 in-runs missed, 10 of 1000 out-runs flagged: on the curve.
        let honest = row(&release, 900, 10, false);
        // Broken: perfect separation, far above the curve.
        let broken = row(&release, 0, 0, true);
        // Another ε's row is not this run's.
        let mut other = row(&release, 500, 10, false);
        other.epsilon_spent *= 2.0;
        let c = tradeoff_chart(&release, &[honest.clone(), broken, other], None).unwrap();
        let points = named(&c, "attack on");
        assert_eq!(points.len(), 2);
        let b = RateBox::of(&honest.bounds.points[0], 1000, 1000, 0.05);
        let h = points[0];
        assert_eq!(
            (h.style, h.color),
            (LineStyle::Markers, Hue::DeepPurple.into())
        );
        let (x, y) = h.points[0];
        assert!(x == 0.01 && (y - 0.1).abs() < 1e-15, "{:?}", h.points);
        assert_eq!(
            h.band,
            vec![
                (b.fpr_interval[0], b.tpr_interval[0], b.tpr_interval[1]),
                (b.fpr_interval[1], b.tpr_interval[0], b.tpr_interval[1])
            ]
        );
        // The box holds the observed rates and its upper FPR is the audit's own bound.
        assert!(b.fpr_interval[0] < 0.01 && 0.01 < b.fpr_interval[1]);
        assert_eq!(b.fpr_interval[1], honest.bounds.points[0].fpr_upper);
        assert_eq!(points[1].color, usize::from(Hue::Magenta));
        assert_eq!(
            points[1].band[0].0, 0.0,
            "no false positive: the box starts at FPR 0"
        );
        let says = |m: &str| {
            c.notes
                .iter()
                .find(|n| n.contains(&format!("attack on {m} (")))
                .unwrap()
        };
        assert!(
            says("dpgd").contains("does not contradict"),
            "{}",
            says("dpgd")
        );
        let caught = says("dpgd (broken: half the noise)");
        assert!(
            caught.contains("refutes the claim") && caught.contains("deliberately broken"),
            "{caught}"
        );
        // Half the in-runs found at 1 % false positives: above the exact curve, inside the (ε, δ) region.
        let c2 = tradeoff_chart(&release, &[row(&release, 500, 10, false)], None).unwrap();
        let n = c2
            .notes
            .iter()
            .find(|n| n.contains("attack on dpgd ("))
            .unwrap();
        assert!(
            n.contains("refutes this run's μ-GDP claim") && n.contains("not the looser"),
            "{n}"
        );
        assert_eq!(
            c.table
                .rows
                .iter()
                .filter(|r| r[0].starts_with("audit's attack"))
                .count(),
            2
        );
        // The table shows each interval rounded outwards, never narrower than the box.
        let honest_row = c
            .table
            .rows
            .iter()
            .find(|r| r[0] == "audit's attack on dpgd")
            .unwrap();
        for (cell, [lo, hi]) in [
            (&honest_row[3], b.fpr_interval),
            (&honest_row[4], b.tpr_interval),
        ] {
            let (a, z) = cell.split_once(" – ").unwrap();
            let (a, z): (f64, f64) = (a.parse().unwrap(), z.parse().unwrap());
            assert!(
                a <= lo && z >= hi && z - a < hi - lo + 2e-3,
                "{cell} against [{lo}, {hi}]"
            );
        }
    }

    #[test]
    fn a_pure_epsilon_run_draws_the_pure_region_and_says_so() {
        let c = tradeoff_chart(&pure(2.0), &[], None).unwrap();
        assert!(named(&c, "exact curve").is_empty());
        let region = named(&c, "pure ε-DP bound")[0];
        assert!(region.name.contains("ε = 2"), "{}", region.name);
        // TPR ≤ e^ε·FPR with no δ: through the origin.
        assert_eq!(region.points[0], (0.0, 0.0));
        let (x, t) = region.points[5];
        assert!((t - (2f64.exp() * x).min(1.0 - (-2f64).exp() * (1.0 - x))).abs() < 1e-15);
        assert!(
            c.notes[0].contains("no Gaussian trade-off curve"),
            "{}",
            c.notes[0]
        );
        assert!(
            c.notes[0].contains("pure-DP region with ε = 2 and δ = 0"),
            "{}",
            c.notes[0]
        );
        // A target at the smallest pure ε through it sits on the edge.
        let risk = Risk::new(0.1, 0.01).unwrap();
        let c = tradeoff_chart(&pure(risk.pure_epsilon()), &[], Some(risk)).unwrap();
        assert!(
            c.notes
                .iter()
                .any(|n| n.contains("dashed edge passes through it")),
            "{:?}",
            c.notes
        );
    }

    #[test]
    fn runs_of_several_mu_are_bounded_by_the_largest() {
        let mut release = gaussian(0.5);
        release.reports.push(gaussian(1.0).reports[0].clone());
        let c = tradeoff_chart(&release, &[], None).unwrap();
        assert!(named(&c, "exact curve")[0].name.contains("μ = 1"));
        assert!(
            c.notes.iter().any(|n| n.contains("μ ranges from 0.5 to 1")),
            "{:?}",
            c.notes
        );
        release.reports.clear();
        assert!(tradeoff_chart(&release, &[], None).is_none());
    }
}
