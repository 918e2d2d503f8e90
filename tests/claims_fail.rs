//! No vacuous claim (`src/scenarios/claims.rs`): every claim of every scenario
//! holds on a real finished run, and fails on that run's view edited to
//! contradict the claim's sentence. Each contradiction changes the data the
//! sentence is about (a curve, a table cell, a `results.csv` cell) the way a
//! run that disproves it would, not a quirk of today's predicate, so that it
//! keeps failing when the predicates are made stronger.
//!
//! A claim added without a held run in [`RUNS`] and a contradiction in
//! [`contradiction`] fails `every_claim_has_a_held_run_and_a_contradiction`.

mod common;

use dp_explorer::plot::{ChartSpec, Series};
use dp_explorer::scenarios::claims::{Check, Claim};
use dp_explorer::scenarios::csv_out::{records, CsvFile};
use dp_explorer::scenarios::table::{cell, chart_table};
use dp_explorer::scenarios::{self, Shard, Table, View, SCENARIOS};

// ---------- the real runs on which the claims hold ----------

/// A real sweep (a preset and settings on top) and the claims that hold on it.
struct HeldRun {
    preset: &'static str,
    settings: &'static [(&'static str, &'static str)],
    claims: &'static [&'static str],
}

/// The runs, each small: the settings of the lesson step that states the
/// claims (made smaller where they still hold), or the preset of the caption
/// that does.
const RUNS: &[HeldRun] = &[
    // Lesson "More users make privacy cheaper"; the risk and angle captions.
    HeldRun {
        preset: "fedrep-paper",
        settings: &[("n", "4000"), ("altmin", "off")],
        claims: &[
            "fedrep-spent-within-target",
            "fedrep-risk-falls-with-eps",
            "fedrep-approaches-non-private",
            "fedrep-far-at-every-eps",
            "fedrep-angle-larger-for-smaller-eps",
        ],
    },
    // Lesson "Back to 20000 users".
    HeldRun {
        preset: "fedrep-paper",
        settings: &[("n", "20000"), ("altmin", "off")],
        claims: &["fedrep-close-with-many-users"],
    },
    // The risk caption on the authors' calibration (what it spends does not
    // depend on the data's size).
    HeldRun {
        preset: "fedrep-authors-code",
        settings: &[("n", "2000")],
        claims: &["fedrep-authors-code-overspends"],
    },
    // Lesson "What clipping does".
    HeldRun {
        preset: "fedrep-paper",
        settings: &[("clip", "1"), ("altmin", "off")],
        claims: &["fedrep-no-user-clipped"],
    },
    // Lesson "Clipping too hard".
    HeldRun {
        preset: "fedrep-paper",
        settings: &[("clip", "0.01"), ("altmin", "off")],
        claims: &["fedrep-nearly-every-user-clipped"],
    },
    // Lesson "Privacy per training sample"; the loss-versus-ε caption.
    HeldRun {
        preset: "dpgd-quick",
        settings: &[],
        claims: &[
            "dpgd-spent-within-target",
            "dpgd-loss-falls-with-eps",
            "dpgd-below-predict-0",
        ],
    },
    // Lessons "Wider models" and "How long to train".
    HeldRun {
        preset: "dpgd-browser",
        settings: &[],
        claims: &[
            "dpgd-double-descent",
            "dpgd-no-worse-past-n",
            "dpgd-best-t-inside",
            "dpgd-rescaled-minima-line-up",
        ],
    },
    // Lesson "A pure ε mechanism" (its test settings).
    HeldRun {
        preset: "jl-exact",
        settings: &[("n", "150"), ("test_points", "40")],
        claims: &["jl-pure-epsilon"],
    },
    // Lessons "Error flat in d" and "The price of privacy" (their test size).
    HeldRun {
        preset: "jl-random",
        settings: &[
            ("n", "100"),
            ("candidate_grid", "none"),
            ("test_points", "40"),
        ],
        claims: &[
            "jl-error-falls-with-eps",
            "jl-near-best-candidate",
            "jl-flat-in-d",
        ],
    },
    // The candidates chart's caption, on its preset (the lessons' test size
    // turns the chart off; at n = 100 the curve is not flat).
    HeldRun {
        preset: "jl-random",
        settings: &[("d_grid", "none")],
        claims: &["jl-candidates-flat"],
    },
    // Lesson "A margin that shrinks with d" (its test size).
    HeldRun {
        preset: "jl-random",
        settings: &[
            ("inputs", "ball"),
            ("n", "100"),
            ("candidate_grid", "none"),
            ("test_points", "40"),
        ],
        claims: &["jl-ball-climbs-to-chance"],
    },
    // Lessons "Too small a representation" and "FLUTE against the FedRep the
    // paper ran"; the balancedness caption.
    HeldRun {
        preset: "flute-c1",
        settings: &[("seeds", "3")],
        claims: &[
            "flute-all-end-at-erm-floor",
            "flute-before-gradient-fedrep-ri",
            "flute-gradient-fedrep-moments-as-quick",
            "flute-altmin-quickest",
            "flute-stays-balanced",
            "flute-summed-fedrep-ri-as-quick",
        ],
    },
    // Lesson "One component at a time".
    HeldRun {
        preset: "flute-c1",
        settings: &[("k", "4")],
        claims: &["flute-one-component-at-a-time"],
    },
    // Lesson "When r = k, everyone agrees".
    HeldRun {
        preset: "flute-overparam",
        settings: &[],
        claims: &["flute-overparam-same-subspace"],
    },
    // Lesson "Privacy (this project's extension)", with its test settings.
    HeldRun {
        preset: "flute-private",
        settings: &[("rounds", "150"), ("seeds", "1"), ("epsilons", "0.5,4")],
        claims: &[
            "flute-private-error-moves-little",
            "flute-private-angle-falls",
            "flute-private-fedrep-farther",
        ],
    },
    // Lesson "Private low-rank regression"; the n and trajectory captions.
    HeldRun {
        preset: "trace-paper",
        settings: &[],
        claims: &[
            "trace-error-falls-with-eps",
            "trace-rgrad-improves-start",
            "trace-error-falls-with-n",
            "trace-iterates-contract",
        ],
    },
    // Lesson "An ε that needs an oracle", at one n and one repeat (what a run
    // spends does not depend on the data).
    HeldRun {
        preset: "trace-paper",
        settings: &[
            ("variant", "clipped"),
            ("data", "direct"),
            ("n", "10000"),
            ("repeats", "1"),
            ("epsilons", "1,5"),
        ],
        claims: &["trace-run-within-2eps"],
    },
    // Lesson "More iterations are not free".
    HeldRun {
        preset: "trace-lstar",
        settings: &[],
        claims: &["trace-lstar-inside"],
    },
    // Lesson "Weak DP closes the gap".
    HeldRun {
        preset: "trace-weak",
        settings: &[],
        claims: &["trace-weak-below-strong"],
    },
];

