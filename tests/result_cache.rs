//! The page's result cache (`Configured::reuse`, `start_skipping`, `merge_beside`):
//! after a finished sweep, a sweep of settings that only append to the ε list
//! computes only the new runs and keeps the others' results; the kept results
//! beside the new ones must be exactly a full re-run's, bit for bit (the view
//! as JSON, whose numbers print every bit, and the whole part's bytes).

use dp_explorer::scenarios::{self, Configured, Coverage, Kept, Shard};

const PRESET: &str = "fedrep-paper";

/// Private FedRep's declared test size (`ScenarioInfo::test_size`) with two
/// seeds and Priv-AltMin: appending an ε renumbers later jobs (Priv-AltMin's,
/// the second seed's), so the kept results must be renumbered right.
fn base() -> Vec<(&'static str, &'static str)> {
    let (scenario, _) = scenarios::by_preset(PRESET).unwrap();
    let mut pairs = scenario.info().test_size.settings.to_vec();
    pairs.extend([("altmin", "on"), ("seeds", "2")]);
    pairs
}

fn settings(epsilons: &str) -> Vec<(&str, &str)> {
    let mut pairs = base();
    pairs.push(("epsilons", epsilons));
    pairs
}

fn configured(pairs: &[(&str, &str)]) -> Box<dyn Configured> {
    scenarios::configure(PRESET, pairs).unwrap()
}

/// Every shard of `count` run to the end (skipping `skip`), its parts.
fn parts(pairs: &[(&str, &str)], count: usize, skip: &[usize]) -> Vec<Vec<u8>> {
    (0..count)
        .map(|index| {
            let (_, mut run) =
                scenarios::start_skipping(PRESET, pairs, Shard { index, count }, skip).unwrap();
            while !run.step().unwrap() {}
            run.part()
        })
        .collect()
}

/// A full sweep's view (as JSON) and its whole part.
fn full(pairs: &[(&str, &str)]) -> (String, Vec<u8>) {
    let c = configured(pairs);
    let parts = parts(pairs, 2, &[]);
    let view = c.merge(&parts, Coverage::Whole).unwrap();
    let whole = c.whole_part(&parts, None).unwrap();
    (serde_json::to_string(&view).unwrap(), whole)
}

/// The sweep of `new` after one of `old` whose whole part is `old_whole`:
/// what it kept, its view (as JSON) and its whole part.
fn cached(
    old: &[(&str, &str)],
    old_whole: &[u8],
    new: &[(&str, &str)],
    shards: usize,
) -> (Kept, String, Vec<u8>) {
    let c = configured(new);
    let kept = c.reuse(configured(old).as_ref(), old_whole).unwrap();
    let parts = parts(new, shards, &kept.jobs);
    let view = c
        .merge_beside(&parts, Some(&kept), Coverage::Whole)
        .unwrap();
    let whole = c.whole_part(&parts, Some(&kept)).unwrap();
    (kept, serde_json::to_string(&view).unwrap(), whole)
}

/// The sweep of `new` (two ε's or risks of `old`, a third appended) after
/// `old`'s: it keeps every earlier run and equals a full re-run. Returns the
/// kept jobs, `new`'s whole part and `old`'s.
fn appending_keeps(old: &[(&str, &str)], new: &[(&str, &str)]) -> (Vec<usize>, Vec<u8>, Vec<u8>) {
    let (_, old_whole) = full(old);
    let (kept, view, whole) = cached(old, &old_whole, new, 2);
    // Per seed: FedRep, local GD, Private FedRep ×3, Priv-AltMin ×3 (jobs 0–7, 8–15);
    // new: Private FedRep and Priv-AltMin at the third ε of each seed.
    let new_jobs = [4, 7, 12, 15];
    let expected: Vec<usize> = (0..16).filter(|j| !new_jobs.contains(j)).collect();
    assert_eq!(kept.jobs, expected);
    let (full_view, full_whole) = full(new);
    assert!(
        view == full_view,
        "the cached sweep's view differs from a full re-run's"
    );
    assert_eq!(
        whole, full_whole,
        "the cached sweep's results differ from a full re-run's"
    );
    (expected, whole, old_whole)
}

