//! Private FedRep's two charts (risk versus ε, principal angle versus round)
//! and the tables under them, from a sweep's finished rows and curves.

use super::config::FedRepConfig;
use super::guides::{fit_private_rate, guide_series};
use super::method::Method;
use super::results::{AngleCurve, ResultRow};
use crate::plot::{ChartSpec, LineStyle, Series};
use crate::privacy::report::fmt_eps;
use crate::scenarios::labels::spent_suffix;
use crate::scenarios::table::{cell, Table};

/// Stable colours per method (indices into the chart palette).
pub const COLOR_PRIVATE_FEDREP: usize = 0;
pub const COLOR_FEDREP: usize = 1;
pub const COLOR_LOCAL_GD: usize = 2;
pub const COLOR_PRIV_ALTMIN: usize = 3;

/// The table under the risk chart: one row per run, with its accounting.
pub fn risk_table(rows: &[ResultRow]) -> Table {
    let mut t = Table::new(
        "Risk by method and ε",
        &[
            "method",
            "target ε",
            "excess risk",
            "MSE",
            "final angle",
            "σ (training)",
            "ε spent (exact)",
            super::claims::CLIPPED_HEADER,
            "seed",
        ],
    );
    for r in rows {
        t.push(vec![
            r.method.label().to_string(),
            r.epsilon.map_or("non-private".into(), cell),
            cell(r.excess_risk),
            cell(r.mse),
            cell(r.principal_angle),
            cell(r.sigma),
            if r.epsilon_spent.is_finite() {
                fmt_eps(r.epsilon_spent)
            } else {
                cell(r.epsilon_spent)
            },
            clipped_cell(r.clipped_fraction),
            r.seed.to_string(),
        ]);
    }
    t
}

/// The share of users whose gradient was clipped, for a table cell: enough
/// digits that a few clipped users never read as "0.0%".
fn clipped_cell(fraction: f64) -> String {
    let percent = 100.0 * fraction;
    if fraction.is_nan() {
        "—".into()
    } else if percent > 0.0 && percent < 0.05 {
        format!("{percent:.1e}%")
    } else {
        format!("{percent:.1}%")
    }
}

/// The table under the angle chart: one row per run, one column per round.
pub fn angle_table(curves: &[AngleCurve]) -> Table {
    let several_seeds = curves.windows(2).any(|w| w[0].seed != w[1].seed);
    let rounds = curves.iter().map(|c| c.angles.len()).max().unwrap_or(0);
    let mut headers = vec!["run".to_string()];
    headers.extend((0..rounds).map(|t| format!("t = {t}")));
    let rows = curves
        .iter()
        .map(|c| {
            let mut name = c.method.label().to_string();
            if let Some(e) = c.epsilon {
                name.push_str(&format!(", ε = {}", cell(e)));
            }
            if several_seeds {
                name.push_str(&format!(", seed {}", c.seed));
            }
            let mut row = vec![name];
            row.extend((0..rounds).map(|t| c.angles.get(t).map_or(String::new(), |a| cell(*a))));
            row
        })
        .collect();
    Table {
        caption: "Principal angle by round".into(),
        headers,
        rows,
    }
}

/// The page's two charts for rows and curves of a sweep with this config
/// (also used to merge the results of several workers).
pub fn charts_for_config(
    c: &FedRepConfig,
    rows: &[ResultRow],
    curves: &[AngleCurve],
) -> Vec<ChartSpec> {
    let rounds = if c.altmin {
        c.rounds.max(c.altmin_rounds)
    } else {
        c.rounds
    };
    fedrep_charts(rows, curves, &c.target.epsilons, rounds, c.n)
}

fn epsilon_label(e: Option<f64>) -> String {
    match e {
        Some(e) => format!("ε = {e}"),
        None => "non-private".into(),
    }
}

/// Chart 1: excess risk versus ε, one line per private method, the non-private
/// methods as horizontal reference lines, and (once non-private FedRep and at
/// least two Private FedRep points are finished) the theory guide
/// A/(nε)² + floor with A fitted to those points ([`super::guides`]).
/// Chart 2: principal angle versus round, one line per ε (and the
/// non-private reference).
pub fn fedrep_charts(
    rows: &[ResultRow],
    curves: &[AngleCurve],
    epsilons: &[f64],
    rounds: usize,
    n: usize,
) -> Vec<ChartSpec> {
    let eps_min = epsilons.iter().copied().fold(f64::INFINITY, f64::min);
    let eps_max = epsilons.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    vec![
        ChartSpec::new(
            "Excess population risk versus ε",
            // The target: a curve whose runs spend another ε says so in its legend.
            "user-level target ε",
            "excess risk (mean over users)",
            risk_by_eps(rows, (eps_min, eps_max), n),
        )
        .log_y()
        .x_hint(Some((eps_min, eps_max))),
        ChartSpec::new(
            "Principal angle to U* over rounds",
            "round t",
            "dist(U_t, U*)",
            angle_by_round(rows, curves, epsilons),
        )
        .log_y()
        .x_hint(Some((0.0, rounds as f64))),
    ]
}

