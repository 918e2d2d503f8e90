//! The trace-regression charts (Zha 2024 has none: these follow what its
//! theorems predict): error versus ε with the theory's shape and the lower
//! bound's, error versus n with the −1/2 and −1 slopes, the trajectory of
//! DP-RGrad, the l* trade-off, and the subspace error. Medians over repeats.

use super::config::TraceConfig;
use super::method::Method;
use super::run::TraceRow;
use crate::plot::{ChartSpec, LineStyle, Series};
use crate::privacy::report::fmt_num;
use crate::scenarios::labels::spent_suffix;

fn series(name: String, points: Vec<(f64, f64)>, style: LineStyle, color: usize) -> Series {
    Series::line(name, points, style, color)
}

pub fn median(mut v: Vec<f64>) -> f64 {
    v.retain(|x| x.is_finite());
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        0.5 * (v[m - 1] + v[m])
    }
}

/// The median of `value` over the rows that `keep`.
pub fn median_of(
    rows: &[TraceRow],
    keep: impl Fn(&TraceRow) -> bool,
    value: impl Fn(&TraceRow) -> f64,
) -> f64 {
    median(rows.iter().filter(|r| keep(r)).map(value).collect())
}

fn label(variant: &str, privacy: &str) -> String {
    let v = if variant == "clipped" {
        ", clipped (project's extension)"
    } else {
        ""
    };
    let p = if privacy == "weak" { ", weak DP" } else { "" };
    format!("{v}{p}")
}

/// The (variant, privacy) pairs present, in order of first appearance.
fn configs(rows: &[TraceRow]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for r in rows.iter().filter(|r| r.method == Method::DpRgrad) {
        let key = (r.variant.clone(), r.privacy.clone());
        if !out.contains(&key) {
            out.push(key);
        }
    }
    out
}

pub fn charts(c: &TraceConfig, rows: &[TraceRow]) -> Vec<ChartSpec> {
    vec![
        error_by_eps(c, rows),
        error_by_n(c, rows),
        trajectory(c, rows),
        lstar(c, rows),
        subspace_by_eps(c, rows),
    ]
}

/// Whether a row is `method`'s under (variant `v`, privacy `p`) at n.
fn at(method: Method, v: String, p: String, n: usize) -> impl Fn(&TraceRow) -> bool {
    move |row: &TraceRow| row.method == method && row.variant == v && row.privacy == p && row.n == n
}

/// The private curves against ε at the first n: the DP initialization (Alg. 1) and
/// DP-RGrad (Alg. 2) of every (variant, privacy), the median of `value`.
fn private_by_eps(c: &TraceConfig, rows: &[TraceRow], value: fn(&TraceRow) -> f64) -> Vec<Series> {
    let n0 = c.n[0];
    let mut out = Vec::new();
    for (i, (v, p)) in configs(rows).into_iter().enumerate() {
        let suffix = label(&v, &p);
        for (method, style, color) in [
            (Method::DpInit, LineStyle::Dashed, 2 * i + 1),
            (Method::DpRgrad, LineStyle::Solid, 2 * i),
        ] {
            let name = method.legend();
            let keep = at(method, v.clone(), p.clone(), n0);
            // What the runs spend, where it differs from their target (ε for the
            // initialization, 2ε for the whole run).
            let spent = spent_suffix(rows.iter().filter(|row| keep(row)).map(|row| {
                let target = if method == Method::DpInit {
                    row.epsilon
                } else {
                    2.0 * row.epsilon
                };
                (target, row.epsilon_spent)
            }));
            let points = c
                .target
                .epsilons
                .iter()
                .map(|&e| {
                    (
                        e,
                        median_of(rows, |row| keep(row) && row.epsilon == e, value),
                    )
                })
                .filter(|q| q.1.is_finite())
                .collect();
            out.push(series(
                format!("{name}{suffix}{spent}"),
                points,
                style,
                color,
            ));
        }
    }
    out
}

/// The non-private references at the first n (RGrad, the spectral start), as
/// horizontal lines at the median of `value`.
fn nonprivate_lines(
    c: &TraceConfig,
    rows: &[TraceRow],
    value: fn(&TraceRow) -> f64,
) -> Vec<Series> {
    let n0 = c.n[0];
    let x0 = c.target.epsilons.first().copied().unwrap_or(1.0);
    let mut out = Vec::new();
    for (method, color) in [(Method::Rgrad, 8), (Method::SpectralInit, 9)] {
        let y = median_of(rows, |row| row.method == method && row.n == n0, value);
        if y.is_finite() {
            out.push(Series {
                horizontal: true,
                ..series(
                    method.legend().into(),
                    vec![(x0, y)],
                    LineStyle::Dotted,
                    color,
                )
            });
        }
    }
    out
}

