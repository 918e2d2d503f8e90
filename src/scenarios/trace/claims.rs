//! What the trace-regression captions and lesson say the charts show, each
//! with the predicate that decides it on a finished run (see
//! [`crate::scenarios::claims`]). Charts: 0 error versus ε, 1 error versus n,
//! 2 DP-RGrad's iterates, 3 the l* trade-off, 4 subspace error versus ε.

use super::method::Method;
use crate::plot::Series;
use crate::privacy::report::fmt_num;
use crate::scenarios::claims::{
    all_series, every_falls, falls, finite_points, results, series, strictly_inside, Check, Claim,
    Scope, EVERY_RUN,
};
use crate::scenarios::View;

const EPS: usize = 0;
const BY_N: usize = 1;
const TRAJECTORY: usize = 2;
const LSTAR: usize = 3;

pub const CLAIMS: &[Claim] = &[
    Claim {
        id: "trace-error-falls-with-eps",
        text: "DP-RGrad's error falls as ε grows (by at least a fifth from the smallest ε to the largest, no step up over 10 % \
               between neighbours).",
        scope: EVERY_RUN,
        check: error_falls_with_epsilon,
    },
    Claim {
        id: "trace-rgrad-improves-start",
        text: "At every ε, DP-RGrad ends below the private start it refines.",
        scope: EVERY_RUN,
        check: rgrad_improves_start,
    },
    Claim {
        id: "trace-error-falls-with-n",
        text: "At every ε, DP-RGrad's error falls as n grows (by at least a fifth from the smallest n to the largest, no step up over \
               10 % between neighbours).",
        scope: EVERY_RUN,
        check: error_falls_with_n,
    },
    Claim {
        id: "trace-iterates-contract",
        text: "DP-RGrad's iterates contract: at every ε the last iterate's error is at most half the first's.",
        scope: Scope {
            text: "strong DP (under weak DP the private start is already close, with less left to contract)",
            within: |s| s.is("privacy", "strong"),
        },
        check: iterates_contract,
    },
    Claim {
        id: "trace-lstar-inside",
        text: "The best number of iterations l* lies inside the range tried: more iterations contract further but each \
               is noisier.",
        scope: EVERY_RUN,
        check: lstar_inside,
    },
    Claim {
        id: "trace-run-within-2eps",
        text: "Every DP-RGrad run (its private start and its iterations together) spends at most 2ε at 2δ; the clipped \
               variant's start alone spends more than ε.",
        scope: EVERY_RUN,
        check: run_within_two_epsilon,
    },
    Claim {
        id: "trace-weak-below-strong",
        text: "At every ε, DP-RGrad under weak DP ends below DP-RGrad under (strong) DP.",
        scope: EVERY_RUN,
        check: weak_below_strong,
    },
];

/// The first DP-RGrad curve of the ε chart (the first configuration's).
fn error_falls_with_epsilon(view: &View) -> Check {
    falls(
        series(view, EPS, Method::DpRgrad.legend()),
        "DP-RGrad",
        "ε",
        0.1,
    )
}

fn rgrad_improves_start(view: &View) -> Check {
    let (Some(init), Some(rgrad)) = (
        series(view, EPS, Method::DpInit.legend()),
        series(view, EPS, Method::DpRgrad.legend()),
    ) else {
        return Check::Undecided("no finished private run".into());
    };
    below_at_each_epsilon(rgrad, init, " a start and a DP-RGrad run", |e, r, i| {
        format!("ε = {e}: {i} → {r}")
    })
}

/// Held when `lower`'s value is below `upper`'s at every ε both curves have;
/// `say(ε, lower, upper)` writes one ε's numbers (`both`: what an ε lacks when
/// none is shared).
fn below_at_each_epsilon(
    lower: &Series,
    upper: &Series,
    both: &str,
    say: impl Fn(String, String, String) -> String,
) -> Check {
    let upper: Vec<(f64, f64)> = finite_points(upper).collect();
    let pairs: Vec<(f64, f64, f64)> = finite_points(lower)
        .filter_map(|(e, l)| Some((e, l, upper.iter().find(|p| p.0 == e)?.1)))
        .collect();
    if pairs.is_empty() {
        return Check::Undecided(format!("no ε with both{both}"));
    }
    Check::from_bool(
        pairs.iter().all(|(_, l, u)| l < u),
        pairs
            .iter()
            .map(|(e, l, u)| say(fmt_num(*e), fmt_num(*l), fmt_num(*u)))
            .collect::<Vec<_>>()
            .join("; "),
    )
}