// ---------- the contradictions ----------

/// The edit of a held run's view that contradicts claim `id`'s sentence.
fn contradiction(id: &str) -> Option<fn(&mut View)> {
    let edit: Edit = match id {
        // ---- fedrep: chart 0 risk versus ε, chart 1 angle by round, table 0 the risk table.
        // A private run spends more than its target ε.
        "fedrep-spent-within-target" => |v| overspend(v, |_| true, 1.5),
        // Every Priv-AltMin run spends exactly its target: none over it.
        "fedrep-authors-code-overspends" => |v| {
            let mut csv = Results::of(v);
            for r in 0..csv.rows.len() {
                if csv.get(r, "method") == "priv-altmin" && csv.num(r, "epsilon").is_finite() {
                    let target = csv.num(r, "epsilon");
                    csv.set(r, "epsilon_spent", target);
                }
            }
            csv.store(v);
        },
        // At the largest ε Private FedRep stays 1000 times FedRep's risk.
        "fedrep-close-with-many-users" => |v| {
            let floor = level(v, 0, "FedRep (non-private)");
            set_last(curve(v, 0, "Private FedRep"), 1000.0 * floor);
            fedrep_tables(v);
        },
        // Private FedRep's risk rises as ε grows.
        "fedrep-risk-falls-with-eps" => |v| {
            reverse(curve(v, 0, "Private FedRep"));
            fedrep_tables(v);
        },
        // Private FedRep's risk stays where it is at the smallest ε: no approach.
        "fedrep-approaches-non-private" => |v| {
            let s = curve(v, 0, "Private FedRep");
            let first = s.points[0].1;
            map_y(s, |_, _| first);
            fedrep_tables(v);
        },
        // At the largest ε Private FedRep comes within 2× of FedRep's risk.
        "fedrep-far-at-every-eps" => |v| {
            let floor = level(v, 0, "FedRep (non-private)");
            set_last(curve(v, 0, "Private FedRep"), 2.0 * floor);
            fedrep_tables(v);
        },
        // The smallest ε ends nearest U*, the largest farthest (their curves swapped).
        "fedrep-angle-larger-for-smaller-eps" => |v| {
            let eps = by_epsilon(v, 1, "Private FedRep ε = ");
            swap_y(v, 1, &eps[0], &eps[eps.len() - 1]);
            fedrep_tables(v);
        },
        // One private run reports 3 % of its users clipped.
        "fedrep-no-user-clipped" => |v| clip_one_private_run(v, "3.0%", "0.03"),
        // One private run reports only half of its users clipped.
        "fedrep-nearly-every-user-clipped" => |v| clip_one_private_run(v, "50.0%", "0.5"),

        // ---- dpgd: chart 0 loss versus ε, 1 versus width, 2 versus T, 3 versus ηTp/d.
        // A DP-GD run spends more than its target ε.
        "dpgd-spent-within-target" => |v| overspend(v, |_| true, 1.5),
        // At one width the loss rises as ε grows.
        "dpgd-loss-falls-with-eps" => |v| {
            // The widest width shown (past n/2, where the sentence speaks).
            let widest = v.charts[0]
                .series
                .iter_mut()
                .rfind(|s| s.name.starts_with("DP-GD, p = "))
                .expect("a DP-GD curve");
            reverse(widest);
        },
        // At the largest ε one width ends 1.5× above “predict 0”.
        "dpgd-below-predict-0" => |v| {
            let zero = level(v, 0, "predict 0");
            set_last(curve(v, 0, "DP-GD, p = "), 1.5 * zero);
        },
        // θ*'s loss only rises with p: its peak is at the widest width.
        "dpgd-double-descent" => |v| sort_y(curve(v, 1, "θ* = Φ⁺Y"), false),
        // Past θ*'s peak one ε's loss triples by the widest width.
        "dpgd-no-worse-past-n" => |v| {
            let theta = curve(v, 1, "θ* = Φ⁺Y");
            let peak = theta.points[argmax(theta)].0;
            let s = curve(v, 1, "DP-GD, ε = ");
            let at_peak = y_at(s, peak);
            set_last(s, 3.0 * at_peak);
        },
        // For one traced width the loss falls all the way to the largest T.
        "dpgd-best-t-inside" => |v| {
            for chart in [2, 3] {
                sort_y(curve(v, chart, "p = "), true);
            }
        },
        // The first traced width is best at its shortest time, the last at its
        // longest (at least 10× apart).
        "dpgd-rescaled-minima-line-up" => |v| {
            let widths: Vec<String> = v.charts[3]
                .series
                .iter()
                .filter(|s| s.name.starts_with("p = "))
                .map(|s| s.name.clone())
                .collect();
            let (first, last) = (&widths[0], &widths[widths.len() - 1]);
            for chart in [2, 3] {
                best_at(curve(v, chart, first), 0);
                let s = curve(v, chart, last);
                best_at(s, s.points.len() - 1);
            }
            let lo = curve(v, 3, first).points[0].0;
            let hi = curve(v, 3, last).points.last().unwrap().0;
            assert!(hi >= 10.0 * lo, "the rescaled times span only {lo}…{hi}");
        },

        // ---- classifier: chart 0 error versus ε, 1 versus d, 2 versus candidates.
        // A run of the mechanism spends more than its target ε.
        "jl-pure-epsilon" => |v| overspend(v, |_| true, 1.5),
        // The private error rises as ε grows.
        "jl-error-falls-with-eps" => |v| reverse(curve(v, 0, "JL + exponential mechanism")),
        // At the largest ε the private error is 0.15 above the best candidate's.
        "jl-near-best-candidate" => |v| {
            let best = level(v, 0, "best candidate");
            set_last(curve(v, 0, "JL + exponential mechanism"), best + 0.15);
        },
        // At the largest ε the error doubles at the largest d.
        "jl-flat-in-d" => |v| {
            let eps = by_epsilon(v, 1, "ε = ");
            let s = curve(v, 1, &eps[eps.len() - 1]);
            let top = max_y(s);
            set_last(s, 2.0 * top);
        },
        // The error doubles at the most candidates.
        "jl-candidates-flat" => |v| {
            let s = curve(v, 2, "JL + EM");
            let top = max_y(s);
            set_last(s, 2.0 * top);
        },
        // The best candidate's error falls as d grows, away from chance.
        "jl-ball-climbs-to-chance" => |v| reverse(curve(v, 1, "best candidate")),

        // ---- flute: chart 0 error by round, 1 singular values, 2 distance to
        // U_k by round, 3 balancedness, 4 final error versus ε, 5 final distance versus ε.
        // Gradient FedRep(RI) stops at 1.5× the ERM floor.
        "flute-all-end-at-erm-floor" => |v| {
            let floor = level(v, 0, "finite-N ERM floor");
            map_y(curve(v, 0, GD_RI), |_, y| y.max(1.5 * floor));
        },
        // Gradient FedRep(RI) reaches the floor in the same rounds as FLUTE.
        "flute-before-gradient-fedrep-ri" => |v| copy_delayed(v, 0, FLUTE, GD_RI, 0),
        // The summing FedRep(RI) reaches the floor 20 rounds after FLUTE.
        "flute-summed-fedrep-ri-as-quick" => |v| copy_delayed(v, 0, FLUTE, SUMMED_RI, 20),
        // Gradient FedRep reaches the floor 10 rounds after FLUTE.
        "flute-gradient-fedrep-moments-as-quick" => |v| copy_delayed(v, 0, FLUTE, GD, 10),
        // Alternating-minimization FedRep(RI) reaches the floor 10 rounds after FLUTE.
        "flute-altmin-quickest" => |v| copy_delayed(v, 0, FLUTE, ALTMIN_RI, 10),
        // FLUTE learns σ2 first: σ1's and σ2's curves swap shapes.
        "flute-one-component-at-a-time" => |v| {
            let (phi1, phi2) = (level(v, 1, "σ1(Φ)"), level(v, 1, "σ2(Φ)"));
            let one = curve(v, 1, "σ1(BW)").points.clone();
            let two = curve(v, 1, "σ2(BW)").points.clone();
            curve(v, 1, "σ1(BW)").points = scaled(&two, phi1 / phi2);
            curve(v, 1, "σ2(BW)").points = scaled(&one, phi2 / phi1);
        },
        // FLUTE never comes nearer U_k than 0.05.
        "flute-overparam-same-subspace" => |v| map_y(curve(v, 2, FLUTE), |_, y| y.max(0.05)),
        // FLUTE ends half as unbalanced as gradient FedRep.
        "flute-stays-balanced" => |v| {
            let gd = last_y(curve(v, 3, GD)).min(last_y(curve(v, 3, GD_RI)));
            map_y(curve(v, 3, FLUTE), |_, y| y.max(0.5 * gd));
        },
        // At the smallest ε DP-FLUTE's error is 1.5× FLUTE's.
        "flute-private-error-moves-little" => |v| {
            let flute = level(v, 4, "FLUTE, non-private");
            set_at(curve(v, 4, "DP-FLUTE"), 0, 1.5 * flute);
        },
        // DP-FLUTE's distance to U_k rises as ε grows.
        "flute-private-angle-falls" => |v| reverse(curve(v, 5, "DP-FLUTE")),
        // Private FedRep ends nearer U_k than DP-FLUTE at every ε (swapped).
        "flute-private-fedrep-farther" => |v| swap_y(v, 5, "DP-FLUTE", "Private FedRep"),

        // ---- trace: chart 0 error versus ε, 1 versus n, 2 iterates, 3 l*.
        // DP-RGrad's error rises as ε grows.
        "trace-error-falls-with-eps" => |v| reverse(curve(v, 0, "DP-RGrad (Alg. 2)")),
        // At the largest ε DP-RGrad ends 1.2× above its private start.
        "trace-rgrad-improves-start" => |v| {
            let start = last_y(curve(v, 0, "DP initialization (Alg. 1)"));
            set_last(curve(v, 0, "DP-RGrad (Alg. 2)"), 1.2 * start);
        },
        // At one ε DP-RGrad's error rises as n grows.
        "trace-error-falls-with-n" => |v| reverse(curve(v, 1, "DP-RGrad, ε = ")),
        // At one ε the iterates stay at the first one's error.
        "trace-iterates-contract" => |v| {
            let s = curve(v, 2, "DP-RGrad, ε = ");
            let first = s.points[0].1;
            map_y(s, |_, _| first);
        },
        // The error falls all the way to the largest l* tried.
        "trace-lstar-inside" => |v| sort_y(curve(v, 3, "DP-RGrad"), true),
        // A DP-RGrad run spends 2.5ε.
        "trace-run-within-2eps" => {
            |v| overspend(v, |r| matches!(r, "dp-rgrad" | "dp-rgrad-lstar"), 2.5)
        }
        // Weak DP ends above strong DP at every ε (swapped).
        "trace-weak-below-strong" => {
            |v| swap_y(v, 0, "DP-RGrad (Alg. 2), weak DP", "DP-RGrad (Alg. 2) (")
        }
        _ => return None,
    };
    Some(edit)
}

