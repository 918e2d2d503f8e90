//! The audit drawn on a scenario's own ε chart: at each audited point, the
//! attack's lower bound on ε beside the ε claimed.

use super::target::AuditRow;
use crate::plot::{ChartSpec, LineStyle, Series};
use crate::privacy::report::fmt_num;

/// Whether a series named `name` draws `curve`: the same name, or the name
/// followed by a qualifier (" (spends ε = …)", ", …"), never a longer name
/// ("p = 20" is not "p = 200").
pub(super) fn names_curve(name: &str, curve: &str) -> bool {
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
