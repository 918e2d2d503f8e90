//! What Private FedRep's captions and lesson say the charts show, each with
//! the predicate that decides it on a finished run (see
//! [`crate::scenarios::claims`]). Chart 0 is risk versus ε, chart 1 the
//! principal angle by round; table 0 is the risk table.

use crate::privacy::report::fmt_num;
use crate::scenarios::claims::{
    all_series, cell_number, column, epsilon_in_name, falls, level, series, spent_within_target,
    Check, Claim,
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
        check: spent_within_target,
    },
    Claim {
        id: "fedrep-risk-falls-with-eps",
        text: "Private FedRep's risk falls as ε grows.",
        check: risk_falls,
    },
    Claim {
        id: "fedrep-approaches-non-private",
        text: "As ε grows, Private FedRep approaches non-private FedRep: its excess over FedRep's risk at the largest ε \
               is at most half of that at the smallest.",
        check: approaches_non_private,
    },
    Claim {
        id: "fedrep-far-at-every-eps",
        text: "Even at the largest ε, Private FedRep's risk stays over 100 times non-private FedRep's.",
        check: far_at_every_epsilon,
    },
    Claim {
        id: "fedrep-angle-larger-for-smaller-eps",
        text: "With less privacy budget the noise leaves a run further from U*: Private FedRep's final angle grows as ε \
               shrinks.",
        check: angle_larger_for_smaller_epsilon,
    },
    Claim {
        id: "fedrep-no-user-clipped",
        text: "No user's gradient is clipped: every private run reports 0 % clipped users.",
        check: no_user_clipped,
    },
    Claim {
        id: "fedrep-nearly-every-user-clipped",
        text: "Nearly every user's gradient is clipped: at least 90 % in every private run.",
        check: nearly_every_user_clipped,
    },
];

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
        gap_hi <= 0.5 * gap_lo,
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
            finals
                .iter()
                .map(|(e, a)| format!("{} at ε = {}", fmt_num(*a), fmt_num(*e)))
                .collect::<Vec<_>>()
                .join(", ")
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