/// An edit of a view.
type Edit = fn(&mut View);

/// Contradictions of a claim's second clause, checked like the first.
const SECOND_CLAUSES: &[(&str, Edit)] = &[
    // The clipped variant's start spends less than ε.
    ("trace-run-within-2eps", |v| {
        let mut csv = Results::of(v);
        let row = csv
            .find(|c, r| c.get(r, "method") == "dp-init" && c.get(r, "variant") == "clipped")
            .expect("a clipped start in results.csv");
        let eps = csv.num(row, "epsilon");
        csv.set(row, "epsilon_spent", 0.9 * eps);
        csv.store(v);
    }),
    // The ERM floor lies below the rank-k truncation's error.
    ("flute-all-end-at-erm-floor", |v| {
        let floor = level(v, 0, "finite-N ERM floor");
        map_y(curve(v, 0, "rank-k truncation"), |_, _| 1.1 * floor);
    }),
];

// Legends of FLUTE's methods (the charts' `METHODS`), as long as needed to tell them apart.
const FLUTE: &str = "FLUTE (Algorithm 1)";
const GD: &str = "FedRep, gradient steps";
const GD_RI: &str = "FedRep(RI), gradient steps";
const SUMMED_RI: &str = "FedRep(RI), gradient steps summed";
const ALTMIN_RI: &str = "FedRep(RI), alternating minimization";

