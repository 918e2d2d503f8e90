//! DP-GD's four charts (loss versus ε, versus width p, versus T, versus the
//! rescaled time ηTp/d) from a sweep's finished rows.

use super::rows::{fmt_eps, DpGdRow};
use crate::plot::{ChartSpec, LineStyle, Series};
use crate::scenarios::labels::spent_suffix;

/// Mean test loss over seeds of rows matching `keep`, grouped by `key`, sorted by key.
fn mean_by<K: Fn(&DpGdRow) -> f64>(
    rows: &[DpGdRow],
    keep: impl Fn(&DpGdRow) -> bool,
    key: K,
) -> Vec<(f64, f64)> {
    let mut groups: Vec<(f64, f64, usize)> = Vec::new();
    for r in rows.iter().filter(|r| keep(r)) {
        let k = key(r);
        match groups.iter_mut().find(|g| g.0 == k) {
            Some(g) => {
                g.1 += r.test_loss;
                g.2 += 1;
            }
            None => groups.push((k, r.test_loss, 1)),
        }
    }
    let mut points: Vec<(f64, f64)> = groups
        .into_iter()
        .map(|(k, s, c)| (k, s / c as f64))
        .collect();
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    points
}

fn distinct(mut v: Vec<f64>) -> Vec<f64> {
    v.retain(|x| !x.is_nan());
    v.sort_by(f64::total_cmp);
    v.dedup();
    v
}

