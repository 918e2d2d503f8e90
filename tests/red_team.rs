//! The red team's cases (every scenario's settings across and beyond their
//! range), each of which once panicked, hung or blamed the wrong setting.
//! Each must now end, within a few seconds, in an error that names the
//! setting at fault, or in finished results whose numbers are finite.

mod common;

use common::cb;
use dp_explorer::scenarios::audit::AuditOptions;
use dp_explorer::scenarios::{self, Shard};
use std::time::{Duration, Instant};

/// The red team's small FLUTE config (its classifier one, `common::cb`, is the
/// classifier's declared test size).
const LB: &[(&str, &str)] = &[
    ("n", "12"),
    ("m", "10"),
    ("rounds", "20"),
    ("private_rounds", "5"),
    ("epsilons", "1,4"),
];

/// Wall-clock bound of one case (a debug build on a loaded 2-core machine).
const BOUND: Duration = Duration::from_secs(20);

/// How a case ended.
#[derive(Debug)]
enum Outcome {
    /// Refused before running, at these fields.
    Refused(Vec<String>),
    /// Stopped while running, with this message.
    Failed(String),
    /// Finished; every number in results.csv is finite or empty.
    Finished,
}

fn sweep(preset: &str, base: &[(&str, &str)], extra: &[(&str, &str)]) -> Outcome {
    let pairs = common::with(base, extra);
    let errors = scenarios::validate(preset, &pairs);
    if !errors.is_empty() {
        return Outcome::Refused(errors.iter().map(|e| e.field().to_string()).collect());
    }
    let started = Instant::now();
    let (_, mut run) = match scenarios::start(preset, &pairs, Shard::WHOLE) {
        Ok(r) => r,
        Err(e) => return Outcome::Refused(e.iter().map(|e| e.field().to_string()).collect()),
    };
    loop {
        match run.step() {
            Ok(true) => break,
            Ok(false) => {}
            Err(e) => return Outcome::Failed(e.to_string()),
        }
        assert!(
            started.elapsed() < BOUND,
            "{preset} {pairs:?} still running after {:?} ({})",
            started.elapsed(),
            run.phase()
        );
    }
    let csv = &run.view().files[0].text;
    for line in csv.lines().skip(1) {
        for cell in line.split(',') {
            if let Ok(x) = cell.trim().parse::<f64>() {
                assert!(!x.is_nan(), "{preset} {pairs:?}: NaN in {line}");
            }
        }
    }
    Outcome::Finished
}

/// Refused at one of `fields`, or stopped with a message naming one of them.
fn names_one_of(outcome: &Outcome, fields: &[&str]) -> bool {
    match outcome {
        Outcome::Refused(f) => f.iter().any(|x| fields.contains(&x.as_str())),
        Outcome::Failed(m) => fields.iter().any(|f| m.contains(f)),
        Outcome::Finished => false,
    }
}

#[test]
fn a_representation_wider_than_the_data_is_refused_at_its_field() {
    for (preset, extra) in [
        ("jl-random", vec![("d", "1")]),
        ("jl-random", vec![("d_grid", "1,20")]),
        // jl-exact has k = 1, so d = 1 is a valid (if tiny) problem: ask for k = 2.
        ("jl-exact", vec![("k", "2"), ("d", "1")]),
    ] {
        let o = sweep(preset, &cb(), &extra);
        assert!(
            names_one_of(&o, &["d", "d_grid", "k", "jl_dim"]),
            "{preset} {extra:?}: {o:?}"
        );
    }
}

#[test]
fn an_unreachable_margin_is_refused_at_margin() {
    let o = sweep("jl-random", &cb(), &[("d", "5"), ("margin", "1")]);
    assert!(
        matches!(&o, Outcome::Refused(f) if f.iter().any(|x| x == "margin")),
        "{o:?}"
    );
}

#[test]
fn diverging_flute_runs_stop_fast_naming_what_diverged_them() {
    for (preset, extra, fields) in [
        ("flute-gamma", vec![("eta", "0.5")], vec!["eta"]),
        (
            "flute-overparam",
            vec![("clip", "1000"), ("epsilons", "1 2"), ("private", "on")],
            vec!["eta", "clip"],
        ),
        (
            "flute-private",
            vec![("alpha", "0.99"), ("clip", "1000")],
            vec!["eta", "alpha", "clip"],
        ),
    ] {
        let started = Instant::now();
        let o = sweep(preset, LB, &extra);
        assert!(
            matches!(o, Outcome::Finished) || names_one_of(&o, &fields),
            "{preset} {extra:?}: {o:?}"
        );
        println!("{preset} {extra:?}: {o:?} in {:?}", started.elapsed());
    }
}

#[test]
fn too_little_data_for_flute_blames_the_data_not_the_baselines_step() {
    let o = sweep(
        "flute-example1",
        &[],
        &[("n", "8"), ("m", "1"), ("rounds", "20")],
    );
    if let Outcome::Failed(m) = &o {
        assert!(!m.contains("fedrep_step"), "{m}");
    }
    if let Outcome::Refused(f) = &o {
        assert!(!f.iter().any(|x| x == "fedrep_step"), "{f:?}");
    }
}

#[test]
fn a_vanishing_clip_scale_is_refused_at_clip_scale() {
    let o = sweep("dpgd-quick", &[], &[("clip_scale", "5e-324")]);
    assert!(names_one_of(&o, &["clip_scale"]), "{o:?}");
}

#[test]
fn an_audit_is_bounded_like_a_sweep_at_runs() {
    let options = AuditOptions {
        runs: 100_000,
        ..AuditOptions::default()
    };
    match scenarios::start_audit("fedrep-paper", &[], options) {
        Ok(_) => panic!("an audit of 100000 runs per side of fedrep-paper was accepted"),
        Err(errors) => assert!(
            errors.iter().any(|e| e.field() == "runs"),
            "{:?}",
            errors.iter().map(|e| e.to_string()).collect::<Vec<_>>()
        ),
    }
}