// ---------- editing a view ----------

/// The first series of chart `chart` whose name starts with `prefix` and has points.
fn curve<'a>(v: &'a mut View, chart: usize, prefix: &str) -> &'a mut Series {
    let c = &mut v.charts[chart];
    let names: Vec<String> = c.series.iter().map(|s| s.name.clone()).collect();
    let title = c.title.clone();
    c.series
        .iter_mut()
        .find(|s| s.name.starts_with(prefix) && s.points.iter().any(|p| p.1.is_finite()))
        .unwrap_or_else(|| panic!("chart “{title}” has no curve “{prefix}…”: {names:?}"))
}

/// The level (first finite y) of chart `chart`'s series named `prefix…`.
fn level(v: &mut View, chart: usize, prefix: &str) -> f64 {
    let s = curve(v, chart, prefix);
    s.points
        .iter()
        .map(|p| p.1)
        .find(|y| y.is_finite())
        .unwrap()
}

/// The names of chart `chart`'s series named `prefix<ε>…`, by ascending ε
/// (at least two).
fn by_epsilon(v: &View, chart: usize, prefix: &str) -> Vec<String> {
    let mut named: Vec<(f64, String)> = v.charts[chart]
        .series
        .iter()
        .filter_map(|s| {
            let rest = s.name.strip_prefix(prefix)?;
            let end = rest
                .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .unwrap_or(rest.len());
            Some((rest[..end].parse().ok()?, s.name.clone()))
        })
        .collect();
    named.sort_by(|a, b| a.0.total_cmp(&b.0));
    assert!(
        named.len() >= 2,
        "chart {chart}: fewer than two “{prefix}” curves"
    );
    named.into_iter().map(|n| n.1).collect()
}

