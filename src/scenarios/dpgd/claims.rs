//! What DP-GD's captions and lesson say the charts show, each with the
//! predicate that decides it on a finished run (see
//! [`crate::scenarios::claims`]). Charts: 0 loss versus ε, 1 loss versus width,
//! 2 loss versus T, 3 loss versus ηTp/d.

use crate::plot::Series;
use crate::privacy::report::fmt_num;
use crate::scenarios::claims::{
    all_series, epsilon_in_name, every_falls, finite_points, level, listed, series,
    spent_within_target, strictly_inside, Check, Claim, Scope, Settings, EVERY_RUN,
};
use crate::scenarios::View;

const EPS: usize = 0;
const WIDTH: usize = 1;
const STEPS: usize = 2;
const RESCALED: usize = 3;

pub const CLAIMS: &[Claim] = &[
    Claim {
        id: "dpgd-spent-within-target",
        text: "Every DP-GD run spends at most its target ε at δ (the exact accountant, as Explain ε shows).",
        scope: EVERY_RUN,
        check: spent_within_target,
    },
    Claim {
        id: "dpgd-loss-falls-with-eps",
        text: "At every width shown from p = n/2 up, DP-GD's test loss falls as ε grows (by at least a fifth from the \
               smallest ε to the largest, no step up over 10 % between neighbours, or beyond the seeds' band with \
               several seeds).",
        scope: EVERY_RUN,
        check: loss_falls_with_epsilon,
    },
    Claim {
        id: "dpgd-below-predict-0",
        text: "At the largest ε, DP-GD is below “predict 0” at every width shown: it has learned something despite the noise.",
        scope: EVERY_RUN,
        check: below_predict_zero,
    },
    Claim {
        id: "dpgd-double-descent",
        text: "The non-private interpolator θ* peaks at the width closest to p = n, inside the range of widths (double \
               descent).",
        scope: EVERY_RUN,
        check: double_descent,
    },
    Claim {
        id: "dpgd-no-worse-past-n",
        text: "Past θ*'s peak (p = n), DP-GD does not get worse as p grows: at every ε its mean loss over the seeds at the \
               widest width is within 1.5 times its mean loss at the peak's width.",
        scope: Scope {
            text: "the mean of 3 or more seeds (one seed's loss past n is noisy: up to 1.56× at seed 2)",
            within: |s| s.at_least("seeds", 3.0),
        },
        check: no_worse_past_n,
    },
    Claim {
        id: "dpgd-best-t-inside",
        text: "For every traced width, the best number of steps T lies inside the range tried: too few steps underfit, \
               too many add noise.",
        scope: EVERY_RUN,
        check: best_steps_inside,
    },
    Claim {
        id: "dpgd-rescaled-minima-line-up",
        text: "On the rescaled time ηT·p/d, the traced widths' best points lie within a factor 4 of each other.",
        scope: EVERY_RUN,
        check: rescaled_minima_line_up,
    },
];

fn loss_falls_with_epsilon(view: &View) -> Check {
    let name = |s: &Series| {
        s.name
            .split(" (spends")
            .next()
            .unwrap_or(&s.name)
            .to_string()
    };
    // Far below n the small model's bias dominates and the loss moves
    // little with ε (at p = 20, n = 400: 0.59 → 0.60 at seed 8).
    let n = Settings(&view.settings)
        .numbers("n")
        .first()
        .copied()
        .unwrap_or(0.0);
    let wide: Vec<&Series> = all_series(view, EPS, "DP-GD, p = ")
        .into_iter()
        .filter(|s| width_in_name(&s.name).is_none_or(|p| p >= n / 2.0))
        .collect();
    every_falls(&wide, name, "ε", 0.1)
}

