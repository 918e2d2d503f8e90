//! Claims that check themselves (`src/scenarios/claims.rs`): every lesson step
//! states claims, and each holds on the step's own run (its preset and
//! settings, made test-sized by `test_settings` where the claim survives it).
//! A claim that cannot be made to hold honestly is rewritten, not loosened.

use dp_explorer::scenarios::claims::{judge, Status};
use dp_explorer::scenarios::{self, Coverage, Shard, SCENARIOS};

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

/// One lesson step's run and the verdicts of its claims: failures as text.
fn check_step(
    scenario: &dyn dp_explorer::scenarios::Scenario,
    step: &dp_explorer::scenarios::LessonStep,
) -> Vec<String> {
    let id = scenario.info().id;
    let mut pairs: Vec<(&str, &str)> = step.settings.to_vec();
    for &(k, v) in step.test_settings {
        pairs.retain(|(key, _)| *key != k);
        pairs.push((k, v));
    }
    let (scenario, mut run) = scenarios::start(step.preset, &pairs, Shard::WHOLE)
        .unwrap_or_else(|e| panic!("{id}: step “{}”: {e:?}", step.title));
    scenarios::run_to_end(run.as_mut()).unwrap();
    let verdicts = judge(scenario.info().claims, &run.view());
    step.claims
        .iter()
        .filter_map(|cid| {
            let v = verdicts.iter().find(|v| v.id == *cid)?;
            (v.status != Status::Held).then(|| {
                format!(
                    "{id} step “{}”: {} is {} ({})",
                    step.title,
                    v.id,
                    v.status.name(),
                    v.numbers
                )
            })
        })
        .collect()
}

#[test]
fn every_lesson_steps_claims_hold_on_its_run() {
    let steps: Vec<_> = SCENARIOS
        .iter()
        .flat_map(|s| s.info().lesson.iter().map(move |st| (*s, st)))
        .collect();
    let checked: usize = steps.iter().map(|(_, st)| st.claims.len()).sum();
    // Two threads (the machine's cores) take the steps in turn.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((s, step)) = steps.get(i) else {
                            return out;
                        };
                        out.extend(check_step(*s, step));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 15, "only {checked} claims checked");
}

#[test]
fn a_finished_runs_snapshot_carries_the_verdicts_and_a_running_one_does_not() {
    let pairs = [("n", "2000"), ("altmin", "off"), ("epsilons", "1,8")];
    let (s, mut run) = scenarios::start("fedrep-paper", &pairs, Shard::WHOLE).unwrap();
    let id = s.info().id;
    assert!(scenarios::snapshot(id, run.as_ref()).view.claims.is_empty());
    scenarios::run_to_end(run.as_mut()).unwrap();
    let snap = scenarios::snapshot(id, run.as_ref());
    assert_eq!(snap.view.claims.len(), s.info().claims.len());
    // The merged view of the same run's part is judged the same way.
    let merged =
        scenarios::merge_judged(s, "fedrep-paper", &pairs, &[run.part()], Coverage::Whole).unwrap();
    assert_eq!(merged.claims, snap.view.claims);
}
