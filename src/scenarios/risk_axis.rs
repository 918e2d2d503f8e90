//! When risks drive a run (settings `risks`, `risk_fpr`; field/target.rs),
//! every ε chart of its view shows the attacker's success on its x axis
//! instead of the target ε the risks were turned into: the reader set a
//! risk, so the curves are read against it. One place for every scenario:
//! a chart is an ε chart when its x label names ε (as the page's slider
//! reads it), and each point's x is mapped back to the risk whose derived ε
//! it is, by exact bits ([`RiskTarget::risk_at`]). The risk rises with its ε
//! (μ and the pure-DP region both grow with the TPR), so each curve keeps its
//! order and shape.
//!
//! Points whose x is no derived ε: a horizontal level (a non-private
//! method's) is drawn across the whole axis whatever its x, and is kept; a
//! guide curve computed on its own ε grid keeps only its points at a derived
//! ε (usually none, and a series left without points is dropped): its value
//! between the risks would need the inverse map, which the chart does not
//! claim. The claims are judged on the charts as the scenario drew them
//! ([`View::by_epsilon`]); the tables keep ε, the other unit.

use super::field::target::RiskTarget;
use super::View;
use crate::plot::ChartSpec;
use crate::privacy::report::fmt_num;

/// The x label of a chart on the risk axis.
pub fn risk_label(fpr: f64) -> String {
    format!("attacker's success (TPR at FPR {})", fmt_num(fpr))
}

/// A title that says what the x axis is ("… versus ε (n = 20)") said of the
/// risk axis ("… versus the attacker's success (n = 20)"); any other title as
/// it is.
pub fn risk_title(title: &str) -> String {
    for sep in [" versus ", " vs "] {
        if let Some(i) = title.find(sep) {
            let rest = &title[i + sep.len()..];
            let end = rest.find(" (").unwrap_or(rest.len());
            if rest[..end].contains('ε') {
                return format!("{}{sep}the attacker's success{}", &title[..i], &rest[end..]);
            }
        }
    }
    title.to_string()
}

/// Whether a chart's x axis is the target ε (its label names ε).
fn plots_epsilon(chart: &ChartSpec) -> bool {
    chart.x_label.contains('ε')
}

/// `chart` on the risk axis when risks drive and its x axis is ε, else as it is.
pub fn on_risk_axis(chart: ChartSpec, target: &RiskTarget) -> ChartSpec {
    if !target.drives() || !plots_epsilon(&chart) {
        return chart;
    }
    let risk = |x: f64| target.risk_at(x).map(|r| r.tpr);
    let lowest = target.risks.iter().copied().fold(f64::INFINITY, f64::min);
    let series = chart
        .series
        .into_iter()
        .filter_map(|mut s| {
            if s.horizontal {
                // Drawn across the axis from its one y; its x is set on the axis.
                s.points.iter_mut().for_each(|p| p.0 = lowest);
                return Some(s);
            }
            s.points = s
                .points
                .iter()
                .filter_map(|&(x, y)| Some((risk(x)?, y)))
                .collect();
            s.band = s
                .band
                .iter()
                .filter_map(|&(x, lo, hi)| Some((risk(x)?, lo, hi)))
                .collect();
            (!s.points.is_empty()).then_some(s)
        })
        .collect();
    ChartSpec {
        title: risk_title(&chart.title),
        x_label: risk_label(target.fpr),
        log_x: false,
        series,
        ..chart
    }
    .x_range_of(target.risks.iter().copied())
    .in_x_order()
}

/// `view`'s ε charts on the risk axis when risks drive (else `view` as it
/// is), keeping the charts as drawn over ε for the claims, and the ε each
/// risk stands for ([`View::risk_axis`]) for the page's readout.
pub fn on_risk_axes(mut view: View, target: &RiskTarget) -> View {
    if !target.drives() || !view.charts.iter().any(plots_epsilon) {
        return view;
    }
    view.risk_axis = target
        .epsilons
        .iter()
        .filter_map(|&e| Some((target.risk_at(e)?.tpr, e)))
        .collect();
    view.by_epsilon = view.charts.clone();
    view.charts = std::mem::take(&mut view.charts)
        .into_iter()
        .map(|c| on_risk_axis(c, target))
        .collect();
    view
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_title_names_the_risk_axis_where_it_named_epsilon() {
        assert_eq!(
            risk_title("Final error versus client-level ε (δ = 1e-5)"),
            "Final error versus the attacker's success (δ = 1e-5)"
        );
        assert_eq!(
            risk_title("Test loss of DP-GD vs ε"),
            "Test loss of DP-GD vs the attacker's success"
        );
        assert_eq!(
            risk_title("Test loss vs T (target ε = 4)"),
            "Test loss vs T (target ε = 4)"
        );
    }
    use crate::plot::{LineStyle, Series};

    #[test]
    fn points_at_a_derived_epsilon_move_to_their_risk_and_the_rest_keep_sense() {
        let risks = [0.05, 0.2];
        let eps = RiskTarget::gaussian(&[], &risks, 0.01, 1e-6)
            .derived_epsilons()
            .unwrap();
        let target = RiskTarget::gaussian(&eps, &risks, 0.01, 1e-6);
        let mut level = Series::line("Non-private", vec![(1.0, 0.5)], LineStyle::Dashed, 1);
        level.horizontal = true;
        let chart = ChartSpec::new(
            "error versus ε",
            "target ε",
            "error",
            vec![
                Series::line(
                    "Private",
                    vec![(eps[1], 2.0), (eps[0], 3.0)],
                    LineStyle::Solid,
                    0,
                ),
                Series::line(
                    "guide",
                    vec![(1.5, 9.0), (eps[0], 4.0)],
                    LineStyle::Dotted,
                    2,
                ),
                Series::line("fit", vec![(1.5, 9.0)], LineStyle::Dotted, 3),
                level,
            ],
        )
        .log_x();
        let out = on_risk_axis(chart.clone(), &target);
        assert_eq!(out.x_label, "attacker's success (TPR at FPR 0.01)");
        assert!(!out.log_x);
        assert_eq!(out.x_hint, Some((0.05, 0.2)));
        assert_eq!(out.series[0].points, vec![(0.05, 3.0), (0.2, 2.0)]);
        assert_eq!(out.series[1].points, vec![(0.05, 4.0)]);
        assert_eq!(out.series[2].name, "Non-private");
        assert_eq!(out.series.len(), 3);
        // Driven by ε: the chart as it was.
        let by_eps = RiskTarget::gaussian(&eps, &[], 0.01, 1e-6);
        assert_eq!(on_risk_axis(chart.clone(), &by_eps), chart);
    }
}
