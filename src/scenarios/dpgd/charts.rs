//! DP-GD's four charts (loss versus ε, versus width p, versus T, versus the
//! rescaled time ηTp/d) from a sweep's finished rows.

use super::rows::{fmt_eps, DpGdRow, Method};
use crate::plot::{mean_points, spread_points, ChartSpec, LineStyle, Series};
use crate::scenarios::labels::spent_suffix;

/// Mean test loss over seeds of rows matching `keep`, grouped by `key`, sorted by key.
fn mean_by(
    rows: &[DpGdRow],
    keep: impl Fn(&DpGdRow) -> bool,
    key: impl Fn(&DpGdRow) -> f64,
) -> Vec<(f64, f64)> {
    mean_points(rows, keep, key, |r| r.test_loss)
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
        .filter(|r| r.method != Method::DpGdTrace)
        .cloned()
        .collect();
    let trace: Vec<DpGdRow> = rows
        .iter()
        .filter(|r| r.method == Method::DpGdTrace)
        .cloned()
        .collect();
    let epsilons = distinct(
        main.iter()
            .filter(|r| r.method == Method::DpGd)
            .map(|r| r.epsilon)
            .collect(),
    );
    let widths: Vec<usize> = distinct(main.iter().map(|r| r.p as f64).collect())
        .into_iter()
        .map(|p| p as usize)
        .collect();
    let null_mean = mean_by(&main, |r| r.method == Method::Zero, |_| 0.0)
        .first()
        .map_or(1.0, |pt| pt.1);
    let null_level = Series {
        horizontal: true,
        ..Series::line(
            "predict 0",
            vec![(f64::NAN, null_mean)],
            LineStyle::Dotted,
            7,
        )
    };
    let trace_eps = trace.first().map_or(f64::NAN, |r| r.epsilon);
    vec![
        loss_by_eps(&main, &epsilons, &widths, null_level.clone()),
        loss_by_width(&main, &epsilons, &widths, null_level),
        ChartSpec::new(
            format!("Test loss vs T (target ε = {})", fmt_eps(trace_eps)),
            "T (steps)",
            "test MSE",
            traced_curves(&trace, |r| r.steps as f64),
        )
        .log_x(),
        ChartSpec::new(
            format!("Test loss vs ηTp/d (target ε = {})", fmt_eps(trace_eps)),
            "ηT·p/d",
            "test MSE",
            traced_curves(&trace, |r| r.time_scale),
        )
        .log_x(),
    ]
}

/// Chart 1, test loss vs ε for a few widths (up to four, spread over those with
/// DP-GD runs), θ* at the widest of them, and "predict 0".
fn loss_by_eps(
    main: &[DpGdRow],
    epsilons: &[f64],
    widths: &[usize],
    null_level: Series,
) -> ChartSpec {
    let dp_widths: Vec<usize> = widths
        .iter()
        .copied()
        .filter(|&p| main.iter().any(|r| r.p == p && r.method == Method::DpGd))
        .collect();
    let shown = pick_spread(&dp_widths, 4);
    let mut series = Vec::new();
    for (k, &p) in shown.iter().enumerate() {
        let keep = |r: &DpGdRow| r.method == Method::DpGd && r.p == p;
        series.push(private_curve(
            main,
            format!("DP-GD, p = {p}"),
            keep,
            |r| r.epsilon,
            k,
        ));
    }
    if let Some(&p) = shown.last() {
        let pts = mean_by(
            main,
            |r| r.method == Method::MinNorm && r.p == p,
            |r| r.p as f64,
        );
        if let Some(&(_, y)) = pts.first() {
            series.push(Series {
                horizontal: true,
                ..Series::line(
                    format!("θ* (non-private), p = {p}"),
                    vec![(f64::NAN, y)],
                    LineStyle::Dashed,
                    5,
                )
            });
        }
    }
    series.push(null_level);
    let first_x = epsilons.first().copied().unwrap_or(1.0);
    // The x axis is the target: each curve's legend says the ε its runs spend.
    ChartSpec::new("Test loss of DP-GD vs ε", "target ε", "test MSE", series)
        .log_x()
        .levels_at(first_x)
}

/// Chart 2, test loss vs p: θ* = Φ⁺Y, GD with the same η and T, DP-GD at every
/// ε, and "predict 0".
fn loss_by_width(
    main: &[DpGdRow],
    epsilons: &[f64],
    widths: &[usize],
    null_level: Series,
) -> ChartSpec {
    let mut series = vec![
        Series::line(
            "θ* = Φ⁺Y (non-private)",
            mean_by(main, |r| r.method == Method::MinNorm, |r| r.p as f64),
            LineStyle::Dashed,
            5,
        ),
        Series::line(
            "GD, same η and T (non-private)",
            mean_by(main, |r| r.method == Method::Gd, |r| r.p as f64),
            LineStyle::Dotted,
            6,
        ),
    ];
    for (k, &eps) in epsilons.iter().enumerate() {
        let keep = |r: &DpGdRow| r.method == Method::DpGd && r.epsilon == eps;
        let name = format!("DP-GD, ε = {}", fmt_eps(eps));
        series.push(private_curve(main, name, keep, |r| r.p as f64, k));
    }
    series.push(null_level);
    let first_p = widths.first().map_or(1.0, |&p| p as f64);
    ChartSpec::new(
        "Test loss vs width p",
        "p (number of random features)",
        "test MSE",
        series,
    )
    .log_x()
    .log_y()
    .levels_at(first_p)
}

/// Charts 3–4, one curve per traced width: the loss against `x` (T, or the rescaled
/// time ηTp/d).
fn traced_curves(trace: &[DpGdRow], x: fn(&DpGdRow) -> f64) -> Vec<Series> {
    let traced = distinct(trace.iter().map(|r| r.p as f64).collect());
    let mut out = Vec::new();
    for (k, &p) in traced.iter().enumerate() {
        let keep = |r: &DpGdRow| r.p as f64 == p;
        out.push(private_curve(trace, format!("p = {p}"), keep, x, k));
    }
    out
}

/// A curve of private runs: the mean test loss of the rows `keep` picks
/// against `x`, named `name` and what those runs spent (when it is not
/// their target ε), solid, in colour `k`.
fn private_curve(
    rows: &[DpGdRow],
    name: String,
    keep: impl Fn(&DpGdRow) -> bool,
    x: impl Fn(&DpGdRow) -> f64,
    k: usize,
) -> Series {
    let spent = spent_suffix(
        rows.iter()
            .filter(|r| keep(r))
            .map(|r| (r.epsilon, r.epsilon_spent)),
    );
    // The seeds' lowest and highest loss around the mean (several seeds).
    let band = spread_points(rows, &keep, &x, |r| r.test_loss);
    Series {
        band,
        ..Series::line(
            format!("{name}{spent}"),
            mean_by(rows, keep, x),
            LineStyle::Solid,
            k,
        )
    }
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
pub fn mean_test_loss(rows: &[DpGdRow], method: Method, epsilon: Option<f64>) -> Vec<(usize, f64)> {
    mean_by(
        rows,
        |r| r.method == method && epsilon.is_none_or(|e| r.epsilon == e),
        |r| r.p as f64,
    )
    .into_iter()
    .map(|(p, l)| (p as usize, l))
    .collect()
}
