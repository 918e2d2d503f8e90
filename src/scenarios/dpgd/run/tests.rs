//! Unit tests of the "privacy for free" sweep (Bombari & Mondelli, §5): its
//! presets and fields, its rows, CSV and charts.

use super::super::charts::charts;
use super::super::config::{DpGdCalibration, EtaMode, TargetKind};
use super::*;
use crate::scenarios::field::{Config, OptionalList, PrivacyTarget};

/// Stand-in accountant for tests: the paper's Prop. 3.2.
fn prop32(q: &SigmaQuery) -> f64 {
    (q.eta * q.steps as f64).sqrt() * (8.0 * (1.0 / q.delta).ln()).sqrt() / q.epsilon
}

fn tiny() -> DpGdConfig {
    let mut c = DpGdConfig::preset("dpgd-quick").unwrap();
    c.n = 20;
    c.d = 4;
    c.n_test = 30;
    c.delta = 0.05;
    c.p_grid = vec![10, 20, 60];
    c.target.epsilons = vec![1.0, 4.0];
    c.trace_p = OptionalList(vec![60]);
    c.trace_time_scales = vec![1.0, 4.0];
    c.trace_eta = 0.01;
    c
}

#[test]
fn presets_validate_and_unknown_ones_are_named() {
    for p in super::super::config::PRESETS {
        DpGdConfig::preset(p.name).unwrap().validate().unwrap();
    }
    let e = DpGdConfig::preset("nope").unwrap_err();
    assert_eq!(e.field(), "preset");
    assert!(e.to_string().contains("dpgd-browser"));
}

#[test]
fn every_field_can_be_set_from_text() {
    let mut c = DpGdConfig::default();
    let settings = [
        ("n", "300"),
        ("d", "15"),
        ("p_grid", "30, 300, 900"),
        ("n_test", "200"),
        ("epsilons", "0.5 2"),
        ("risks", "none"),
        ("delta", "1e-3"),
        ("risk_fpr", "0.02"),
        ("clip_scale", "1"),
        ("time_scale", "2"),
        ("eta_mode", "fixed"),
        ("eta", "1e-3"),
        ("activation", "sin"),
        ("target", "linear"),
        ("label_noise", "0.1"),
        ("seed", "9"),
        ("seeds", "2"),
        ("calibration", "exact"),
        ("trace_p", "300"),
        ("trace_epsilon", "2"),
        ("trace_time_scales", "1:3:1"),
        ("trace_eta", "0"),
        ("path", "kernel"),
    ];
    assert_eq!(settings.len(), DpGdConfig::fields().len());
    for (k, v) in settings {
        c.apply_field(k, v).unwrap();
    }
    assert_eq!(c.p_grid, vec![30, 300, 900]);
    assert_eq!(c.eta_mode, EtaMode::Fixed);
    assert_eq!(c.activation, crate::data::random_features::Activation::Sin);
    assert_eq!(c.label_model, TargetKind::Linear);
    assert_eq!(c.calibration, DpGdCalibration::Exact);
    assert_eq!(c.trace_time_scales, vec![1.0, 2.0, 3.0]);
    assert_eq!((c.target.risks.is_empty(), c.target.risk_fpr), (true, 0.02));
    c.validate().unwrap();
    // Serde round trip of the struct, its nested privacy target included. (The
    // page's config.json is not this: it holds the settings as flat text, as
    // `--config` reads them.)
    let json = serde_json::to_string(&c).unwrap();
    assert_eq!(serde_json::from_str::<DpGdConfig>(&json).unwrap(), c);
    // The old name of `seeds` still works; a preset is not a setting.
    c.apply_field("repeats", "3").unwrap();
    assert_eq!(c.repeats, 3);
    assert_eq!(
        c.apply_field("preset", "dpgd-paper").unwrap_err().field(),
        "preset"
    );
    c.apply_field("trace_p", "none").unwrap();
    assert!(c.trace_p.is_empty());
}

#[test]
fn bad_values_name_their_field() {
    let mut c = DpGdConfig::default();
    assert_eq!(c.apply_field("n", "many").unwrap_err().field(), "n");
    assert_eq!(
        c.apply_field("activation", "relu").unwrap_err().field(),
        "activation"
    );
    assert_eq!(
        c.apply_field("colour", "red").unwrap_err().field(),
        "colour"
    );
    let check = |edit: &dyn Fn(&mut DpGdConfig), field: &str| {
        let mut c = DpGdConfig::default();
        edit(&mut c);
        let e = c.validate().unwrap_err();
        assert_eq!(e.field(), field, "{e}");
        e.to_string()
    };
    check(&|c| c.delta = 1.0, "delta");
    check(&|c| c.p_grid = vec![100, 100], "p_grid");
    let msg = check(
        &|c| {
            c.p_grid = vec![100_000];
            c.path = super::super::config::SimPath::Direct;
        },
        "p_grid",
    );
    assert!(msg.contains("MB"), "{msg}");
    let msg = check(&|c| c.target.epsilons = vec![100.0], "epsilons");
    assert!(msg.contains("8 ln(1/δ)"), "{msg}");
    check(&|c| c.trace_p = OptionalList(vec![123]), "trace_p");
    check(&|c| c.trace_eta = 1.0, "trace_eta");
    check(
        &|c| {
            c.eta_mode = EtaMode::Fixed;
            c.eta = 1.0;
        },
        "eta",
    );
    check(
        &|c| {
            c.eta_mode = EtaMode::Fixed;
            c.eta = 1e-9;
        },
        "eta",
    );
    check(&|c| c.repeats = 0, "seeds");
    // Outside Prop. 3.2's range is fine when an exact accountant calibrates.
    let c = DpGdConfig {
        target: PrivacyTarget::epsilons(vec![100.0]),
        calibration: DpGdCalibration::Exact,
        ..DpGdConfig::default()
    };
    c.validate().unwrap();
}