/// Sets each y to `f(x, y)`, moving the series' band along with its line.
fn map_y(s: &mut Series, f: impl Fn(f64, f64) -> f64) {
    for p in &mut s.points {
        let y = f(p.0, p.1);
        if let Some(b) = s.band.iter_mut().find(|b| b.0 == p.0) {
            b.1 += y - p.1;
            b.2 += y - p.1;
        }
        p.1 = y;
    }
}

/// Gives the curve the y-values `ys`, in x order.
fn set_ys(s: &mut Series, ys: &[f64]) {
    assert_eq!(ys.len(), s.points.len());
    let old: Vec<f64> = s.points.iter().map(|p| p.1).collect();
    let xs: Vec<f64> = s.points.iter().map(|p| p.0).collect();
    map_y(s, |x, _| ys[xs.iter().position(|&a| a == x).unwrap()]);
    assert_ne!(old, ys, "{}: the edit changes nothing", s.name);
}

fn ys(s: &Series) -> Vec<f64> {
    s.points.iter().map(|p| p.1).collect()
}

/// The same x's, the y-values in reverse order: a falling curve rises.
fn reverse(s: &mut Series) {
    let mut y = ys(s);
    y.reverse();
    set_ys(s, &y);
}

/// The y-values sorted, descending (the curve falls all the way) or ascending.
fn sort_y(s: &mut Series, descending: bool) {
    let mut y = ys(s);
    y.sort_by(f64::total_cmp);
    if descending {
        y.reverse();
    }
    set_ys(s, &y);
}