#[test]
fn appending_an_epsilon_keeps_every_earlier_run_and_equals_a_full_rerun() {
    let new = settings("1,4,2");
    let (expected, whole, _) = appending_keeps(&settings("1,4"), &new);

    // The slider moved again: its value replaces the one it appended (same place, other ε):
    // that place's runs are new, the rest kept; one worker this time.
    let moved = settings("1,4,8");
    let (kept, view, whole) = cached(&new, &whole, &moved, 1);
    assert_eq!(kept.jobs, expected);
    let (full_view, full_whole) = full(&moved);
    assert!(
        view == full_view,
        "after a second move the view differs from a full re-run's"
    );
    assert_eq!(whole, full_whole);
}

#[test]
fn nothing_is_kept_when_another_setting_or_an_earlier_place_changes() {
    let old = settings("1,4");
    let (_, old_whole) = full(&old);
    let reuse = |old: &[(&str, &str)], new: &[(&str, &str)]| {
        configured(new).reuse(configured(old).as_ref(), &old_whole)
    };
    // Another n: every run's numbers change.
    let mut other = settings("1,4,2");
    other.retain(|(k, _)| *k != "n");
    other.push(("n", "240"));
    assert!(reuse(&old, &other).unwrap().jobs.is_empty());
    // ε = 4 moved to the first place: its noise seed changes, only the references are kept.
    let swapped = settings("4,1");
    let kept = reuse(&old, &swapped).unwrap();
    assert_eq!(kept.jobs, vec![0, 1, 6, 7]);
    // The results of other settings are refused as the old run's.
    assert!(reuse(&swapped, &old).is_err());
}

#[test]
fn a_shard_that_repeats_a_kept_job_is_refused() {
    let old = settings("1,4");
    let (_, old_whole) = full(&old);
    let new = settings("1,4,2");
    let c = configured(&new);
    let kept = c.reuse(configured(&old).as_ref(), &old_whole).unwrap();
    // The workers computed everything again: merged beside the kept results, jobs twice.
    let all = parts(&new, 1, &[]);
    let err = c
        .merge_beside(&all, Some(&kept), Coverage::Whole)
        .unwrap_err();
    assert!(
        err.to_string().contains("kept from the previous run"),
        "{err}"
    );
    // The kept results alone are not the whole sweep.
    assert!(c.merge_beside(&[], Some(&kept), Coverage::Whole).is_err());
}

#[test]
fn a_scenario_without_job_keys_keeps_nothing() {
    // A small DP-GD sweep, then the same with an ε appended.
    let dpgd = |epsilons| {
        let pairs = [
            ("n", "20"),
            ("p_grid", "5,10"),
            ("epsilons", epsilons),
            ("trace_p", "none"),
        ];
        scenarios::configure("dpgd-quick", &pairs).unwrap()
    };
    let old = dpgd("1");
    let mut run = old.start(Shard::WHOLE).unwrap();
    while !run.step().unwrap() {}
    let whole = old.whole_part(&[run.part()], None).unwrap();
    let new = dpgd("1,2");
    let kept = new.reuse(old.as_ref(), &whole).unwrap();
    assert!(kept.jobs.is_empty());
    // A configuration of another scenario keeps nothing of this one's run.
    let other = scenarios::configure(PRESET, &base()).unwrap();
    let kept = other.reuse(old.as_ref(), &whole).unwrap();
    assert!(kept.jobs.is_empty());
}

/// Risks as the target: appending a risk keeps every earlier run, exactly as
/// appending an ε does; an ε run of the same ε (the bits a risk implies) is
/// not a risk's run (its σ comes from another μ computation).
#[test]
fn appending_a_risk_keeps_every_earlier_run_and_equals_a_full_rerun() {
    let risks = |list: &'static str| {
        let mut pairs = base();
        pairs.push(("risks", list));
        pairs
    };
    let old = risks("0.05,0.2");
    let (_, _, old_whole) = appending_keeps(&old, &risks("0.05,0.2,0.1"));
    // The same ε list given as ε: only the non-private references are kept.
    let derived = configured(&old)
        .settings()
        .into_iter()
        .find(|(k, _)| *k == "epsilons")
        .unwrap()
        .1;
    let as_epsilons = settings(Box::leak(derived.into_boxed_str()));
    let kept = configured(&as_epsilons)
        .reuse(configured(&old).as_ref(), &old_whole)
        .unwrap();
    assert_eq!(kept.jobs, vec![0, 1, 6, 7]);
}
