//! The scenario wrapper: the preset picks Private FedRep or DP-GD; DP-GD runs to
//! the end through it with σ from the crate's accountant and an ε spent that is
//! the exact ε of the noise it adds.

use dp_explorer::experiment::scenario::{self, Scenario, Snapshot, Sweep};
use dp_explorer::privacy::calibration::sigma_for_epsilon_exact;
use dp_explorer::privacy::formulas::dpgd_prop32_multiplier;
use dp_explorer::privacy::gdp::{delta_for_epsilon, epsilon_for_mu};

fn run(preset: &str, pairs: &[(&str, &str)]) -> Sweep {
    let mut s = Sweep::from_preset_and_fields(Some(preset), pairs.iter().copied())
        .unwrap_or_else(|e| panic!("{preset}: {e:?}"));
    assert_eq!(s.scenario(), Scenario::DpGd);
    let total = s.progress().1;
    let mut steps = 0;
    while !s.step().unwrap() {
        steps += 1;
        assert!(steps <= total, "more steps than planned");
    }
    assert!(s.is_done());
    assert_eq!(s.progress(), (total, total));
    assert_eq!(s.phase_label(), "done");
    s
}

fn snapshot_json(s: &Sweep) -> serde_json::Value {
    serde_json::to_value(s.snapshot()).unwrap()
}

#[test]
fn the_dpgd_quick_preset_runs_to_the_end_through_the_wrapper() {
    let s = run("dpgd-quick", &[]);
    let Snapshot::DpGd(snap) = s.snapshot() else {
        panic!("a DP-GD snapshot")
    };
    assert!(snap.finished);
    // 7 widths × (min-norm, zero, gd, 3 ε) and 2 traced widths × 3 time scales.
    assert_eq!(snap.rows.len(), 7 * 6);
    assert_eq!(snap.trace.len(), 2 * 3);
    assert_eq!(snap.charts.len(), 4);
    assert_eq!(snap.tables.len(), 4);
    assert_eq!(snap.tables[1].rows.len(), 7, "one table row per width");
    for t in &snap.tables {
        assert!(!t.rows.is_empty(), "{}", t.caption);
        assert!(t.rows.iter().all(|r| r.len() == t.headers.len()));
    }
    for r in &snap.rows {
        let private = r.row.method == "dp-gd";
        assert_eq!(r.privacy.is_some(), private, "{}", r.row.method);
        assert_eq!(r.privacy_reading.is_some(), private);
    }
    let json = snapshot_json(&s);
    assert_eq!(json["scenario"], "dpgd");
    for key in [
        "done", "total", "phase", "finished", "rows", "trace", "charts", "tables",
    ] {
        assert!(json.get(key).is_some(), "snapshot has {key}");
    }
    let csv = s.csv();
    let mut lines = csv.lines();
    let header = lines.next().unwrap();
    for col in [
        "method",
        "p",
        "epsilon",
        "seed",
        "test_loss",
        "train_loss",
        "excess_risk",
        "clipped_fraction",
        "sigma",
        "epsilon_spent",
    ] {
        assert!(header.split(',').any(|c| c == col), "column {col}");
    }
    assert_eq!(lines.count(), 7 * 6 + 2 * 3);
    assert_eq!(s.config_fields(), scenario::fields("dpgd-quick").unwrap());
}

/// The noise std on the mean gradient ḡ per step, (2C/n)·σ/√η, and the
/// replace-one sensitivity 2C/n of ḡ.
fn std_and_sensitivity(r: &dp_explorer::experiment::dpgd_sweep::DpGdRow, n: usize) -> (f64, f64) {
    let s = 2.0 * r.clip / n as f64;
    (s * r.sigma / r.eta.sqrt(), s)
}

fn rel(a: f64, b: f64) -> f64 {
    ((a - b) / b).abs()
}