/// ‖M̃ − M‖_F against ε at the first n, with the theory's shape (eq. 7) fitted to the
/// DP-RGrad medians and the lower bound's shape (Thm 2).
fn error_by_eps(c: &TraceConfig, rows: &[TraceRow]) -> ChartSpec {
    let n0 = c.n[0];
    let eps = &c.target.epsilons;
    let (r, d1, d2) = (c.r as f64, c.d1 as f64, c.d2 as f64);
    let sr = c.singular_values[c.r - 1];
    let xi = c.noise;
    let x0 = eps.first().copied().unwrap_or(1.0);
    let x1 = eps.last().copied().unwrap_or(1.0);
    let mut by_eps = private_by_eps(c, rows, |r| r.error_fro);
    by_eps.extend(nonprivate_lines(c, rows, |r| r.error_fro));
    // Theory (eq. 7): σ_ξ√(r(d1+d2)/n) + ĉ(σ_ξ + σ_r) r(d1+d2)/(nε), ĉ fitted by least squares
    // to the DP-RGrad medians of the chosen configuration; the lower bound's shape l1 + l2 (c = 1).
    let nf = n0 as f64;
    let stat = xi * (r * (d1 + d2) / nf).sqrt();
    let a = |e: f64| (xi + sr) * r * (d1 + d2) / (nf * e);
    let main = configs(rows).into_iter().next();
    if let Some((v, p)) = main {
        let keep = at(Method::DpRgrad, v, p, n0);
        let (mut num, mut den) = (0.0, 0.0);
        for &e in eps {
            let y = median_of(rows, |row| keep(row) && row.epsilon == e, |r| r.error_fro);
            if y.is_finite() {
                num += a(e) * (y - stat);
                den += a(e) * a(e);
            }
        }
        if den > 0.0 {
            let chat = (num / den).max(0.0);
            let grid = log_grid(x0, x1);
            by_eps.push(series(
                format!("theory shape (eq. 7), fitted ĉ = {}", fmt_num(chat)),
                grid.iter().map(|&e| (e, stat + chat * a(e))).collect(),
                LineStyle::Dotted,
                6,
            ));
        }
        let dmax = d1.max(d2);
        let cap = r.sqrt() * c.singular_values[0];
        let grid = log_grid(x0, x1);
        by_eps.push(series(
            "lower-bound shape l1 + l2 (Thm 2, c = 1)".into(),
            grid.iter()
                .map(|&e| {
                    (
                        e,
                        (xi * (r * dmax / nf).sqrt() + xi * r * dmax / (nf * e)).min(cap),
                    )
                })
                .collect(),
            LineStyle::Dotted,
            7,
        ));
    }
    ChartSpec::new(
        format!("‖M̃ − M‖_F versus ε (n = {n0}, median of {})", c.repeats),
        "target ε of each algorithm (the whole run: 2ε, 2δ)",
        "‖M̃ − M‖_F",
        by_eps,
    )
    .log_x()
    .log_y()
    .x_range_of(eps.iter().copied())
}

/// ‖M̃ − M‖_F against n: DP-RGrad at every ε (the first configuration), the reference,
/// and the two slopes through the first points.
fn error_by_n(c: &TraceConfig, rows: &[TraceRow]) -> ChartSpec {
    let mut by_n = Vec::new();
    if let Some((v, p)) = configs(rows).into_iter().next() {
        let suffix = label(&v, &p);
        for (k, &e) in c.target.epsilons.iter().enumerate() {
            let pts: Vec<(f64, f64)> =
                c.n.iter()
                    .map(|&n| {
                        let keep = at(Method::DpRgrad, v.clone(), p.clone(), n);
                        (
                            n as f64,
                            median_of(rows, |row| keep(row) && row.epsilon == e, |r| r.error_fro),
                        )
                    })
                    .filter(|q| q.1.is_finite())
                    .collect();
            by_n.push(series(
                format!("DP-RGrad, ε = {}{suffix}", fmt_num(e)),
                pts,
                LineStyle::Solid,
                4 + k,
            ));
        }
    }
    // Error versus n: the reference, and the two slopes through the first points.
    let rgrad_n: Vec<(f64, f64)> =
        c.n.iter()
            .map(|&n| {
                let y = median_of(
                    rows,
                    |row| row.method == Method::Rgrad && row.n == n,
                    |r| r.error_fro,
                );
                (n as f64, y)
            })
            .filter(|q| q.1.is_finite())
            .collect();
    if let (Some(&(nfirst, _)), Some(&(nlast, _))) = (rgrad_n.first(), rgrad_n.last()) {
        if let Some(first) = by_n.first().and_then(|s| s.points.first().copied()) {
            by_n.push(series(
                "slope −1 (privacy regime)".into(),
                vec![first, (nlast, first.1 * nfirst / nlast)],
                LineStyle::Dotted,
                6,
            ));
        }
        let y0 = rgrad_n[0].1;
        by_n.push(series(
            "slope −1/2 (statistical regime)".into(),
            vec![(nfirst, y0), (nlast, y0 * (nfirst / nlast).sqrt())],
            LineStyle::Dotted,
            7,
        ));
    }
    by_n.push(series(
        Method::Rgrad.legend().into(),
        rgrad_n,
        LineStyle::Dashed,
        8,
    ));
    ChartSpec::new("‖M̃ − M‖_F versus n", "samples n", "‖M̃ − M‖_F", by_n)
        .log_x()
        .log_y()
        .x_range_of(c.n.iter().map(|&n| n as f64))
}

