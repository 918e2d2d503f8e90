//! The FLUTE scenario's charts (Liu, Shen & Yang, §7 and App. C): the error
//! against the rounds with the ERM floor and the rank-k truncation's error,
//! the singular values of BW (learned one at a time, largest first), the
//! principal angle, the balancedness, the private comparison (this project's
//! extension; the error and the principal angle against ε) and the γ
//! ablation (Fig. 4). Curves are means over seeds.

use super::config::{FluteConfig, ABLATION_RATIOS};
use super::run::{Curve, CurvePoint, FluteRow, Method};
use crate::plot::{ChartSpec, LineStyle, Series};
use crate::privacy::report::fmt_num;
use crate::scenarios::labels::spent_suffix;

fn series(name: String, points: Vec<(f64, f64)>, style: LineStyle, color: usize) -> Series {
    Series::line(name, points, style, color)
}

fn level(name: String, y: f64, x: f64, color: usize) -> Option<Series> {
    y.is_finite().then(|| Series {
        horizontal: true,
        ..series(name, vec![(x, y)], LineStyle::Dashed, color)
    })
}

/// The mean over seeds, round by round, of `value` on the curves of `method`
/// (at ε, NaN for the non-private ones).
fn mean_curve(
    curves: &[Curve],
    method: Method,
    epsilon: f64,
    value: impl Fn(&CurvePoint) -> f64,
) -> Vec<(f64, f64)> {
    let chosen: Vec<&Curve> = curves
        .iter()
        .filter(|c| {
            c.method == method && (c.epsilon == epsilon || (c.epsilon.is_nan() && epsilon.is_nan()))
        })
        .collect();
    let Some(first) = chosen.first() else {
        return Vec::new();
    };
    (0..first.points.len())
        .filter_map(|j| {
            let values: Vec<f64> = chosen
                .iter()
                .filter_map(|c| c.points.get(j).map(&value))
                .collect();
            let mean = values.iter().sum::<f64>() / values.len() as f64;
            mean.is_finite()
                .then_some((first.points[j].round as f64, mean))
        })
        .collect()
}