/// Sets the y of point `i`.
fn set_at(s: &mut Series, i: usize, y: f64) {
    let mut all = ys(s);
    all[i] = y;
    set_ys(s, &all);
}

fn set_last(s: &mut Series, y: f64) {
    set_at(s, s.points.len() - 1, y);
}

fn last_y(s: &Series) -> f64 {
    s.points.last().unwrap().1
}

fn max_y(s: &Series) -> f64 {
    ys(s).into_iter().fold(f64::NEG_INFINITY, f64::max)
}

fn argmax(s: &Series) -> usize {
    (0..s.points.len())
        .max_by(|&a, &b| s.points[a].1.total_cmp(&s.points[b].1))
        .unwrap()
}

/// The curve's y at x (a point it has).
fn y_at(s: &Series, x: f64) -> f64 {
    s.points.iter().find(|p| p.0 == x).expect("a point at x").1
}

/// Makes point `i` the curve's best (lowest): half the lowest value.
fn best_at(s: &mut Series, i: usize) {
    let mut all = ys(s);
    let low = all.iter().copied().fold(f64::INFINITY, f64::min);
    all[i] = 0.5 * low;
    set_ys(s, &all);
}

fn scaled(points: &[(f64, f64)], by: f64) -> Vec<(f64, f64)> {
    points.iter().map(|&(x, y)| (x, by * y)).collect()
}

/// Swaps the y-values of two curves of a chart on the same x's.
fn swap_y(v: &mut View, chart: usize, a: &str, b: &str) {
    let ya = ys(curve(v, chart, a));
    let yb = ys(curve(v, chart, b));
    set_ys(curve(v, chart, a), &yb);
    set_ys(curve(v, chart, b), &ya);
}

/// Curve `to` becomes curve `from` delayed by `rounds` points (the first
/// value held meanwhile), on `to`'s x's.
fn copy_delayed(v: &mut View, chart: usize, from: &str, to: &str, rounds: usize) {
    let src = ys(curve(v, chart, from));
    let dst = curve(v, chart, to);
    assert_eq!(
        src.len(),
        dst.points.len(),
        "{from} and {to} on other rounds"
    );
    let y: Vec<f64> = (0..src.len())
        .map(|i| src[i.saturating_sub(rounds)])
        .collect();
    set_ys(dst, &y);
}

/// `results.csv` (the view's first file), as text fields.
struct Results {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Results {
    fn of(v: &View) -> Self {
        assert_eq!(v.files[0].name, "results.csv");
        let mut records = records(&v.files[0].text).into_iter();
        Results {
            header: records.next().expect("a header"),
            rows: records.collect(),
        }
    }

    fn col(&self, name: &str) -> usize {
        self.header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("results.csv has no column {name}: {:?}", self.header))
    }

    fn get(&self, row: usize, name: &str) -> &str {
        &self.rows[row][self.col(name)]
    }

    fn num(&self, row: usize, name: &str) -> f64 {
        self.get(row, name).parse().unwrap_or(f64::NAN)
    }

    fn set(&mut self, row: usize, name: &str, x: f64) {
        let c = self.col(name);
        self.rows[row][c] = format!("{x}");
    }

    /// The first row for which `pick(self, row)` holds.
    fn find(&self, pick: impl Fn(&Self, usize) -> bool) -> Option<usize> {
        (0..self.rows.len()).find(|&r| pick(self, r))
    }

    fn store(self, v: &mut View) {
        let mut out = CsvFile::new(self.header.iter().map(String::as_str));
        for r in &self.rows {
            out.row(r);
        }
        v.files[0].text = out.finish();
    }
}

/// The first private run (a finite target and spent ε) whose method passes
/// `method` spends `factor` times its target.
fn overspend(v: &mut View, method: fn(&str) -> bool, factor: f64) {
    let mut csv = Results::of(v);
    let row = csv
        .find(|c, r| {
            method(c.get(r, "method"))
                && c.num(r, "epsilon").is_finite()
                && c.num(r, "epsilon_spent").is_finite()
        })
        .expect("a private run in results.csv");
    let target = csv.num(row, "epsilon");
    csv.set(row, "epsilon_spent", factor * target);
    csv.store(v);
}