#[test]
fn prop32_sigma_is_the_papers_and_epsilon_spent_is_its_exact_epsilon() {
    let s = run("dpgd-quick", &[("calibration", "prop32")]);
    let Snapshot::DpGd(snap) = s.snapshot() else {
        panic!()
    };
    let n = 100;
    let private: Vec<_> = snap
        .rows
        .iter()
        .chain(&snap.trace)
        .filter(|r| r.row.sigma > 0.0)
        .collect();
    assert_eq!(private.len(), 7 * 3 + 2 * 3);
    for v in private {
        let r = &v.row;
        let want = dpgd_prop32_multiplier(r.eta, r.steps as u64, r.epsilon, r.delta);
        assert!(rel(r.sigma, want) < 1e-12, "{r:?}");
        // The algorithm's own noise std √η·(2C/n)·σ.
        assert!(
            rel(
                r.noise_std,
                r.eta.sqrt() * 2.0 * r.clip / n as f64 * r.sigma
            ) < 1e-12
        );
        // μ of T Gaussian steps of sensitivity s and std (2C/n)σ/√η: √T·s/std.
        let (std, sens) = std_and_sensitivity(r, n);
        let mu = (r.steps as f64).sqrt() * sens / std;
        // Under Prop. 3.2, μ = ε/√(8 ln(1/δ)) whatever η and T.
        assert!(rel(mu, r.epsilon / (8.0 * (1.0 / r.delta).ln()).sqrt()) < 1e-9);
        let exact = epsilon_for_mu(mu, r.delta).unwrap();
        assert!(rel(r.epsilon_spent, exact) < 1e-12, "{r:?}");
        // Never smaller than what it spends: (ε spent, δ) holds for this μ.
        assert!(delta_for_epsilon(mu, r.epsilon_spent) <= r.delta * (1.0 + 1e-9));
        // Prop. 3.2 is conservative: the run spends less than its target.
        assert!(r.epsilon_spent < r.epsilon, "{r:?}");
        let report = v.privacy.as_ref().unwrap();
        assert_eq!(report.epsilon_exact, r.epsilon_spent);
        assert_eq!(report.stages.len(), 1);
        assert!(rel(report.stages[0].sensitivity, sens) < 1e-12);
        assert_eq!(report.stages[0].steps, r.steps as u64);
    }
}

#[test]
fn exact_sigma_spends_exactly_the_target() {
    let s = run(
        "dpgd-quick",
        &[
            ("calibration", "exact"),
            ("epsilons", "0.5,2,10"),
            ("p_grid", "10,100,500"),
            ("trace_p", "500"),
        ],
    );
    let Snapshot::DpGd(snap) = s.snapshot() else {
        panic!()
    };
    let n = 100;
    for v in snap
        .rows
        .iter()
        .chain(&snap.trace)
        .filter(|r| r.row.sigma > 0.0)
    {
        let r = &v.row;
        let (std, sens) = std_and_sensitivity(r, n);
        let want = sigma_for_epsilon_exact(r.epsilon, r.delta, r.steps as u64, sens).unwrap();
        assert!(rel(std, want) < 1e-12, "{r:?}");
        assert!(rel(r.epsilon_spent, r.epsilon) < 1e-9, "{r:?}");
        let mu = (r.steps as f64).sqrt() * sens / std;
        assert!(delta_for_epsilon(mu, r.epsilon_spent) <= r.delta * (1.0 + 1e-9));
        let report = v.privacy.as_ref().unwrap();
        assert_eq!(report.epsilon_exact, r.epsilon_spent);
        assert!(
            report
                .notes
                .iter()
                .all(|n| !n.contains("more than the target")),
            "{:?}",
            report.notes
        );
    }
}

#[test]
fn fedrep_presets_keep_their_snapshot_shape() {
    let s = Sweep::from_preset_and_fields(Some("fedrep-paper"), [("n", "2000")]).unwrap();
    assert_eq!(s.scenario(), Scenario::FedRep);
    let json = snapshot_json(&s);
    for key in [
        "done", "total", "phase", "finished", "rows", "curves", "charts", "config",
    ] {
        assert!(json.get(key).is_some(), "snapshot has {key}");
    }
    assert_eq!(json["charts"].as_array().unwrap().len(), 2);
    // No preset: FedRep's defaults, as before.
    let s = Sweep::from_preset_and_fields(None, []).unwrap();
    assert_eq!(s.scenario(), Scenario::FedRep);
    // A FedRep-only field is refused under a DP-GD preset, and vice versa.
    let e = scenario::validate(Some("dpgd-quick"), [("rounds", "5")]);
    assert_eq!(e[0].field(), "rounds");
    let e = scenario::validate(Some("fedrep-paper"), [("p_grid", "10")]);
    assert_eq!(e[0].field(), "p_grid");
}
