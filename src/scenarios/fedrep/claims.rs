//! What Private FedRep's captions and lesson say the charts show, each with
//! the predicate that decides it on a finished run (see
//! [`crate::scenarios::claims`]). Chart 0 is risk versus ε, chart 1 the
//! principal angle by round; table 0 is the risk table.

use super::method::Method;
use crate::privacy::report::fmt_num;
use crate::scenarios::claims::{
    all_series, cell_number, column, epsilon_in_name, falls, level, listed, series,
    spent_within_target, Check, Claim, Scope, Settings, EVERY_RUN,
};
use crate::scenarios::View;

const RISK: usize = 0;
const ANGLE: usize = 1;
const PRIVATE: &str = "Private FedRep";
const NON_PRIVATE: &str = "FedRep (non-private)";

pub const CLAIMS: &[Claim] = &[
    Claim {
        id: "fedrep-spent-within-target",
        text: "Every private run spends at most its target ε at δ (the exact accountant, as Explain ε shows).",
        scope: Scope {
            text: "the exact or the paper's calibration",
            within: not_authors_code,
        },
        check: spent_within_target,
    },
    Claim {
        id: "fedrep-authors-code-overspends",
        text: "The authors' calibration spends more than its target: the exact accountant finds Priv-AltMin's runs over \
               their target ε at δ (about 3 % at ε = 8), since that code sets each step's noise by its own formula.",
        scope: Scope {
            text: "the authors' calibration with Priv-AltMin on",
            within: authors_code_with_altmin,
        },
        check: authors_code_overspends,
    },
    Claim {
        id: "fedrep-risk-falls-with-eps",
        text: "Private FedRep's risk falls as ε grows (by at least a fifth from the smallest ε to the largest, no step up over 10 % \
               between neighbours).",
        scope: EVERY_RUN,
        check: risk_falls,
    },
    Claim {
        id: "fedrep-approaches-non-private",
        text: "As ε grows, Private FedRep approaches non-private FedRep: its excess over FedRep's risk at the largest ε \
               is at most a tenth of that at the smallest.",
        scope: EVERY_RUN,
        check: approaches_non_private,
    },
    Claim {
        id: "fedrep-far-at-every-eps",
        text: "Even at the largest ε, Private FedRep's risk stays over 100 times non-private FedRep's.",
        scope: Scope {
            text: "n ≤ 5000 users",
            within: few_users,
        },
        check: far_at_every_epsilon,
    },
    Claim {
        id: "fedrep-close-with-many-users",
        text: "With 20000 users or more and the exact calibration, Private FedRep at the largest ε (8 or more) comes \
               within 100 times non-private FedRep's risk.",
        scope: Scope {
            text: "n ≥ 20000 users, the exact calibration, ψ ≥ 1 and a largest ε of 8 or more",
            within: many_users,
        },
        check: close_at_the_largest_epsilon,
    },
    Claim {
        id: "fedrep-angle-larger-for-smaller-eps",
        text: "With less privacy budget the noise leaves a run further from U*: Private FedRep's final angle grows as ε \
               shrinks.",
        scope: EVERY_RUN,
        check: angle_larger_for_smaller_epsilon,
    },
    Claim {
        id: "fedrep-no-user-clipped",
        text: "No user's gradient is clipped: every private run reports 0 % clipped users.",
        scope: Scope {
            text: "the paper's data and calibration (d = 50, m = 10, label noise 0.01, exact, private start) with ψ ≥ 1",
            within: paper_data_clip_at_least_one,
        },
        check: no_user_clipped,
    },
    Claim {
        id: "fedrep-nearly-every-user-clipped",
        text: "Nearly every user's gradient is clipped: at least 90 % in every private run.",
        scope: Scope {
            text: "ψ ≤ 0.01",
            within: |s| s.at_most("clip", 0.01),
        },
        check: nearly_every_user_clipped,
    },
];

fn not_authors_code(s: Settings) -> Result<(), String> {
    match s.is("calibration", "authors-code") {
        Ok(()) => Err("calibration = authors-code".into()),
        Err(_) => Ok(()),
    }
}

fn authors_code_with_altmin(s: Settings) -> Result<(), String> {
    s.is("calibration", "authors-code")?;
    s.is("altmin", "on")
}

fn few_users(s: Settings) -> Result<(), String> {
    s.at_most("n", 5000.0)
}

fn many_users(s: Settings) -> Result<(), String> {
    s.at_least("n", 20000.0)?;
    s.is("calibration", "exact")?;
    s.at_least("clip", 1.0)?;
    let largest = s.numbers("epsilons").into_iter().fold(f64::NAN, f64::max);
    if largest >= 8.0 {
        Ok(())
    } else {
        Err(format!("largest ε = {}", fmt_num(largest)))
    }
}

fn paper_data_clip_at_least_one(s: Settings) -> Result<(), String> {
    s.is("d", "50")?;
    s.is("m", "10")?;
    s.at_most("noise", 0.01)?;
    s.is("calibration", "exact")?;
    s.is("init", "private")?;
    s.at_least("clip", 1.0)
}