/// Sets the cell under `header` of the first row of `t` that `pick` accepts;
/// returns that row.
fn set_cell(t: &mut Table, pick: impl Fn(&[String]) -> bool, header: &str, text: &str) -> usize {
    let col = t
        .headers
        .iter()
        .position(|h| h == header)
        .unwrap_or_else(|| panic!("no column {header}: {:?}", t.headers));
    let row = t.rows.iter().position(|r| pick(r)).expect("a row");
    t.rows[row][col] = text.to_string();
    row
}

/// Private FedRep's first run reports `cell` of its users clipped, in the
/// risk table and in `results.csv` (`fraction`).
fn clip_one_private_run(v: &mut View, cell: &str, fraction: &str) {
    let t = &mut v.tables[0];
    let row = set_cell(
        t,
        |r| r[0].starts_with("Private FedRep"),
        "clipped users (not private)",
        cell,
    );
    let col = t.headers.iter().position(|h| h == "target ε").unwrap();
    let eps: f64 = t.rows[row][col].parse().unwrap();
    let mut csv = Results::of(v);
    let r = csv
        .find(|c, r| c.get(r, "method") == "private-fedrep" && c.num(r, "epsilon") == eps)
        .expect("the run's row in results.csv");
    csv.set(r, "clipped_fraction", fraction.parse().unwrap());
    csv.store(v);
}

/// After an edit of Private FedRep's curves, its tables show the edited
/// numbers too: the risk table's excess risk at each ε (chart 0), the angle
/// table's rows (chart 1).
fn fedrep_tables(v: &mut View) {
    let risk = curve(v, 0, "Private FedRep").points.clone();
    let t = &mut v.tables[0];
    let col = |t: &Table, h: &str| t.headers.iter().position(|x| x == h).unwrap();
    let (eps_col, risk_col) = (col(t, "target ε"), col(t, "excess risk"));
    let mut updated = 0;
    for row in t.rows.iter_mut().filter(|r| r[0] == "Private FedRep") {
        if let Some(p) = risk.iter().find(|p| cell(p.0) == row[eps_col]) {
            row[risk_col] = cell(p.1);
            updated += 1;
        }
    }
    assert_eq!(
        updated,
        risk.len(),
        "the risk table's rows are not the curve's ε"
    );
    for name in by_epsilon(v, 1, "Private FedRep ε = ") {
        let points = curve(v, 1, &name).points.clone();
        let label = name.replace("FedRep ε", "FedRep, ε");
        let t = &mut v.tables[1];
        let cols: Vec<usize> = points
            .iter()
            .map(|p| col(t, &format!("t = {}", p.0)))
            .collect();
        let row = t
            .rows
            .iter_mut()
            .find(|r| r[0] == label)
            .unwrap_or_else(|| panic!("no angle-table row {label}"));
        for (c, p) in cols.into_iter().zip(points) {
            row[c] = cell(p.1);
        }
    }
}

/// After an edit of the charts, the tables that show a chart's numbers
/// (`chart_table`) show the edited numbers too.
fn retabulate(before: &View, after: &mut View) {
    for (i, chart) in before.charts.iter().enumerate() {
        if before.tables.get(i) == Some(&chart_table(chart)) {
            after.tables[i] = chart_table(&after.charts[i]);
        }
    }
}

// ---------- the tests ----------

fn claims() -> Vec<(&'static str, &'static Claim)> {
    SCENARIOS
        .iter()
        .flat_map(|s| s.info().claims.iter().map(move |c| (s.info().id, c)))
        .collect()
}

fn held_run(id: &str) -> Option<usize> {
    RUNS.iter().position(|r| r.claims.contains(&id))
}

#[test]
fn every_claim_has_a_held_run_and_a_contradiction() {
    let all = claims();
    for (scenario, c) in &all {
        let run = held_run(c.id)
            .unwrap_or_else(|| panic!("{scenario}: claim {} has no held run in RUNS", c.id));
        let (s, _) = scenarios::by_preset(RUNS[run].preset).unwrap();
        assert_eq!(
            s.info().id,
            *scenario,
            "{}: its run is another scenario's",
            c.id
        );
        assert_eq!(
            RUNS.iter().filter(|r| r.claims.contains(&c.id)).count(),
            1,
            "{}: more than one run",
            c.id
        );
        assert!(
            contradiction(c.id).is_some(),
            "{scenario}: claim {} (“{}”) has no contradiction: write one in `contradiction`",
            c.id,
            c.text
        );
    }
    // No stale names: every id named here is a claim.
    let named = RUNS
        .iter()
        .flat_map(|r| r.claims.iter().copied())
        .chain(SECOND_CLAUSES.iter().map(|c| c.0));
    for id in named {
        assert!(all.iter().any(|c| c.1.id == id), "{id} is not a claim");
    }
}

