//! The classifier's three charts: 0-1 error versus ε (against the baselines),
//! versus d at a fixed k′ (Theorem 17: the bound does not depend on d), and
//! versus the number of candidates (what the mechanism pays for a bigger
//! range: log N_c/(εn)).

use super::config::{ClassifierConfig, InputModel};
use super::run::{ClassifierRow, Method};
use crate::plot::{mean_points, ChartSpec, LineStyle, Series};
use crate::privacy::report::fmt_num;

/// Mean error over seeds of the rows that `keep`, by `x`, sorted by x.
fn mean_by(
    rows: &[ClassifierRow],
    keep: impl Fn(&ClassifierRow) -> bool,
    x: impl Fn(&ClassifierRow) -> f64,
) -> Vec<(f64, f64)> {
    mean_points(rows, keep, x, |r| r.error01)
}

fn series(
    name: String,
    points: Vec<(f64, f64)>,
    style: LineStyle,
    color: usize,
    horizontal: bool,
) -> Series {
    Series {
        name,
        points,
        style,
        color,
        horizontal,
        band: Vec::new(),
        faded: false,
        in_legend: true,
    }
}

/// A baseline's mean error at dimension d, as a horizontal reference.
fn level(rows: &[ClassifierRow], method: Method, d: usize) -> Option<f64> {
    mean_by(rows, |r| r.method == method && r.d == d, |_| 0.0)
        .first()
        .map(|p| p.1)
}

/// The d chart's note of how the inputs were drawn (the claims read it: the
/// ball's claim is about ball inputs only).
pub fn inputs_label(c: &ClassifierConfig) -> String {
    match c.inputs {
        InputModel::Subspace => format!("inputs U*z + P⊥g, a = {}", fmt_num(c.signal)),
        InputModel::Ball => BALL_INPUTS.to_string(),
    }
}

/// The d chart's title note for inputs uniform in the d-ball.
pub const BALL_INPUTS: &str = "inputs uniform in the d-ball";

pub fn charts(c: &ClassifierConfig, rows: &[ClassifierRow]) -> Vec<ChartSpec> {
    let mut by_eps = vec![series(
        "JL + exponential mechanism".into(),
        mean_by(
            rows,
            |r| r.method == Method::JlEm && r.d == c.d,
            |r| r.epsilon,
        ),
        LineStyle::Solid,
        0,
        false,
    )];
    for (method, name, color) in [
        (Method::BestCandidate, "best candidate (non-private)", 1),
        (Method::LocalOnly, "each user alone (nothing shared)", 2),
        (Method::TrueModel, "true U*, heads on S¹", 3),
    ] {
        if let Some(y) = level(rows, method, c.d) {
            by_eps.push(series(
                name.into(),
                vec![(f64::NAN, y)],
                LineStyle::Dashed,
                color,
                true,
            ));
        }
    }
    let mut by_d = Vec::new();
    for (e, &eps) in c.target.epsilons.iter().enumerate() {
        by_d.push(series(
            format!("ε = {}", fmt_num(eps)),
            mean_by(
                rows,
                |r| r.method == Method::JlEm && r.epsilon == eps,
                |r| r.d as f64,
            ),
            LineStyle::Solid,
            4 + e,
            false,
        ));
    }
    by_d.push(series(
        "best candidate (non-private)".into(),
        mean_by(rows, |r| r.method == Method::BestCandidate, |r| r.d as f64),
        LineStyle::Dashed,
        1,
        false,
    ));
    let mid = c
        .target
        .epsilons
        .get(c.target.epsilons.len() / 2)
        .copied()
        .unwrap_or(1.0);
    let mut by_count = Vec::new();
    let counted = mean_by(
        rows,
        |r| r.method == Method::JlEmCandidates,
        |r| r.candidates as f64,
    );
    if !counted.is_empty() {
        by_count.push(series(
            format!("JL + EM, ε = {}", fmt_num(mid)),
            counted,
            LineStyle::Solid,
            0,
            false,
        ));
        if let Some(y) = level(rows, Method::TrueModel, c.d) {
            by_count.push(series(
                "true U*, heads on S¹".into(),
                vec![(f64::NAN, y)],
                LineStyle::Dashed,
                3,
                true,
            ));
        }
    }
    let dims: Vec<f64> = c.dimensions().iter().map(|&d| d as f64).collect();
    let counts: Vec<f64> = c.candidate_grid.iter().map(|&n| n as f64).collect();
    vec![
        ChartSpec::new(
            format!("0-1 error versus ε (d = {})", c.d),
            "user-level ε (pure, δ = 0)",
            "0-1 error (mean over users)",
            by_eps,
        )
        .log_x()
        .levels_at(c.target.epsilons.first().copied().unwrap_or(1.0))
        .x_range_of(c.target.epsilons.iter().copied()),
        ChartSpec::new(
            format!(
                "0-1 error versus d (k′ = {}, {})",
                c.k_prime,
                inputs_label(c)
            ),
            "dimension d",
            "0-1 error (mean over users)",
            by_d,
        )
        .log_x()
        .x_range_of(dims.iter().copied()),
        ChartSpec::new(
            "0-1 error versus the number of candidates",
            "candidates N_c",
            "0-1 error (mean over users)",
            by_count,
        )
        .log_x()
        .levels_at(counts.first().copied().unwrap_or(1.0))
        .x_range_of(counts.iter().copied()),
    ]
}