#[test]
fn an_unusable_sigma_is_reported_before_running() {
    let e = DpGdSweep::new(Checked::new(tiny()).unwrap(), |_| f64::NAN)
        .err()
        .unwrap();
    assert_eq!(e.field(), "epsilons");
}

#[test]
fn rows_cover_every_method_width_and_epsilon() {
    let c = tiny();
    let mut calls = 0;
    let mut s = DpGdSweep::with_epsilon_spent(
        Checked::new(c.clone()).unwrap(),
        prop32,
        |q| q.sigma,
        Shard::WHOLE,
    )
    .unwrap();
    let total = s.progress().1;
    while !s.step() {
        calls += 1;
    }
    assert_eq!(calls + 1, total);
    assert!(s.step(), "stepping a finished sweep is a no-op");
    let rows = s.rows();
    // Per p: min-norm, zero, gd, one dp-gd per ε.
    assert_eq!(rows.len(), c.p_grid.len() * (3 + c.target.epsilons.len()));
    assert_eq!(s.trace().len(), c.trace_time_scales.len());
    for r in rows {
        assert!(r.test_loss.is_finite() && r.train_loss.is_finite(), "{r:?}");
        match r.method {
            Method::DpGd => {
                assert_eq!(r.clip, c.clip(r.p));
                assert_eq!(r.steps, (c.time_scale * c.d as f64).round() as usize);
                assert!((r.time_scale - c.time_scale).abs() < 1e-12);
                assert_eq!(r.epsilon_spent, r.sigma, "filled from the second closure");
                let min_norm = rows
                    .iter()
                    .find(|m| m.method == Method::MinNorm && m.p == r.p)
                    .unwrap();
                assert!((r.excess_risk - (r.test_loss - min_norm.test_loss)).abs() < 1e-12);
            }
            Method::Gd => assert!(r.epsilon.is_nan() && r.sigma == 0.0 && r.noise_std == 0.0),
            Method::MinNorm => assert_eq!(r.excess_risk, 0.0),
            Method::Zero => assert!((r.test_loss - 1.0).abs() < 1e-12),
            Method::DpGdTrace => panic!("a trace run among the main rows"),
        }
    }
    // Trace runs use the fixed η, so T = ts·d/(p·η).
    for (r, ts) in s.trace().iter().zip(&c.trace_time_scales) {
        assert_eq!(r.method, Method::DpGdTrace);
        assert_eq!(r.eta, c.trace_eta);
        assert_eq!(
            r.steps,
            (ts * c.d as f64 / (60.0 * c.trace_eta)).round() as usize
        );
    }
}

#[test]
fn csv_has_a_header_and_empty_fields_for_nan() {
    let mut s = DpGdSweep::new(Checked::new(tiny()).unwrap(), prop32).unwrap();
    s.run_to_end();
    let mut out = Vec::new();
    write_csv(s.rows(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let mut lines = text.lines();
    // The header is written from the row's field list (`csv_record!`): it
    // must stay the columns, in the order, of every stored results.csv.
    let header = lines.next().unwrap();
    assert_eq!(
        header,
        "method,p,epsilon,delta,seed,steps,eta,clip,time_scale,sigma,noise_std,\
         test_loss,train_loss,excess_risk,clipped_fraction,epsilon_spent"
    );
    let first: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(first.len(), header.split(',').count());
    assert_eq!(first[0], "min-norm");
    assert_eq!(first[2], "", "NaN ε is an empty field");
}

#[test]
fn charts_describe_the_four_panels() {
    let mut s = DpGdSweep::new(Checked::new(tiny()).unwrap(), prop32).unwrap();
    s.run_to_end();
    let all = [s.rows(), s.trace()].concat();
    let cs = charts(&all);
    assert_eq!(cs.len(), 4);
    assert!(cs[0].log_x && cs[1].log_x && cs[1].log_y);
    let theta = &cs[1].series[0];
    assert_eq!(theta.points.len(), 3);
    assert!(
        cs[1]
            .series
            .iter()
            .filter(|s| s.name.starts_with("DP-GD"))
            .count()
            == 2
    );
    assert_eq!(cs[2].series.len(), 1);
    assert_eq!(cs[3].series[0].points.len(), 2);
    for c in &cs {
        for s in &c.series {
            assert!(
                s.points.iter().all(|p| p.0.is_finite() && p.1.is_finite()),
                "{}",
                s.name
            );
        }
    }
}