/// Charts of a finished (or partial) sweep; `rows` may mix main and trace rows
/// (pass `[sweep.rows(), sweep.trace()].concat()`). Test losses are averaged
/// over seeds.
/// 1. test loss vs ε (log x) for up to four widths p > n, with "predict 0";
/// 2. test loss vs p (log x, log y): θ*, early-stopped GD and DP-GD per ε;
/// 3. loss vs T (log x) and 4. the same against ηTp/d, one curve per traced p.
pub fn charts(rows: &[DpGdRow]) -> Vec<ChartSpec> {
    let main: Vec<DpGdRow> = rows
        .iter()
        .filter(|r| r.method != "dp-gd-trace")
        .cloned()
        .collect();
    let trace: Vec<DpGdRow> = rows
        .iter()
        .filter(|r| r.method == "dp-gd-trace")
        .cloned()
        .collect();
    let epsilons = distinct(
        main.iter()
            .filter(|r| r.method == "dp-gd")
            .map(|r| r.epsilon)
            .collect(),
    );
    let widths: Vec<usize> = distinct(main.iter().map(|r| r.p as f64).collect())
        .into_iter()
        .map(|p| p as usize)
        .collect();
    let null_mean = mean_by(&main, |r| r.method == "zero", |_| 0.0)
        .first()
        .map_or(1.0, |pt| pt.1);
    let null_level = Series {
        name: "predict 0".into(),
        points: vec![(f64::NAN, null_mean)],
        style: LineStyle::Dotted,
        color: 7,
        horizontal: true,
        band: Vec::new(),
        faded: false,
        in_legend: true,
    };
    let mut charts = Vec::new();

    // 1. Test loss vs ε for a few widths.
    let dp_widths: Vec<usize> = widths
        .iter()
        .copied()
        .filter(|&p| main.iter().any(|r| r.p == p && r.method == "dp-gd"))
        .collect();
    let shown = pick_spread(&dp_widths, 4);
    let mut series = Vec::new();
    for (k, &p) in shown.iter().enumerate() {
        let spent = spent_suffix(
            main.iter()
                .filter(|r| r.method == "dp-gd" && r.p == p)
                .map(|r| (r.epsilon, r.epsilon_spent)),
        );
        series.push(Series {
            name: format!("DP-GD, p = {p}{spent}"),
            points: mean_by(&main, |r| r.method == "dp-gd" && r.p == p, |r| r.epsilon),
            style: LineStyle::Solid,
            color: k,
            horizontal: false,
            band: Vec::new(),
            faded: false,
            in_legend: true,
        });
    }
    if let Some(&p) = shown.last() {
        let pts = mean_by(
            &main,
            |r| r.method == "min-norm" && r.p == p,
            |r| r.p as f64,
        );
        if let Some(&(_, y)) = pts.first() {
            series.push(Series {
                name: format!("θ* (non-private), p = {p}"),
                points: vec![(f64::NAN, y)],
                style: LineStyle::Dashed,
                color: 5,
                horizontal: true,
                band: Vec::new(),
                faded: false,
                in_legend: true,
            });
        }
    }
    series.push(null_level.clone());
    let first_x = epsilons.first().copied().unwrap_or(1.0);
    charts.push(ChartSpec {
        title: "Test loss of DP-GD vs ε".into(),
        x_label: "ε".into(),
        y_label: "test MSE".into(),
        log_x: true,
        log_y: false,
        x_hint: None,
        series: fix_horizontal(series, first_x),
    });

    // 2. Test loss vs p.
    let mut series = vec![
        Series {
            name: "θ* = Φ⁺Y (non-private)".into(),
            points: mean_by(&main, |r| r.method == "min-norm", |r| r.p as f64),
            style: LineStyle::Dashed,
            color: 5,
            horizontal: false,
            band: Vec::new(),
            faded: false,
            in_legend: true,
        },
        Series {
            name: "GD, same η and T (non-private)".into(),
            points: mean_by(&main, |r| r.method == "gd", |r| r.p as f64),
            style: LineStyle::Dotted,
            color: 6,
            horizontal: false,
            band: Vec::new(),
            faded: false,
            in_legend: true,
        },
    ];
    for (k, &eps) in epsilons.iter().enumerate() {
        let spent = spent_suffix(
            main.iter()
                .filter(|r| r.method == "dp-gd" && r.epsilon == eps)
                .map(|r| (r.epsilon, r.epsilon_spent)),
        );
        series.push(Series {
            name: format!("DP-GD, ε = {}{spent}", fmt_eps(eps)),
            points: mean_by(
                &main,
                |r| r.method == "dp-gd" && r.epsilon == eps,
                |r| r.p as f64,
            ),
            style: LineStyle::Solid,
            color: k,
            horizontal: false,
            band: Vec::new(),
            faded: false,
            in_legend: true,
        });
    }
    series.push(null_level.clone());
    let first_p = widths.first().map_or(1.0, |&p| p as f64);
    charts.push(ChartSpec {
        title: "Test loss vs width p".into(),
        x_label: "p (number of random features)".into(),
        y_label: "test MSE".into(),
        log_x: true,
        log_y: true,
        x_hint: None,
        series: fix_horizontal(series, first_p),
    });

    // 3–4. Loss vs T, raw and rescaled.
    let traced = distinct(trace.iter().map(|r| r.p as f64).collect());
    let trace_eps = trace.first().map_or(f64::NAN, |r| r.epsilon);
    let mut raw = Vec::new();
    let mut rescaled = Vec::new();
    for (k, &p) in traced.iter().enumerate() {
        let keep = |r: &DpGdRow| r.p as f64 == p;
        let spent = spent_suffix(
            trace
                .iter()
                .filter(|r| keep(r))
                .map(|r| (r.epsilon, r.epsilon_spent)),
        );
        raw.push(Series {
            name: format!("p = {p}{spent}"),
            points: mean_by(&trace, keep, |r| r.steps as f64),
            style: LineStyle::Solid,
            color: k,
            horizontal: false,
            band: Vec::new(),
            faded: false,
            in_legend: true,
        });
        rescaled.push(Series {
            name: format!("p = {p}{spent}"),
            points: mean_by(&trace, keep, |r| r.time_scale),
            style: LineStyle::Solid,
            color: k,
            horizontal: false,
            band: Vec::new(),
            faded: false,
            in_legend: true,
        });
    }
    charts.push(ChartSpec {
        title: format!("Test loss vs T (target ε = {})", fmt_eps(trace_eps)),
        x_label: "T (steps)".into(),
        y_label: "test MSE".into(),
        log_x: true,
        log_y: false,
        x_hint: None,
        series: raw,
    });
    charts.push(ChartSpec {
        title: format!("Test loss vs ηTp/d (target ε = {})", fmt_eps(trace_eps)),
        x_label: "ηT·p/d".into(),
        y_label: "test MSE".into(),
        log_x: true,
        log_y: false,
        x_hint: None,
        series: rescaled,
    });
    charts
}

/// Horizontal series carry one point; give it a real x.
fn fix_horizontal(mut series: Vec<Series>, x: f64) -> Vec<Series> {
    for s in series.iter_mut().filter(|s| s.horizontal) {
        for pt in s.points.iter_mut() {
            pt.0 = x;
        }
    }
    series
}

/// Up to `k` entries spread across `v` (first, last and evenly in between).
fn pick_spread(v: &[usize], k: usize) -> Vec<usize> {
    if v.len() <= k {
        return v.to_vec();
    }
    let mut out: Vec<usize> = (0..k).map(|i| v[i * (v.len() - 1) / (k - 1)]).collect();
    out.dedup();
    out
}

/// Mean test loss of θ* and of one method per width, for quick inspection.
pub fn mean_test_loss(rows: &[DpGdRow], method: &str, epsilon: Option<f64>) -> Vec<(usize, f64)> {
    mean_by(
        rows,
        |r| r.method == method && epsilon.is_none_or(|e| r.epsilon == e),
        |r| r.p as f64,
    )
    .into_iter()
    .map(|(p, l)| (p as usize, l))
    .collect()
}
