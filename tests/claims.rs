//! Claims that check themselves (`src/scenarios/claims.rs`), judged on what the
//! page shows: every lesson step at its own settings (not a smaller test size)
//! at base seeds 1, 2 and 3 has every claim it states held; and the default
//! run of every preset (but the paper-size ones, minutes each) at base seeds
//! 1, 2 and 3 marks no claim as failed: a claim off its scope is not decided,
//! never ✗. A claim that cannot be made to hold honestly is rewritten, not
//! loosened.

mod common;

use dp_explorer::scenarios::claims::Status;
use dp_explorer::scenarios::{self, Shard, SCENARIOS};

#[test]
fn every_claim_named_by_a_step_or_a_caption_exists_and_every_step_states_one() {
    for s in SCENARIOS {
        let info = s.info();
        let ids: Vec<&str> = info.claims.iter().map(|c| c.id).collect();
        let mut unique = ids.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), ids.len(), "{}: claim ids repeat", info.id);
        for step in info.lesson {
            assert!(
                !step.claims.is_empty(),
                "{}: lesson step “{}” states no claim",
                info.id,
                step.title
            );
        }
        let steps = info
            .lesson
            .iter()
            .map(|st| (format!("step “{}”", st.title), st.claims));
        let charts = info
            .charts
            .iter()
            .map(|c| (format!("chart {}", c.id), c.claims));
        for (place, claims) in steps.chain(charts) {
            for id in claims {
                assert!(
                    ids.contains(id),
                    "{}: {place} names unknown claim {id}",
                    info.id
                );
            }
        }
        // Every declared claim is stated somewhere on the page.
        for id in &ids {
            let stated = info.lesson.iter().any(|st| st.claims.contains(id))
                || info.charts.iter().any(|c| c.claims.contains(id));
            assert!(
                stated,
                "{}: claim {id} is declared but stated nowhere",
                info.id
            );
        }
    }
}

/// The base seeds every lesson step and preset is judged at.
const SEEDS: [&str; 3] = ["1", "2", "3"];

/// Presets whose default run takes longer than this (native, one core, the
/// scenario's own estimate) are left to the benchmarks: the paper-size DP-GD
/// ones, minutes each.
const MAX_SECONDS: f64 = 10.0;

/// One run to judge: a preset, its settings (the seed last), and the claims
/// that must hold on it (`None`: none may fail).
struct Case {
    place: String,
    preset: &'static str,
    pairs: Vec<(&'static str, &'static str)>,
    must_hold: Option<&'static [&'static str]>,
}

/// The failures of one case, as text.
fn judge_case(case: &Case) -> Vec<String> {
    let (_, mut run) = scenarios::start(case.preset, &case.pairs, Shard::WHOLE)
        .unwrap_or_else(|e| panic!("{}: {e:?}", case.place));
    scenarios::run_to_end(run.as_mut()).unwrap();
    let (scenario, _) = scenarios::by_preset(case.preset).unwrap();
    let view = scenarios::judged(scenario, run.view());
    view.claims
        .iter()
        .filter(|v| match case.must_hold {
            Some(ids) => ids.contains(&v.id) && v.status != Status::Held,
            None => v.status == Status::NotHeld,
        })
        .map(|v| {
            format!(
                "{}: {} is {} ({})",
                case.place,
                v.id,
                v.status.name(),
                v.numbers
            )
        })
        .collect()
}

/// Every case on two threads (the machine's cores), the failures gathered.
fn judge_all(cases: &[Case]) -> Vec<String> {
    common::on_two_threads(cases, judge_case)
}

#[test]
fn every_lesson_steps_claims_hold_at_its_own_settings_on_seeds_1_to_3() {
    let mut cases = Vec::new();
    for s in SCENARIOS {
        let info = s.info();
        for step in info.lesson {
            for seed in SEEDS {
                let mut pairs: Vec<(&str, &str)> = step.settings.to_vec();
                pairs.push(("seed", seed));
                cases.push(Case {
                    place: format!("{} step “{}” seed {seed}", info.id, step.title),
                    preset: step.preset,
                    pairs,
                    must_hold: Some(step.claims),
                });
            }
        }
    }
    let checked: usize = cases
        .iter()
        .map(|c| c.must_hold.map_or(0, <[_]>::len))
        .sum();
    let failures = judge_all(&cases);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 45, "only {checked} claims checked");
}

#[test]
fn no_claim_fails_on_the_default_run_of_any_preset_on_seeds_1_to_3() {
    let mut cases = Vec::new();
    let mut skipped = Vec::new();
    for (_, preset) in scenarios::all_presets() {
        let seconds = scenarios::configure(preset.name, &[])
            .unwrap()
            .estimated_seconds();
        if seconds > MAX_SECONDS {
            skipped.push(preset.name);
            continue;
        }
        for seed in SEEDS {
            cases.push(Case {
                place: format!("{} seed {seed}", preset.name),
                preset: preset.name,
                pairs: vec![("seed", seed)],
                must_hold: None,
            });
        }
    }
    // Only the paper-size presets are left out (two today).
    assert!(skipped.len() <= 2, "left out: {skipped:?}");
    let failures = judge_all(&cases);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
