//! The default audit's size: where the runs its attacks want do not fit the
//! page's budget at the preset's records, the default audits fewer records
//! (users, clients, samples) rather than fewer runs, the claims recomputed at
//! that size; runs asked for never resize. At the smaller size the honest
//! audit stays under its claims and the broken one (half the noise) is caught.

use dp_explorer::scenarios::audit::{
    AuditMode, AuditOptions, AuditRun, DEFAULT_AUDIT_SECONDS, MIN_DEFAULT_RUNS,
};
use dp_explorer::scenarios::csv_out::records;
use dp_explorer::scenarios::{start_audit, start_audit_within};

const DEFAULT: AuditOptions = AuditOptions {
    runs: 0,
    mode: AuditMode::WhiteBox,
    broken: false,
    seed: 1,
};

/// A preset, settings, and a budget (seconds in one wasm worker).
type Small = (&'static str, &'static [(&'static str, &'static str)], f64);

/// Each resizable scenario's preset, test-sized settings whose default is too
/// slow for a small budget, and the budget.
const SMALL: &[Small] = &[
    (
        "fedrep-paper",
        &[("n", "4000"), ("d", "10"), ("epsilons", "2,8")],
        0.4,
    ),
    (
        "flute-private",
        &[
            ("n", "1000"),
            ("d", "10"),
            ("private_rounds", "10"),
            ("epsilons", "2,8"),
        ],
        0.4,
    ),
    (
        "trace-paper",
        &[
            ("d1", "5"),
            ("d2", "5"),
            ("n", "4000,8000"),
            ("iterations", "3"),
            ("epsilons", "4"),
        ],
        0.4,
    ),
];

fn play(mut run: AuditRun) -> AuditRun {
    while !run.step(64) {}
    run
}

/// The presets as they are: their default audit is resized to fit the page's
/// budget (or, at the floor, its runs cut), and says so.
#[test]
fn the_default_audit_of_each_slow_preset_runs_at_fewer_records_within_the_budget() {
    for preset in ["fedrep-paper", "flute-private", "trace-paper"] {
        let run = start_audit(preset, &[], DEFAULT).unwrap();
        let size = run.size().expect("a sized audit").clone();
        let seconds = run.estimated_wasm_seconds();
        eprintln!(
            "{preset}: {} runs per side (wanted {}) {}, estimated {seconds:.1} s in the page; same claims: {}",
            run.runs(),
            run.runs_wanted(),
            size.words(),
            size.same_claims
        );
        assert!(size.resized(), "{preset}: {}", size.words());
        assert!(
            size.audited < size.preset / 10,
            "{preset}: {}",
            size.words()
        );
        assert!(size.cheaper > 10.0, "{preset}: {}", size.cheaper);
        assert!(
            seconds <= DEFAULT_AUDIT_SECONDS || run.runs() == MIN_DEFAULT_RUNS,
            "{preset}: {seconds} s"
        );
        // Runs are cut only at the floor (50 users or clients, 200 samples here).
        if run.runs() < run.runs_wanted() {
            assert!(size.audited <= 200, "{preset}: cut above the floor");
        }
        // FedRep, FLUTE and the clipped and paper's trace variants: the noise
        // scales with the sensitivity, so the ε spent is the preset's.
        assert!(size.same_claims, "{preset}");
        // The estimate line's words and the note say where it ran.
        assert!(size
            .words()
            .contains(&format!("of the preset's {}", count(size.preset))));
        assert!(size.note().contains(&format!("n = {}", size.audited)));
    }
}

fn count(n: usize) -> String {
    let s = n.to_string();
    if s.len() <= 4 {
        return s;
    }
    let (head, tail) = s.split_at(s.len() - 3);
    format!("{head} {tail}")
}