/// The width p in a series name such as "DP-GD, p = 8000 (spends 3.9)".
fn width_in_name(name: &str) -> Option<f64> {
    let rest = name.split("p = ").nth(1)?;
    rest.split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

fn below_predict_zero(view: &View) -> Check {
    let Some(zero) = series(view, EPS, "predict 0").and_then(level) else {
        return Check::Undecided("no “predict 0” level".into());
    };
    let ends: Vec<(String, f64)> = all_series(view, EPS, "DP-GD, p = ")
        .iter()
        .filter_map(|s| {
            let last = finite_points(s).last()?;
            Some((s.name.split(" (spends").next()?.to_string(), last.1))
        })
        .collect();
    if ends.is_empty() {
        return Check::Undecided("no finished DP-GD curve".into());
    }
    let worst = ends.iter().map(|e| e.1).fold(f64::NEG_INFINITY, f64::max);
    Check::from_bool(
        worst < zero,
        format!(
            "“predict 0” at {}; DP-GD at the largest ε: {}",
            fmt_num(zero),
            listed(&ends, |(n, l)| format!("{} ({n})", fmt_num(*l)))
        ),
    )
}

/// θ*'s curve over the widths and the index of its peak.
fn theta_star_peak(view: &View) -> Option<(Vec<(f64, f64)>, usize)> {
    let pts: Vec<(f64, f64)> = finite_points(series(view, WIDTH, "θ* = Φ⁺Y")?).collect();
    let peak = (0..pts.len()).max_by(|&a, &b| pts[a].1.total_cmp(&pts[b].1))?;
    Some((pts, peak))
}

fn double_descent(view: &View) -> Check {
    let Some((pts, peak)) = theta_star_peak(view) else {
        return Check::Undecided("no θ* curve".into());
    };
    if pts.len() < 3 {
        return Check::Undecided("fewer than three widths".into());
    }
    let inside = strictly_inside(&pts, peak, |[x, y, lo, hi]| {
        format!("θ* peaks at p = {x} (loss {y}), between p = {lo} and p = {hi}")
    });
    // The width closest to n (in ratio): where the interpolation threshold is.
    let Some(n) = Settings(&view.settings).numbers("n").first().copied() else {
        return inside;
    };
    let Some(closest) = (0..pts.len()).min_by(|&a, &b| {
        (pts[a].0 / n)
            .ln()
            .abs()
            .total_cmp(&(pts[b].0 / n).ln().abs())
    }) else {
        return inside;
    };
    match inside {
        Check::Held(numbers) | Check::NotHeld(numbers) => Check::from_bool(
            peak == closest && peak > 0 && peak + 1 < pts.len(),
            format!(
                "{numbers}; the width closest to n = {} is p = {}",
                fmt_num(n),
                fmt_num(pts[closest].0)
            ),
        ),
        undecided => undecided,
    }
}

fn no_worse_past_n(view: &View) -> Check {
    let Some((pts, peak)) = theta_star_peak(view) else {
        return Check::Undecided("no θ* curve".into());
    };
    let p_peak = pts[peak].0;
    let mut numbers = Vec::new();
    let mut held = true;
    let curves = all_series(view, WIDTH, "DP-GD, ε = ");
    for s in &curves {
        let past: Vec<(f64, f64)> = finite_points(s).filter(|p| p.0 >= p_peak).collect();
        if past.len() < 2 {
            return Check::Undecided(format!(
                "fewer than two widths at or past θ*'s peak p = {}",
                fmt_num(p_peak)
            ));
        }
        let ratio = past[past.len() - 1].1 / past[0].1;
        held &= ratio <= 1.5;
        numbers.push(format!(
            "ε = {}: {} at p = {}, {} at p = {} ({}×)",
            epsilon_in_name(&s.name).map_or("?".into(), fmt_num),
            fmt_num(past[0].1),
            fmt_num(past[0].0),
            fmt_num(past[past.len() - 1].1),
            fmt_num(past[past.len() - 1].0),
            fmt_num(ratio)
        ));
    }
    if curves.is_empty() {
        return Check::Undecided("no finished DP-GD curve".into());
    }
    Check::from_bool(held, numbers.join("; "))
}

/// Each traced width's best point on chart `chart`: (width name, x, loss, number of points).
fn best_points(view: &View, chart: usize) -> Vec<(String, f64, f64, usize, usize)> {
    all_series(view, chart, "p = ")
        .iter()
        .filter_map(|s| {
            let pts: Vec<(f64, f64)> = finite_points(s).collect();
            let best = (0..pts.len()).min_by(|&a, &b| pts[a].1.total_cmp(&pts[b].1))?;
            let name = s.name.split(" (spends").next()?.to_string();
            Some((name, pts[best].0, pts[best].1, best, pts.len()))
        })
        .collect()
}

fn best_steps_inside(view: &View) -> Check {
    let best = best_points(view, STEPS);
    if best.is_empty() {
        return Check::Undecided("no traced width".into());
    }
    if best.iter().any(|b| b.4 < 3) {
        return Check::Undecided("fewer than three values of T".into());
    }
    Check::from_bool(
        best.iter().all(|b| b.3 > 0 && b.3 + 1 < b.4),
        best.iter()
            .map(|(n, t, l, _, _)| format!("{n}: best T = {} (loss {})", fmt_num(*t), fmt_num(*l)))
            .collect::<Vec<_>>()
            .join("; "),
    )
}

fn rescaled_minima_line_up(view: &View) -> Check {
    let best = best_points(view, RESCALED);
    if best.len() < 2 {
        return Check::Undecided("fewer than two traced widths".into());
    }
    let lo = best.iter().map(|b| b.1).fold(f64::INFINITY, f64::min);
    let hi = best.iter().map(|b| b.1).fold(f64::NEG_INFINITY, f64::max);
    Check::from_bool(
        hi <= 4.0 * lo,
        best.iter()
            .map(|(n, x, _, _, _)| format!("{n}: best at ηTp/d = {}", fmt_num(*x)))
            .collect::<Vec<_>>()
            .join("; "),
    )
}