/// The mean of `value` over the rows that `keep`.
fn mean_of(
    rows: &[FluteRow],
    keep: impl Fn(&FluteRow) -> bool,
    value: impl Fn(&FluteRow) -> f64,
) -> f64 {
    let v: Vec<f64> = rows.iter().filter(|r| keep(r)).map(value).collect();
    if v.is_empty() {
        f64::NAN
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

/// The non-private methods: (id, legend, colour). The FLUTE paper does not
/// say which FedRep it ran; both forms are drawn, each from both starts.
pub const METHODS: [(Method, &str, usize); 5] = [
    (Method::Flute, "FLUTE (Algorithm 1)", 0),
    (
        Method::FedrepGd,
        "FedRep, gradient steps as its code runs them (moments start)",
        8,
    ),
    (
        Method::FedrepGdRi,
        "FedRep(RI), gradient steps (FLUTE's start)",
        11,
    ),
    (
        Method::Fedrep,
        "FedRep, alternating minimization + QR (Collins et al.'s analysed form; moments start)",
        1,
    ),
    (
        Method::FedrepRi,
        "FedRep(RI), alternating minimization + QR (FLUTE's B⁰)",
        2,
    ),
];

/// Gradient FedRep(RI) with FLUTE's summed server step (this project's
/// extension; drawn when `fedrep_summed` is on): (id, legend, colour).
pub const SUMMED: (Method, &str, usize) = (
    Method::FedrepGdSumRi,
    "FedRep(RI), gradient steps summed as FLUTE's (project's extension)",
    10,
);

/// The non-private methods the config runs: [`METHODS`], and [`SUMMED`] when on.
fn methods_run(c: &FluteConfig) -> impl Iterator<Item = (Method, &'static str, usize)> {
    METHODS.into_iter().chain(c.fedrep_summed.then_some(SUMMED))
}

/// The legend of the error of the rank-k truncation Φ_k.
pub const TRUNCATION: &str = "rank-k truncation Φₖ (not a lower bound)";

pub fn charts(c: &FluteConfig, rows: &[FluteRow], curves: &[Curve]) -> Vec<ChartSpec> {
    vec![
        error_by_round(c, rows, curves),
        singular_values(c, curves),
        angle_by_round(c, curves),
        balancedness(c, curves),
        error_by_eps(c, rows),
        angle_by_eps(c, rows),
        ablation(c, rows),
    ]
}

/// The floors of the sweep's datasets (not the ablation's) as levels from x: the
/// finite-N ERM optimum's error and the rank-k truncation's.
fn floors(rows: &[FluteRow], x: f64) -> impl Iterator<Item = Series> {
    let main = |r: &FluteRow| r.method != Method::FluteAblation;
    let erm = mean_of(rows, main, |r| r.erm_floor);
    let population = mean_of(rows, main, |r| r.population_floor);
    [
        level("finite-N ERM floor".into(), erm, x, 6),
        level(TRUNCATION.into(), population, x, 7),
    ]
    .into_iter()
    .flatten()
}

/// The mean curve of `value` of every non-private method, against the rounds.
fn methods_by_round(
    c: &FluteConfig,
    curves: &[Curve],
    value: fn(&CurvePoint) -> f64,
) -> Vec<Series> {
    methods_run(c)
        .map(|(method, name, color)| {
            series(
                name.into(),
                mean_curve(curves, method, f64::NAN, value),
                LineStyle::Solid,
                color,
            )
        })
        .collect()
}

/// The paper's error against the rounds (Fig. 1/3), with the floors.
fn error_by_round(c: &FluteConfig, rows: &[FluteRow], curves: &[Curve]) -> ChartSpec {
    let mut error = methods_by_round(c, curves, |p| p.error);
    error.extend(floors(rows, 0.0));
    let title = format!(
        "Error versus rounds (d = {}, k = {}, r = {})",
        c.d,
        c.k,
        c.effective_rank()
    );
    versus_rounds(c, title, "(1/M) Σ ‖B wᵢ − φᵢ‖", error).log_y()
}

/// A chart against the rounds, its x range the config's rounds before any arrive.
fn versus_rounds(c: &FluteConfig, title: impl Into<String>, y: &str, s: Vec<Series>) -> ChartSpec {
    ChartSpec::new(title, "round", y, s).x_hint(Some((0.0, c.rounds as f64)))
}

/// FLUTE's σⱼ(BW) against the rounds, learned one at a time, with the levels σⱼ(Φ).
fn singular_values(c: &FluteConfig, curves: &[Curve]) -> ChartSpec {
    let mut singular = Vec::new();
    for j in 0..c.k {
        singular.push(series(
            format!("σ{}(BW), FLUTE", j + 1),
            mean_curve(curves, Method::Flute, f64::NAN, |p| {
                p.singular_values.get(j).copied().unwrap_or(f64::NAN)
            }),
            LineStyle::Solid,
            j,
        ));
    }
    // σⱼ(Φ), the mean over the seeds' datasets (exactly λⱼ for App. C.1).
    let flute_curves: Vec<&Curve> = curves
        .iter()
        .filter(|c| c.method == Method::Flute)
        .collect();
    let phi_sv = |j: usize| {
        let v: Vec<f64> = flute_curves
            .iter()
            .filter_map(|c| c.phi_singular_values.get(j).copied())
            .collect();
        v.iter().sum::<f64>() / v.len() as f64
    };
    for j in 0..(c.k + 1).min(c.d.min(c.n)) {
        if let Some(s) = level(format!("σ{}(Φ)", j + 1), phi_sv(j), 0.0, j) {
            singular.push(Series {
                in_legend: j == c.k,
                ..s
            });
        }
    }
    versus_rounds(c, "Singular values of BW (FLUTE)", "σⱼ(BW)", singular)
}

/// The principal angle to U_k against the rounds.
fn angle_by_round(c: &FluteConfig, curves: &[Curve]) -> ChartSpec {
    let angle = methods_by_round(c, curves, |p| p.principal_angle);
    versus_rounds(
        c,
        "Distance to the top-k subspace U_k",
        "sin of the largest principal angle",
        angle,
    )
    .log_y()
}

/// ‖BᵀB − WWᵀ‖_F of FLUTE's own factors and gradient FedRep's (the analysed form has
/// none), and DP-FLUTE's at the middle ε.
fn balancedness(c: &FluteConfig, curves: &[Curve]) -> ChartSpec {
    let mut balance: Vec<Series> = methods_run(c)
        .filter(|(method, _, _)| {
            [
                Method::Flute,
                Method::FedrepGd,
                Method::FedrepGdRi,
                Method::FedrepGdSumRi,
            ]
            .contains(method)
        })
        .map(|(method, name, color)| {
            series(
                name.into(),
                mean_curve(curves, method, f64::NAN, |p| p.balancedness),
                LineStyle::Solid,
                color,
            )
        })
        .collect();
    let eps = c.private_epsilons();
    if let Some(&mid) = eps.get(eps.len() / 2) {
        balance.push(series(
            format!("DP-FLUTE, ε = {}", fmt_num(mid)),
            mean_curve(curves, Method::DpFlute, mid, |p| p.balancedness),
            LineStyle::Dashed,
            3,
        ));
    }
    versus_rounds(c, "Balancedness ‖BᵀB − WWᵀ‖_F", "‖BᵀB − WWᵀ‖_F", balance).log_y()
}

/// `value` at the end against ε: the private pair and the levels of their non-private
/// forms (Private FedRep is the analysed FedRep, noised).
/// The lowest and highest of `value` over the seeds at each ε of `method`'s
/// private runs (empty with one seed): the band the chart draws and the
/// claims read, so a fall is judged against the seeds' spread.
fn seeds_band(
    eps: &[f64],
    rows: &[FluteRow],
    method: Method,
    value: fn(&FluteRow) -> f64,
) -> Vec<(f64, f64, f64)> {
    eps.iter()
        .filter_map(|&e| {
            let values: Vec<f64> = rows
                .iter()
                .filter(|r| r.method == method && r.epsilon == e)
                .map(value)
                .filter(|v| v.is_finite())
                .collect();
            let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            (values.len() > 1).then_some((e, lo, hi))
        })
        .collect()
}

fn against_eps(c: &FluteConfig, rows: &[FluteRow], value: fn(&FluteRow) -> f64) -> Vec<Series> {
    let eps = c.private_epsilons();
    let mut out = Vec::new();
    if eps.is_empty() {
        return out;
    }
    for (method, name, color) in [
        (Method::DpFlute, "DP-FLUTE (project's extension)", 3),
        (Method::PrivateFedrep, "Private FedRep", 4),
    ] {
        let points: Vec<(f64, f64)> = eps
            .iter()
            .map(|&e| {
                (
                    e,
                    mean_of(rows, |r| r.method == method && r.epsilon == e, value),
                )
            })
            .filter(|p| p.1.is_finite())
            .collect();
        // The x axis is the target ε: say what the runs spend where it differs.
        let spent = spent_suffix(
            rows.iter()
                .filter(|r| r.method == method)
                .map(|r| (r.epsilon, r.epsilon_spent)),
        );
        let mut line = series(format!("{name}{spent}"), points, LineStyle::Solid, color);
        line.band = seeds_band(eps, rows, method, value);
        out.push(line);
    }
    let x0 = eps[0];
    for (method, name, color) in [
        (Method::Flute, "FLUTE, non-private", 0),
        (Method::Fedrep, "FedRep (alt. min. + QR), non-private", 1),
    ] {
        out.extend(level(
            name.into(),
            mean_of(rows, |r| r.method == method, value),
            x0,
            color,
        ));
    }
    out
}

/// The final error against client-level ε, with the floors.
fn error_by_eps(c: &FluteConfig, rows: &[FluteRow]) -> ChartSpec {
    let eps = c.private_epsilons();
    let mut by_eps = against_eps(c, rows, |r| r.error);
    if !eps.is_empty() {
        by_eps.extend(floors(rows, eps[0]));
    }
    versus_eps(c, "Final error", "(1/M) Σ ‖B wᵢ − φᵢ‖ at the end", by_eps).log_y()
}

/// A chart against client-level ε (log scale, the private runs' ε before any
/// arrive), titled "`what` versus client-level ε (δ = …)".
fn versus_eps(c: &FluteConfig, what: &str, y: &str, s: Vec<Series>) -> ChartSpec {
    let title = format!("{what} versus client-level ε (δ = {})", fmt_num(c.delta));
    ChartSpec::new(title, "client-level target ε", y, s)
        .log_x()
        .x_range_of(c.private_epsilons().iter().copied())
}

/// The final principal angle against client-level ε.
fn angle_by_eps(c: &FluteConfig, rows: &[FluteRow]) -> ChartSpec {
    let angle = against_eps(c, rows, |r| r.principal_angle);
    versus_eps(
        c,
        "Distance to U_k",
        "sin of the largest principal angle at the end",
        angle,
    )
}

/// The γ ablation (Fig. 4): FLUTE's final error against N at each γ₁/γ₂, with the
/// ERM floor of those datasets.
fn ablation(c: &FluteConfig, rows: &[FluteRow]) -> ChartSpec {
    // The mean of `value` over the ablation's rows kept, at each N with one.
    let by_m = |keep: &dyn Fn(&FluteRow) -> bool, value: fn(&FluteRow) -> f64| {
        let mut points: Vec<(f64, f64)> = c
            .ablation_m
            .iter()
            .map(|&n| {
                let at_n = |r: &FluteRow| r.method == Method::FluteAblation && r.m == n && keep(r);
                (n as f64, mean_of(rows, at_n, value))
            })
            .filter(|p| p.1.is_finite())
            .collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        points
    };
    let mut ablation = Vec::new();
    for (i, ratio) in ABLATION_RATIOS.iter().enumerate() {
        let points = by_m(&|r| r.gamma_ratio == *ratio, |r| r.error);
        if !points.is_empty() {
            let label = ["γ₁ = 2γ₂", "γ₁ = γ₂", "γ₁ = (2/3)γ₂"][i];
            ablation.push(series(label.into(), points, LineStyle::Solid, i));
        }
    }
    let floor_by_m = by_m(&|_| true, |r| r.erm_floor);
    if !floor_by_m.is_empty() {
        ablation.push(series(
            "finite-N ERM floor".into(),
            floor_by_m,
            LineStyle::Dashed,
            6,
        ));
    }
    let title = format!(
        "γ ablation: final FLUTE error versus N (k = {}, M = {})",
        c.k, c.n
    );
    ChartSpec::new(
        title,
        "samples per client N",
        "(1/M) Σ ‖B wᵢ − φᵢ‖ at the end",
        ablation,
    )
    .x_range_of(c.ablation_m.iter().map(|&n| n as f64))
}
