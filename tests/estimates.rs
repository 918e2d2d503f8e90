//! The shape of the time estimates (no timings here: `make estimates` compares
//! them with the page's measured times, docs/performance.md): every preset has
//! a finite positive estimate, the estimate grows with the size of the work
//! (users, dimension, runs), and the machine's probe factors scale it linearly.

use dp_explorer::scenarios::{self, Machine, SCENARIOS};

fn page(preset: &str, pairs: &[(&str, &str)], machine: &Machine) -> f64 {
    scenarios::configure(preset, pairs)
        .unwrap_or_else(|e| panic!("{preset} {pairs:?}: {e:?}"))
        .estimated_page_seconds(2, machine)
}

#[test]
fn every_preset_has_a_positive_estimate_that_the_machine_factors_scale_linearly() {
    for s in SCENARIOS {
        for p in s.info().presets {
            let one = page(p.name, &[], &Machine::REFERENCE);
            assert!(one.is_finite() && one > 0.0, "{}: {one}", p.name);
            // Twice as slow at both kinds of work: twice the time, page included.
            let slow = Machine {
                scalar: 2.0,
                dense: 2.0,
            };
            let two = page(p.name, &[], &slow);
            assert!((two / one - 2.0).abs() < 1e-12, "{}: {one} → {two}", p.name);
            // One kind slower: the estimate grows, by at most that factor.
            for m in [
                Machine {
                    scalar: 3.0,
                    dense: 1.0,
                },
                Machine {
                    scalar: 1.0,
                    dense: 3.0,
                },
            ] {
                let t = page(p.name, &[], &m);
                assert!(
                    t >= one && t <= 3.0 * one * (1.0 + 1e-12),
                    "{}: {m:?} {one} → {t}",
                    p.name
                );
            }
            // One worker takes at least as long as two; the native estimate scales too.
            let configured = scenarios::configure(p.name, &[]).unwrap();
            let alone = configured.estimated_page_seconds(1, &Machine::REFERENCE);
            assert!(
                alone >= one,
                "{}: 1 worker {alone} < 2 workers {one}",
                p.name
            );
            let native = configured.estimated_seconds();
            let native_slow = configured.estimated_seconds_on(&slow);
            assert!((native_slow / native - 2.0).abs() < 1e-12, "{}", p.name);
        }
    }
}

/// The estimate at each value of `key`, in order, on top of `preset`.
fn along(preset: &str, key: &str, values: &[&str]) -> Vec<f64> {
    values
        .iter()
        .map(|v| page(preset, &[(key, v)], &Machine::REFERENCE))
        .collect()
}

fn assert_grows(preset: &str, key: &str, values: &[&str]) {
    let t = along(preset, key, values);
    for (w, v) in t.windows(2).zip(values.windows(2)) {
        assert!(
            w[1] > w[0],
            "{preset}: {key} {} → {}: {} s → {} s",
            v[0],
            v[1],
            w[0],
            w[1]
        );
    }
}

#[test]
fn the_estimate_grows_with_users_dimension_and_runs() {
    // Users or samples.
    assert_grows("fedrep-paper", "n", &["2000", "20000", "200000"]);
    assert_grows("dpgd-quick", "n", &["50", "100", "200"]);
    assert_grows("flute-c1", "n", &["15", "60", "240"]);
    assert_grows("jl-exact", "n", &["100", "300", "900"]);
    // (trace's sufficient-statistics path draws a Wishart matrix: its time does not depend on n.)
    // Dimension.
    assert_grows("fedrep-paper", "d", &["20", "50", "100"]);
    assert_grows("dpgd-quick", "d", &["5", "10", "40"]);
    assert_grows("flute-c1", "d", &["10", "15", "20"]);
    assert_grows("trace-lstar", "d1", &["5", "10", "20"]);
    // Runs: seeds, repeats, ε points, rounds.
    assert_grows("fedrep-paper", "seeds", &["1", "2", "4"]);
    assert_grows("fedrep-paper", "epsilons", &["1", "1,2", "1,2,4,8"]);
    assert_grows("dpgd-quick", "seeds", &["1", "2", "4"]);
    assert_grows("flute-c1", "seeds", &["1", "2", "3"]);
    assert_grows("flute-c1", "rounds", &["100", "300", "900"]);
    assert_grows("jl-exact", "seeds", &["1", "3", "6"]);
    assert_grows("trace-paper", "repeats", &["5", "20", "40"]);
    assert_grows("trace-paper", "iterations", &["2", "5", "10"]);
}

#[test]
fn the_pool_takes_every_core_its_workers_memory_allows() {
    let workers = |preset: &str, pairs: &[(&str, &str)], cores, memory| {
        scenarios::configure(preset, pairs)
            .unwrap()
            .workers_for(cores, memory)
    };
    let default = scenarios::default_preset();
    assert_eq!(workers(default, &[], 8, None), 8);
    assert_eq!(workers(default, &[], 1, None), 1);
    // A DP-GD worker holds K (n² numbers, twice) and kept features: a wider
    // sweep's workers hold more, so fewer fit in the same memory.
    let paper = workers("dpgd-paper", &[], 64, Some(4e9));
    let browser = workers("dpgd-browser", &[], 64, Some(4e9));
    assert!(paper >= 1 && paper < browser, "{paper} against {browser}");
    assert!(workers("dpgd-paper", &[], 64, Some(16e9)) > paper);
    // A sweep that does not split runs on one worker whatever the machine.
    for s in SCENARIOS {
        if !s.info().splits {
            let preset = s.info().presets[0].name;
            assert_eq!(workers(preset, &[], 8, None), 1, "{preset}");
        }
    }
}