/// Chart 1's series: the mean excess risk of every method against ε with the
/// seeds' spread, the non-private ones as levels, and the theory guide.
fn risk_by_eps(rows: &[ResultRow], (eps_min, eps_max): (f64, f64), n: usize) -> Vec<Series> {
    let mut risk_series: Vec<Series> = Vec::new();
    let methods = [
        (Method::PrivateFedrep, COLOR_PRIVATE_FEDREP),
        (Method::PrivAltmin, COLOR_PRIV_ALTMIN),
        (Method::Fedrep, COLOR_FEDREP),
        (Method::LocalGd, COLOR_LOCAL_GD),
    ];
    for (id, color) in methods {
        let name = id.label();
        // Several seeds give several rows per ε: the mean, and the seeds'
        // spread (min to max) as a band.
        let mut groups: Vec<(f64, Vec<f64>)> = Vec::new();
        for r in rows.iter().filter(|r| r.method == id) {
            let eps = r.epsilon.unwrap_or(f64::NAN);
            match groups
                .iter_mut()
                .find(|(e, _)| e.to_bits() == eps.to_bits())
            {
                Some((_, v)) => v.push(r.excess_risk),
                None => groups.push((eps, vec![r.excess_risk])),
            }
        }
        if groups.is_empty() {
            continue;
        }
        let horizontal = groups.iter().all(|g| g.0.is_nan());
        groups.sort_by(|a, b| a.0.total_cmp(&b.0));
        let points = groups.iter().map(|(e, v)| (*e, mean(v))).collect();
        let spent = spent_suffix(
            rows.iter()
                .filter(|r| r.method == id)
                .map(|r| (r.epsilon.unwrap_or(f64::NAN), r.epsilon_spent)),
        );
        risk_series.push(Series {
            name: format!("{name}{spent}"),
            points,
            style: if horizontal {
                LineStyle::Dashed
            } else {
                LineStyle::Solid
            },
            color,
            horizontal,
            band: if horizontal {
                Vec::new()
            } else {
                spread(&groups)
            },
            faded: false,
            in_legend: true,
        });
    }
    // The theory guide A/(nε)² + floor, fitted to the mean Private FedRep points.
    let reference = risk_series
        .iter()
        .find(|s| s.name.starts_with("FedRep (non-private)"))
        .and_then(|s| s.points.first());
    let private = risk_series
        .iter()
        .find(|s| s.name.starts_with("Private FedRep"))
        .map(|s| s.points.clone());
    if let (Some(&(_, floor)), Some(private)) = (reference, private) {
        if let Some(fit) = fit_private_rate(&private, n, floor) {
            risk_series.push(guide_series(&fit, eps_min, eps_max, COLOR_PRIVATE_FEDREP));
        }
    }
    risk_series
}

/// Chart 2's series: one angle line per (method, ε), the mean over seeds round by
/// round with their spread.
fn angle_by_round(rows: &[ResultRow], curves: &[AngleCurve], epsilons: &[f64]) -> Vec<Series> {
    // One angle line per (method, ε), averaged over seeds round by round; the
    // same ε has the same colour for both private methods (dotted: Priv-AltMin).
    let mut keys: Vec<(Method, Option<f64>)> = Vec::new();
    for c in curves {
        if !keys
            .iter()
            .any(|(m, e)| *m == c.method && e.map(f64::to_bits) == c.epsilon.map(f64::to_bits))
        {
            keys.push((c.method, c.epsilon));
        }
    }
    let mut angle_series = Vec::new();
    for (method, epsilon) in keys {
        let group: Vec<&AngleCurve> = curves
            .iter()
            .filter(|c| {
                c.method == method && c.epsilon.map(f64::to_bits) == epsilon.map(f64::to_bits)
            })
            .collect();
        let len = group.iter().map(|c| c.angles.len()).max().unwrap_or(0);
        let per_round: Vec<(f64, Vec<f64>)> = (0..len)
            .map(|t| {
                (
                    t as f64,
                    group
                        .iter()
                        .filter_map(|c| c.angles.get(t).copied())
                        .collect(),
                )
            })
            .collect();
        let spent = spent_suffix(
            rows.iter()
                .filter(|r| {
                    r.method == method && r.epsilon.map(f64::to_bits) == epsilon.map(f64::to_bits)
                })
                .map(|r| (r.epsilon.unwrap_or(f64::NAN), r.epsilon_spent)),
        );
        let (name, style, color) = match (method, epsilon) {
            (_, None) => (
                "FedRep (non-private)".to_string(),
                LineStyle::Dashed,
                COLOR_FEDREP,
            ),
            (Method::PrivAltmin, Some(e)) => (
                format!("Priv-AltMin {}{spent}", epsilon_label(Some(e))),
                LineStyle::Dotted,
                4 + epsilon_index(epsilons, e),
            ),
            (_, Some(e)) => (
                format!("Private FedRep {}{spent}", epsilon_label(Some(e))),
                LineStyle::Solid,
                4 + epsilon_index(epsilons, e),
            ),
        };
        // Priv-AltMin's curves share the colours of Private FedRep's at the same
        // ε (dotted); the caption says so and the legend lists one entry per ε.
        let in_legend = style != LineStyle::Dotted;
        angle_series.push(Series {
            name,
            points: per_round.iter().map(|(t, v)| (*t, mean(v))).collect(),
            style,
            color,
            horizontal: false,
            band: spread(&per_round),
            faded: false,
            in_legend,
        });
    }
    angle_series
}

/// (x, min, max) over the seeds at each x, when there are several seeds.
fn spread(groups: &[(f64, Vec<f64>)]) -> Vec<(f64, f64, f64)> {
    if groups.iter().all(|(_, v)| v.len() < 2) {
        return Vec::new();
    }
    groups
        .iter()
        .map(|(x, v)| {
            let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            (*x, lo, hi)
        })
        .collect()
}

fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        f64::NAN
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

fn epsilon_index(epsilons: &[f64], e: f64) -> usize {
    epsilons
        .iter()
        .position(|x| x.to_bits() == e.to_bits())
        .unwrap_or(0)
}