fn error_falls_with_n(view: &View) -> Check {
    let name = |s: &Series| s.name.clone();
    every_falls(&all_series(view, BY_N, "DP-RGrad, ε = "), name, "n", 0.1)
}

fn iterates_contract(view: &View) -> Check {
    let curves = all_series(view, TRAJECTORY, "DP-RGrad, ε = ");
    if curves.is_empty() {
        return Check::Undecided("no finished DP-RGrad run".into());
    }
    let mut held = true;
    let mut numbers = Vec::new();
    for s in curves {
        let pts: Vec<(f64, f64)> = finite_points(s).collect();
        if pts.len() < 2 {
            return Check::Undecided("fewer than two iterates".into());
        }
        let (first, last) = (pts[0].1, pts[pts.len() - 1].1);
        held &= last <= 0.5 * first;
        numbers.push(format!(
            "{}: {} → {}",
            s.name,
            fmt_num(first),
            fmt_num(last)
        ));
    }
    Check::from_bool(held, numbers.join("; "))
}

fn lstar_inside(view: &View) -> Check {
    let Some(s) = view
        .charts
        .get(LSTAR)
        .and_then(|c| c.series.iter().find(|s| finite_points(s).count() >= 3))
    else {
        return Check::Undecided("fewer than three values of l* (set l* values)".into());
    };
    let pts: Vec<(f64, f64)> = finite_points(s).collect();
    let best = (0..pts.len())
        .min_by(|&a, &b| pts[a].1.total_cmp(&pts[b].1))
        .unwrap_or(0);
    strictly_inside(&pts, best, |[x, y, lo, hi]| {
        format!("best l* = {x} (error {y}) of l* = {lo}…{hi}")
    })
}

/// From `results.csv`: DP-RGrad runs against 2ε; the clipped variant's start against ε.
fn run_within_two_epsilon(view: &View) -> Check {
    let (header, rows) = results(view);
    let col = |name: &str| header.iter().position(|h| h == name);
    let (Some(m), Some(v), Some(e), Some(s)) = (
        col("method"),
        col("variant"),
        col("epsilon"),
        col("epsilon_spent"),
    ) else {
        return Check::Undecided("results.csv has no epsilon_spent column".into());
    };
    let num = |r: &Vec<String>, i: usize| r.get(i).and_then(|x| x.parse::<f64>().ok());
    let mut worst_run = 0.0f64;
    let mut clipped_start: Option<f64> = None;
    let mut runs = 0;
    for r in &rows {
        let (Some(eps), Some(spent)) = (num(r, e), num(r, s)) else {
            continue;
        };
        let method = serde_json::from_value::<Method>(r[m].as_str().into()).ok();
        match method {
            Some(method) if method.is_descent() => {
                runs += 1;
                worst_run = worst_run.max(spent / (2.0 * eps));
            }
            Some(Method::DpInit) if r[v] == "clipped" => {
                clipped_start = Some(clipped_start.unwrap_or(f64::INFINITY).min(spent / eps));
            }
            _ => {}
        }
    }
    if runs == 0 {
        return Check::Undecided("no finished DP-RGrad run".into());
    }
    let mut numbers = format!(
        "largest spent/(2ε) over {runs} DP-RGrad runs: {}",
        fmt_num(worst_run)
    );
    let start_ok = match clipped_start {
        Some(x) => {
            numbers.push_str(&format!("; the clipped start spends {}×ε", fmt_num(x)));
            x > 1.0
        }
        None => true,
    };
    Check::from_bool(worst_run <= 1.0 + 1e-9 && start_ok, numbers)
}

fn weak_below_strong(view: &View) -> Check {
    let chart = match view.charts.get(EPS) {
        Some(c) => c,
        None => return Check::Undecided("no chart".into()),
    };
    let rgrad = |weak: bool| {
        chart.series.iter().find(|s| {
            s.name.starts_with(Method::DpRgrad.legend())
                && s.name.contains("weak DP") == weak
                && !s.name.contains("clipped")
        })
    };
    let (Some(weak), Some(strong)) = (rgrad(true), rgrad(false)) else {
        return Check::Undecided("the run does not have both weak and strong DP".into());
    };
    below_at_each_epsilon(weak, strong, "", |e, w, s| {
        format!("ε = {e}: weak {w} against strong {s}")
    })
}