/// At the resized default (test-sized settings, a small budget): the honest
/// audit's bounds stay under the claims at the audited size, the broken one
/// exceeds a claim, and every row says the size it ran at.
#[test]
fn a_resized_default_holds_its_claims_honestly_and_catches_half_the_noise() {
    for &(preset, pairs, budget) in SMALL {
        let honest = play(start_audit_within(preset, pairs, DEFAULT, budget).unwrap());
        let size = honest.size().unwrap().clone();
        assert!(size.resized(), "{preset}: {}", size.words());
        assert!(honest.estimated_wasm_seconds() <= budget, "{preset}");
        assert_eq!(
            honest.runs(),
            honest.runs_wanted(),
            "{preset}: {}",
            size.words()
        );
        let broken = play(
            start_audit_within(
                preset,
                pairs,
                AuditOptions {
                    broken: true,
                    ..DEFAULT
                },
                budget,
            )
            .unwrap(),
        );
        assert_eq!(broken.size(), Some(&size));
        for (h, b) in honest.rows().iter().zip(broken.rows()) {
            eprintln!(
                "{preset} {}: {} runs, ε {} spent {:.3}: honest ε_LB {:.3}, broken {:.3}",
                size.words(),
                h.runs,
                h.epsilon,
                h.epsilon_spent,
                h.epsilon_lb(),
                b.epsilon_lb()
            );
            assert_eq!((h.n, h.preset_n), (Some(size.audited), Some(size.preset)));
            if h.worst_case {
                assert!(!h.exceeds_claim(), "{preset}: {h:?}");
            }
        }
        let caught = broken
            .rows()
            .iter()
            .filter(|r| r.worst_case && r.exceeds_claim())
            .count();
        assert!(caught > 0, "{preset}: the broken mode not caught");
        assert!(honest.view().notes[0]
            .verdict
            .starts_with("Audited at n = "));
        if preset == "trace-paper" {
            mirror_images(&honest, "dp-rgrad, clipped");
        }
    }
}

/// The white-box scores of `method`'s runs are mirror images across 0 (the
/// threshold fixed in advance): the in-side's mean is +m, the out-side's −m,
/// within sampling error, and their spreads alike.
fn mirror_images(run: &AuditRun, method: &str) {
    let (mut ins, mut outs) = (Vec::new(), Vec::new());
    for f in records(&run.scores_csv()).iter().skip(1) {
        if f[0] != method {
            continue;
        }
        let score: f64 = f[4].parse().unwrap();
        match f[2].as_str() {
            "in" => ins.push(score),
            _ => outs.push(score),
        }
    }
    let stats = |v: &[f64]| {
        let n = v.len() as f64;
        let mean = v.iter().sum::<f64>() / n;
        let sd = (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        (mean, sd, n)
    };
    let ((mi, si, n), (mo, so, _)) = (stats(&ins), stats(&outs));
    eprintln!("{method}: in {mi:.4} ± {si:.4}, out {mo:.4} ± {so:.4} ({n} runs)");
    assert!(n >= 20.0, "{method}: {n} runs");
    assert!(mi > 0.0 && mo < 0.0, "in {mi}, out {mo}");
    // The midpoint within four standard errors of 0, and the spreads within 40 %.
    assert!(
        (mi + mo).abs() < 4.0 * (si * si / n + so * so / n).sqrt(),
        "in {mi}, out {mo}"
    );
    assert!((si / so - 1.0).abs() < 0.4, "spreads {si}, {so}");
}

/// Runs asked for are played at the preset's records: never resized.
#[test]
fn runs_asked_for_never_resize() {
    for &(preset, pairs, budget) in SMALL {
        let options = AuditOptions {
            runs: 20,
            ..DEFAULT
        };
        let run = play(start_audit_within(preset, pairs, options, budget).unwrap());
        let size = run.size().unwrap();
        assert!(!size.resized(), "{preset}: {}", size.words());
        assert_eq!(run.runs(), 20);
        assert!(run.rows().iter().all(|r| r.n == Some(size.preset)));
        assert!(!run
            .view()
            .notes
            .iter()
            .any(|n| n.verdict.starts_with("Audited at")));
        // Nor is the final-output mode's default (its score reads the whole model).
        let final_mode = AuditOptions {
            mode: AuditMode::Final,
            ..DEFAULT
        };
        let run = start_audit_within(preset, pairs, final_mode, budget).unwrap();
        assert!(!run.size().unwrap().resized(), "{preset}");
    }
}