/// DP-RGrad's iterates at the first n (the first configuration, every ε) and RGrad's.
fn trajectory(c: &TraceConfig, rows: &[TraceRow]) -> ChartSpec {
    let n0 = c.n[0];
    let mut trajectory = Vec::new();
    if let Some((v, p)) = configs(rows).into_iter().next() {
        for (k, &e) in c.target.epsilons.iter().enumerate() {
            let keep = at(Method::DpRgrad, v.clone(), p.clone(), n0);
            trajectory.push(series(
                format!("DP-RGrad, ε = {}", fmt_num(e)),
                median_trajectory(rows, |row| keep(row) && row.epsilon == e),
                LineStyle::Solid,
                4 + k,
            ));
        }
    }
    trajectory.push(series(
        Method::Rgrad.legend().into(),
        median_trajectory(rows, |row| row.method == Method::Rgrad && row.n == n0),
        LineStyle::Dashed,
        8,
    ));
    ChartSpec::new(
        format!("DP-RGrad's iterates (n = {n0})"),
        "iteration l",
        "‖M_l − M‖_F",
        trajectory,
    )
    .log_y()
    .x_hint(Some((0.0, c.iterations as f64)))
}

/// The l* trade-off: the final error against the iterations l* at the middle ε.
fn lstar(c: &TraceConfig, rows: &[TraceRow]) -> ChartSpec {
    let n0 = c.n[0];
    let eps = &c.target.epsilons;
    let mid = eps.get(eps.len() / 2).copied().unwrap_or(1.0);
    let mut lstar: Vec<(f64, f64)> = c
        .lstar_grid
        .iter()
        .map(|&l| {
            (
                l as f64,
                median_of(
                    rows,
                    |row| row.method == Method::DpRgradLstar && row.iterations == l,
                    |r| r.error_fro,
                ),
            )
        })
        .filter(|q| q.1.is_finite())
        .collect();
    lstar.sort_by(|a, b| a.0.total_cmp(&b.0));
    let lstar_series = if lstar.is_empty() {
        Vec::new()
    } else {
        vec![series(
            format!("DP-RGrad, ε = {}", fmt_num(mid)),
            lstar,
            LineStyle::Solid,
            0,
        )]
    };
    ChartSpec::new(
        format!("The l* trade-off (n = {n0}, ε = {})", fmt_num(mid)),
        "iterations l*",
        "final ‖M̃ − M‖_F",
        lstar_series,
    )
    .log_y()
    .x_range_of(c.lstar_grid.iter().map(|&l| l as f64))
}

/// The subspace error ‖ŨŨᵀ − UUᵀ‖ against ε at the first n.
fn subspace_by_eps(c: &TraceConfig, rows: &[TraceRow]) -> ChartSpec {
    let mut subspace = private_by_eps(c, rows, |r| r.subspace_error);
    subspace.extend(nonprivate_lines(c, rows, |r| r.subspace_error));
    ChartSpec::new(
        format!("Subspace error versus ε (n = {})", c.n[0]),
        "target ε of each algorithm",
        "‖ŨŨᵀ − UUᵀ‖ (sin θ)",
        subspace,
    )
    .log_x()
    .log_y()
    .x_range_of(c.target.epsilons.iter().copied())
}

/// 25 points evenly spaced in log between a and b.
fn log_grid(a: f64, b: f64) -> Vec<f64> {
    if !(a > 0.0 && b > 0.0) || a == b {
        return vec![a];
    }
    (0..25)
        .map(|i| (a.ln() + (b.ln() - a.ln()) * i as f64 / 24.0).exp())
        .collect()
}

fn median_trajectory(rows: &[TraceRow], keep: impl Fn(&TraceRow) -> bool) -> Vec<(f64, f64)> {
    let chosen: Vec<&TraceRow> = rows.iter().filter(|r| keep(r)).collect();
    let len = chosen.iter().map(|r| r.trajectory.len()).max().unwrap_or(0);
    (0..len)
        .map(|l| {
            (
                l as f64,
                median(
                    chosen
                        .iter()
                        .filter_map(|r| r.trajectory.get(l).copied())
                        .collect(),
                ),
            )
        })
        .filter(|q| q.1.is_finite())
        .collect()
}