/// Runs `RUNS[i]` for each `i` of `which`, two at a time: the finished views.
fn run_all(which: &[usize]) -> Vec<(usize, View)> {
    common::on_two_threads(which, |&i| {
        let r = &RUNS[i];
        let (_, mut run) = scenarios::start(r.preset, r.settings, Shard::WHOLE)
            .unwrap_or_else(|e| panic!("{} {:?}: {e:?}", r.preset, r.settings));
        scenarios::run_to_end(run.as_mut()).unwrap();
        vec![(i, run.view())]
    })
}

fn verdict(c: &Check) -> &'static str {
    match c {
        Check::Held(_) => "held",
        Check::NotHeld(_) => "not held",
        Check::Undecided(_) => "undecided",
    }
}

/// Claim `c` on its held run's view `view`, then on `view` edited by each of
/// `edits`: the failures, as text.
fn check_claim(c: &Claim, view: &View, edits: &[fn(&mut View)]) -> Vec<String> {
    let r = held_run(c.id).unwrap();
    let on = format!("{} {:?}", RUNS[r].preset, RUNS[r].settings);
    let held = (c.check)(view);
    if !matches!(held, Check::Held(_)) {
        return vec![format!("{}: {} on {on}: {held:?}", c.id, verdict(&held))];
    }
    let mut failures = Vec::new();
    for (k, edit) in edits.iter().enumerate() {
        let mut contra = view.clone();
        edit(&mut contra);
        retabulate(view, &mut contra);
        assert_ne!(&contra, view, "{}: contradiction {k} changes nothing", c.id);
        let got = (c.check)(&contra);
        // With --nocapture: what decided each verdict, to read.
        eprintln!("{}: {held:?}\n  contradiction {k}: {got:?}", c.id);
        if !matches!(got, Check::NotHeld(_)) {
            failures.push(format!(
                "{}: {} on its contradiction {k} (“{}”; run {on}): {got:?}",
                c.id,
                verdict(&got),
                c.text
            ));
        }
    }
    failures
}

fn edits(id: &str) -> Vec<fn(&mut View)> {
    contradiction(id)
        .into_iter()
        .chain(SECOND_CLAUSES.iter().filter(|c| c.0 == id).map(|c| c.1))
        .collect()
}

/// Every claim (but the vacuous ones) holds on its run and fails on each of
/// its contradictions.
#[test]
fn every_claim_fails_on_a_view_that_contradicts_it() {
    let all = claims();
    let checked: Vec<&(&str, &Claim)> = all.iter().filter(|c| held_run(c.1.id).is_some()).collect();
    let mut which: Vec<usize> = checked.iter().filter_map(|c| held_run(c.1.id)).collect();
    which.sort();
    which.dedup();
    // The longest run first, so that two threads finish together.
    which.sort_by_key(|&i| RUNS[i].preset != "flute-private");
    let views = run_all(&which);
    let mut failures = Vec::new();
    for (_, c) in &checked {
        let run = held_run(c.id).unwrap();
        let view = &views.iter().find(|v| v.0 == run).unwrap().1;
        failures.extend(check_claim(c, view, &edits(c.id)));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked.len() >= 30, "only {} claims checked", checked.len());
}

#[test]
fn a_results_file_read_and_written_back_is_the_same_text() {
    let text = "method,epsilon,variant\nfedrep,inf,\"a, b\"\nx,1,\"say \"\"y\"\"\"\n";
    let mut v = View {
        charts: vec![ChartSpec {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            log_x: false,
            log_y: false,
            x_hint: None,
            series: vec![],
        }],
        tables: vec![],
        privacy: vec![],
        files: vec![scenarios::OutputFile::results(text.into())],
        claims: vec![],
        settings: vec![],
        summary: String::new(),
        risk_axis: vec![],
        by_epsilon: vec![],
    };
    let csv = Results::of(&v);
    assert_eq!(csv.get(0, "variant"), "a, b");
    csv.store(&mut v);
    assert_eq!(v.files[0].text, text);
}
