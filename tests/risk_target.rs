//! The privacy target given as an attacker's success (issue 42, item 1):
//! `risks` (TPR) at `risk_fpr` drive a run's noise through the exact trade-off
//! curve (Kulynych & Gomez, NeurIPS 2024), and every private row spends the
//! exact ε of the μ its risk implies. The expected ε is computed here on its
//! own: Φ from `libm::erfc`, Φ⁻¹ and ε by bisection on Dong, Roth & Su's
//! δ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2), none of the crate's accountant.

mod common;

use dp_explorer::scenarios::{self, csv_out, Coverage, Shard};
use std::collections::HashMap;

fn phi(x: f64) -> f64 {
    0.5 * libm::erfc(-x / std::f64::consts::SQRT_2)
}

/// x with Φ(x) = p, by bisection.
fn phi_inverse(p: f64) -> f64 {
    let (mut lo, mut hi) = (-40.0, 40.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if phi(mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// μ of the Gaussian trade-off curve through (fpr, tpr): Φ⁻¹(1 − fpr) − Φ⁻¹(1 − tpr).
fn mu_of(tpr: f64, fpr: f64) -> f64 {
    phi_inverse(1.0 - fpr) - phi_inverse(1.0 - tpr)
}

/// The smallest ε with δ(ε) ≤ δ for μ-GDP, by bisection.
fn epsilon_of(mu: f64, delta: f64) -> f64 {
    let d = |eps: f64| phi(-eps / mu + mu / 2.0) - eps.exp() * phi(-eps / mu - mu / 2.0);
    let (mut lo, mut hi) = (0.0, 100.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if d(mid) > delta {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

/// The rows of `results.csv` of a finished sweep, each by column name.
fn rows(preset: &str, pairs: &[(&str, &str)]) -> Vec<HashMap<String, String>> {
    let view = common::finished(preset, pairs, Shard::WHOLE).view();
    table(&view.files[0].text)
}

fn table(text: &str) -> Vec<HashMap<String, String>> {
    let records = csv_out::records(text);
    let (header, body) = records.split_first().unwrap();
    body.iter()
        .map(|r| header.iter().cloned().zip(r.iter().cloned()).collect())
        .collect()
}

/// Every row whose method is one of `private`: its risk columns name a risk
/// of `risks` at `fpr`, and its ε spent is the exact ε of that risk's μ at
/// `delta` (times `scale`: the whole run of trace regression spends 2ε).
fn check_private_rows(
    rows: &[HashMap<String, String>],
    private: &[&str],
    fpr: f64,
    delta: f64,
) -> usize {
    let mut checked = 0;
    for row in rows {
        let tpr = &row["risk_tpr"];
        if !private.contains(&row["method"].as_str()) {
            assert!(tpr.is_empty(), "{row:?}: a non-private row names no risk");
            continue;
        }
        let tpr: f64 = tpr
            .parse()
            .unwrap_or_else(|_| panic!("{row:?}: no risk_tpr"));
        assert_eq!(row["risk_fpr"].parse::<f64>().unwrap(), fpr);
        let spent: f64 = row["epsilon_spent"].parse().unwrap();
        let want = epsilon_of(mu_of(tpr, fpr), delta);
        assert!(
            rel(spent, want) < 1e-6,
            "{row:?}: ε spent {spent}, the risk's ε {want}"
        );
        checked += 1;
    }
    checked
}

#[test]
fn the_independent_computation_gives_the_specs_values() {
    for (tpr, mu, eps) in [
        (0.05, 0.681494, 3.174390),
        (0.10, 1.044796, 5.136816),
        (0.20, 1.484727, 7.713342),
    ] {
        assert!((mu_of(tpr, 0.01) - mu).abs() < 1e-6);
        assert!(rel(epsilon_of(mu_of(tpr, 0.01), 1e-6), eps) < 1e-6);
    }
}

#[test]
fn private_fedrep_spends_the_exact_epsilon_of_each_risk() {
    let pairs = [
        ("n", "2000"),
        ("risks", "0.05,0.2"),
        ("risk_fpr", "0.01"),
        ("altmin", "off"),
    ];
    let rows = rows("fedrep-paper", &pairs);
    assert_eq!(
        check_private_rows(&rows, &["private-fedrep"], 0.01, 1e-6),
        2
    );
    // The target ε column is the risk's ε at δ: the spec's 3.174390 and 7.713342.
    let targets: Vec<f64> = rows
        .iter()
        .filter(|r| r["method"] == "private-fedrep")
        .map(|r| r["epsilon"].parse().unwrap())
        .collect();
    assert!(
        rel(targets[0], 3.174390) < 1e-6 && rel(targets[1], 7.713342) < 1e-6,
        "{targets:?}"
    );
}

#[test]
fn dpgd_flute_and_trace_spend_the_exact_epsilon_of_each_risk() {
    let rows_dpgd = rows(
        "dpgd-quick",
        &[("calibration", "exact"), ("risks", "0.05,0.2")],
    );
    assert!(check_private_rows(&rows_dpgd, &["dp-gd"], 0.01, 0.01) >= 2);
    let rows_flute = rows(
        "flute-private",
        &[
            ("n", "200"),
            ("rounds", "30"),
            ("private_rounds", "30"),
            ("clip", "0.2"),
            ("risks", "0.1"),
            ("risk_fpr", "0.02"),
        ],
    );
    assert_eq!(
        check_private_rows(&rows_flute, &["dp-flute", "private-fedrep"], 0.02, 1e-5),
        2
    );
    // Trace regression: the whole run (start and iterations) is calibrated to
    // the risk and accounted at 2δ; the start's rows carry the start's share.
    let rows_trace = rows(
        "trace-paper",
        &[
            ("variant", "clipped"),
            ("data", "direct"),
            ("n", "2000"),
            ("repeats", "1"),
            ("risks", "0.05,0.2"),
        ],
    );
    let whole: Vec<_> = rows_trace
        .iter()
        .filter(|r| r["method"] != "dp-init")
        .cloned()
        .collect();
    assert_eq!(check_private_rows(&whole, &["dp-rgrad"], 0.01, 2e-5), 2);
    // No row of the paper's variant: its formulas are not calibrated to a risk.
    assert!(
        rows_trace.iter().all(|r| r["variant"] != "paper"),
        "{rows_trace:?}"
    );
}

#[test]
fn a_risk_runs_reports_carry_the_risk_they_were_calibrated_to() {
    // The point the trade-off chart marks: each private release's report holds its risk
    // (and an ε run's holds none).
    let pairs = [("n", "2000"), ("risks", "0.05,0.2"), ("altmin", "off")];
    let view = common::finished("fedrep-paper", &pairs, Shard::WHOLE).view();
    let mut risks: Vec<(f64, f64)> = view
        .privacy
        .iter()
        .filter_map(|e| e.release.as_ref())
        .flat_map(|r| r.reports.iter().filter_map(|p| p.risk))
        .map(|r| (r.tpr, r.fpr))
        .collect();
    risks.sort_by(|a, b| a.0.total_cmp(&b.0));
    risks.dedup();
    assert_eq!(risks, [(0.05, 0.01), (0.2, 0.01)]);
    let by_epsilon = common::finished(
        "fedrep-paper",
        &[("n", "2000"), ("altmin", "off")],
        Shard::WHOLE,
    )
    .view();
    assert!(by_epsilon
        .privacy
        .iter()
        .filter_map(|e| e.release.as_ref())
        .all(|r| r.reports.iter().all(|p| p.risk.is_none())));
    check_risk_axes(&view, &by_epsilon);
}

/// The ε charts of a risk-driven run (`view`) show the attacker's success:
/// every measured point's x is one of the risks set, the label says so and
/// the claims are still judged (over ε); the ε run's charts stay on ε.
fn check_risk_axes(view: &scenarios::View, by_epsilon: &scenarios::View) {
    let on_epsilon: Vec<_> = by_epsilon
        .charts
        .iter()
        .filter(|c| c.x_label.contains('ε'))
        .collect();
    assert!(!on_epsilon.is_empty(), "the ε run has an ε chart");
    let mut on_risk = 0;
    for (c, e) in view.charts.iter().zip(&by_epsilon.charts) {
        if !e.x_label.contains('ε') {
            assert_eq!(c.x_label, e.x_label, "a chart not over ε keeps its axis");
            continue;
        }
        assert_eq!(c.x_label, "attacker's success (TPR at FPR 0.01)");
        assert_eq!(c.x_hint, Some((0.05, 0.2)));
        let xs: Vec<f64> = c
            .series
            .iter()
            .filter(|s| !s.horizontal)
            .flat_map(|s| s.points.iter().map(|p| p.0))
            .collect();
        assert!(!xs.is_empty(), "{}: points drawn", c.title);
        assert!(
            xs.iter().all(|x| *x == 0.05 || *x == 0.2),
            "{}: {xs:?}",
            c.title
        );
        on_risk += 1;
    }
    assert!(on_risk > 0);
    // The readout's pairs: each risk with the target ε it stands for.
    let risks: Vec<f64> = view.risk_axis.iter().map(|p| p.0).collect();
    assert_eq!(risks, [0.05, 0.2]);
    assert!(view
        .risk_axis
        .iter()
        .all(|&(t, e)| rel(e, epsilon_of(mu_of(t, 0.01), 1e-6)) < 1e-6));
    assert!(by_epsilon.risk_axis.is_empty());
}

#[test]
fn the_pure_epsilon_classifier_goes_through_the_pure_dp_region() {
    let rows = rows(
        "jl-exact",
        &[
            ("n", "80"),
            ("d_grid", "10"),
            ("test_points", "40"),
            ("risks", "0.05,0.5"),
        ],
    );
    let mut seen = 0;
    for row in rows.iter().filter(|r| !r["risk_tpr"].is_empty()) {
        let (t, a): (f64, f64) = (row["risk_tpr"].parse().unwrap(), 0.01);
        // max(ln(t/a), ln((1 − a)/(1 − t))): ln 5 and ln 50.
        let want = (t / a).ln().max(((1.0 - a) / (1.0 - t)).ln());
        assert!(
            rel(row["epsilon_spent"].parse().unwrap(), want) < 1e-12,
            "{row:?}"
        );
        seen += 1;
    }
    assert!(seen >= 2);
}

#[test]
fn an_epsilon_calibrated_sweep_has_no_risk_columns() {
    let view = common::finished(
        "jl-exact",
        &[("n", "80"), ("d_grid", "10"), ("test_points", "40")],
        Shard::WHOLE,
    )
    .view();
    assert!(!view.files[0].text.contains("risk_tpr"));
}

#[test]
fn bad_risks_are_refused_naming_the_field() {
    let base = [("n", "2000"), ("altmin", "off")];
    for (extra, field) in [
        (vec![("risks", "0.01")], "risks"),
        (vec![("risks", "0.005")], "risks"),
        (vec![("risks", "1")], "risks"),
        (vec![("risks", "NaN")], "risks"),
        (vec![("risks", "0.1"), ("risk_fpr", "0")], "risk_fpr"),
        (vec![("risks", "0.1"), ("risk_fpr", "1.5")], "risk_fpr"),
        (vec![("risks", "0.1"), ("epsilons", "1,2")], "risks"),
        (
            vec![("risks", "0.1"), ("calibration", "paper")],
            "calibration",
        ),
    ] {
        let pairs = common::with(&base, &extra);
        let errors = scenarios::validate("fedrep-paper", &pairs);
        assert!(
            errors.iter().any(|e| e.field() == field),
            "{extra:?}: {errors:?} names no {field}"
        );
    }
    let errors = scenarios::validate("trace-paper", &[("risks", "0.1")]);
    assert!(errors.iter().any(|e| e.field() == "variant"), "{errors:?}");
    let errors = scenarios::validate("dpgd-quick", &[("risks", "0.1")]);
    assert!(
        errors.iter().any(|e| e.field() == "calibration"),
        "{errors:?}"
    );
}

#[test]
fn a_risk_runs_settings_read_back_as_the_same_run_and_its_shards_merge() {
    let pairs = [
        ("n", "2000"),
        ("risks", "0.05,0.2"),
        ("altmin", "off"),
        ("seeds", "2"),
    ];
    let configured = scenarios::configure("fedrep-paper", &pairs).unwrap();
    let settings = configured.settings();
    let text: Vec<(&str, &str)> = settings.iter().map(|(k, v)| (*k, v.as_str())).collect();
    // The derived ε list beside its risks is no ambiguity: the same settings.
    let again = scenarios::configure("fedrep-paper", &text).unwrap();
    assert_eq!(again.settings(), settings);

    let whole = common::finished("fedrep-paper", &pairs, Shard::WHOLE).view();
    let parts: Vec<Vec<u8>> = (0..3)
        .map(|index| common::finished("fedrep-paper", &pairs, Shard { index, count: 3 }).part())
        .collect();
    let merged = configured.merge(&parts, Coverage::Whole).unwrap();
    assert_eq!(merged.files, whole.files);
    // The job key holds the risk: these parts are not those of another risk.
    let other = common::with(&pairs, &[("risks", "0.05,0.3")]);
    let refused = scenarios::configure("fedrep-paper", &other)
        .unwrap()
        .merge(&parts, Coverage::Whole);
    assert!(refused.is_err());
}