/// Held when some Priv-AltMin run spends more than its target (`results.csv`).
fn authors_code_overspends(view: &View) -> Check {
    let (header, rows) = crate::scenarios::claims::results(view);
    let col = |name: &str| header.iter().position(|h| h == name);
    let (Some(m), Some(e), Some(sp)) = (col("method"), col("epsilon"), col("epsilon_spent")) else {
        return Check::Undecided("results.csv has no epsilon_spent column".into());
    };
    let over: Vec<(f64, f64)> = rows
        .iter()
        .filter(|r| r.get(m).is_some_and(|x| x == Method::PrivAltmin.name()))
        .filter_map(|r| Some((r.get(e)?.parse().ok()?, r.get(sp)?.parse().ok()?)))
        .filter(|(t, s): &(f64, f64)| t.is_finite() && s.is_finite())
        .collect();
    let Some(worst) = over
        .iter()
        .copied()
        .max_by(|a, b| (a.1 / a.0).total_cmp(&(b.1 / b.0)))
    else {
        return Check::Undecided("no finished Priv-AltMin run".into());
    };
    Check::from_bool(
        worst.1 > worst.0 * (1.0 + 1e-9),
        format!(
            "Priv-AltMin spends ε = {} of its target {} at most ({} runs)",
            fmt_num(worst.1),
            fmt_num(worst.0),
            over.len()
        ),
    )
}

fn risk_falls(view: &View) -> Check {
    falls(series(view, RISK, PRIVATE), PRIVATE, "ε", 0.1)
}

/// (ε, risk) of Private FedRep's curve and non-private FedRep's level.
fn private_and_floor(view: &View) -> Result<(Vec<(f64, f64)>, f64), Check> {
    let private: Vec<(f64, f64)> = series(view, RISK, PRIVATE)
        .map(|s| crate::scenarios::claims::finite_points(s).collect())
        .unwrap_or_default();
    let floor = series(view, RISK, NON_PRIVATE).and_then(level);
    match (private.len(), floor) {
        (0, _) => Err(Check::Undecided("no finished Private FedRep run".into())),
        (_, None) => Err(Check::Undecided("no non-private FedRep reference".into())),
        (_, Some(f)) => Ok((private, f)),
    }
}

fn approaches_non_private(view: &View) -> Check {
    let (pts, floor) = match private_and_floor(view) {
        Ok(x) => x,
        Err(c) => return c,
    };
    if pts.len() < 2 {
        return Check::Undecided("one value of ε: two or more are needed".into());
    }
    let (first, last) = (pts[0], pts[pts.len() - 1]);
    let (gap_lo, gap_hi) = (first.1 - floor, last.1 - floor);
    Check::from_bool(
        gap_hi <= 0.1 * gap_lo,
        format!(
            "excess over FedRep's {}: {} at ε = {}, {} at ε = {}",
            fmt_num(floor),
            fmt_num(gap_lo),
            fmt_num(first.0),
            fmt_num(gap_hi),
            fmt_num(last.0)
        ),
    )
}

fn far_at_every_epsilon(view: &View) -> Check {
    let (pts, floor) = match private_and_floor(view) {
        Ok(x) => x,
        Err(c) => return c,
    };
    let last = pts[pts.len() - 1];
    let ratio = last.1 / floor;
    Check::from_bool(
        ratio > 100.0,
        format!(
            "at ε = {}: {} against FedRep's {} ({}×)",
            fmt_num(last.0),
            fmt_num(last.1),
            fmt_num(floor),
            fmt_num(ratio)
        ),
    )
}

fn close_at_the_largest_epsilon(view: &View) -> Check {
    match far_at_every_epsilon(view) {
        Check::Held(n) => Check::NotHeld(n),
        Check::NotHeld(n) => Check::Held(n),
        undecided => undecided,
    }
}

fn angle_larger_for_smaller_epsilon(view: &View) -> Check {
    let mut finals: Vec<(f64, f64)> = all_series(view, ANGLE, PRIVATE)
        .iter()
        .filter_map(|s| {
            let e = epsilon_in_name(&s.name)?;
            let last = crate::scenarios::claims::finite_points(s).last()?;
            Some((e, last.1))
        })
        .collect();
    finals.sort_by(|a, b| a.0.total_cmp(&b.0));
    if finals.len() < 2 {
        return Check::Undecided("one value of ε: two or more are needed".into());
    }
    let held = finals.windows(2).all(|w| w[1].1 <= w[0].1);
    Check::from_bool(
        held,
        format!(
            "final angle by ε: {}",
            listed(&finals, |(e, a)| format!(
                "{} at ε = {}",
                fmt_num(*a),
                fmt_num(*e)
            ))
        ),
    )
}

/// The clipped fractions of the private runs (the risk table's column).
fn clipped_fractions(view: &View) -> Vec<(String, f64)> {
    column(view, 0, CLIPPED_HEADER)
        .into_iter()
        .filter(|(label, _)| label.starts_with(PRIVATE))
        .filter_map(|(label, c)| Some((label.to_string(), cell_number(c)?)))
        .collect()
}

/// The risk table's header of the clipped fraction (`charts::risk_table`).
pub const CLIPPED_HEADER: &str = "clipped users (not private)";

fn clipped_range(f: &[(String, f64)]) -> (f64, f64) {
    let lo = f.iter().map(|x| x.1).fold(f64::INFINITY, f64::min);
    let hi = f.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
    (lo, hi)
}

fn no_user_clipped(view: &View) -> Check {
    clipped_users(view, |_, hi| hi == 0.0)
}

fn nearly_every_user_clipped(view: &View) -> Check {
    clipped_users(view, |lo, _| lo >= 0.9)
}

/// Held when `held(lo, hi)` for the range of clipped fractions over the private runs.
fn clipped_users(view: &View, held: impl Fn(f64, f64) -> bool) -> Check {
    let f = clipped_fractions(view);
    if f.is_empty() {
        return Check::Undecided("no finished Private FedRep run".into());
    }
    let (lo, hi) = clipped_range(&f);
    Check::from_bool(
        held(lo, hi),
        format!(
            "clipped users: {:.1}–{:.1} % over {} private runs",
            100.0 * lo,
            100.0 * hi,
            f.len()
        ),
    )
}
