//! A Private FedRep sweep split by users (every worker computes its share of
//! each pass over the users, then all apply every share in user order) gives
//! byte-for-byte the single-worker results, for several numbers of workers.

mod common;

use dp_explorer::scenarios::{self, Run, Shard};

/// More than one chunk of every pass (32768 users per chunk of the statistic,
/// rounds and final heads; 10000 per chunk of local GD), small d for speed.
const PAIRS: &[(&str, &str)] = &[
    ("n", "70000"),
    ("d", "5"),
    ("k", "2"),
    ("m", "10"),
    ("rounds", "2"),
    ("epsilons", "1,4"),
    ("altmin", "off"),
];

/// Steps `count` workers in lockstep, relaying their partials after every pass
/// as the page's pool does; returns each worker's part and first file.
fn run_split(pairs: &[(&str, &str)], count: usize) -> Vec<(Vec<u8>, String)> {
    let mut runs: Vec<Box<dyn Run>> = (0..count)
        .map(|index| {
            scenarios::start_user_split("fedrep-paper", pairs, Shard { index, count })
                .map(|(_, run)| run)
                .map_err(|e| format!("{e:?}"))
                .unwrap()
        })
        .collect();
    loop {
        let mut outbox = vec![None; count];
        for (run, out) in runs.iter_mut().zip(outbox.iter_mut()) {
            while !run.is_done() && !run.waiting() {
                run.step().unwrap();
            }
            *out = run.take_outbox();
        }
        if runs.iter().all(|r| r.is_done()) {
            break;
        }
        // Every worker waits on the same pass: none may be done while another waits.
        assert!(runs.iter().all(|r| r.waiting()), "workers out of step");
        let parts: Vec<Vec<u8>> = outbox.into_iter().map(|o| o.unwrap()).collect();
        for run in runs.iter_mut() {
            run.deliver(&parts).unwrap();
        }
    }
    for run in &runs {
        let (done, total) = run.progress();
        assert_eq!(done, total);
    }
    runs.iter()
        .map(|r| (r.part(), r.view().files[0].text.clone()))
        .collect()
}

#[test]
fn user_split_equals_the_single_run() {
    let whole = common::finished("fedrep-paper", PAIRS, Shard::WHOLE);
    let (part, csv) = (whole.part(), whole.view().files[0].text.clone());
    assert!(csv.lines().count() == 5, "{csv}");
    for count in [1, 2, 3, 4] {
        for (worker, (p, c)) in run_split(PAIRS, count).into_iter().enumerate() {
            assert_eq!(c, csv, "{count} workers, worker {worker}");
            assert_eq!(p, part, "{count} workers, worker {worker}");
        }
    }
}

#[test]
fn a_streamed_user_split_equals_the_single_run() {
    // n·m·d·8 bytes over the store limit: every pass regenerates its users.
    let pairs = [
        ("n", "70000"),
        ("d", "50"),
        ("epsilons", "1"),
        ("altmin", "off"),
        ("rounds", "2"),
        ("seed", "5"),
    ];
    let whole = common::finished("fedrep-paper", &pairs, Shard::WHOLE);
    let csv = whole.view().files[0].text.clone();
    for (worker, (p, c)) in run_split(&pairs, 2).into_iter().enumerate() {
        assert_eq!(c, csv, "worker {worker}");
        assert_eq!(p, whole.part(), "worker {worker}");
    }
}

#[test]
fn partials_from_a_wrong_group_are_refused() {
    let (_, mut run) =
        scenarios::start_user_split("fedrep-paper", PAIRS, Shard { index: 0, count: 2 }).unwrap();
    assert!(run.deliver(&[]).is_err(), "nothing waits yet");
    while !run.waiting() {
        run.step().unwrap();
    }
    let mine = run.take_outbox().unwrap();
    assert!(run.take_outbox().is_none(), "taken once");
    assert!(
        run.deliver(std::slice::from_ref(&mine)).is_err(),
        "one worker's partials of two"
    );
    assert!(
        run.deliver(&[mine.clone(), vec![1, 2, 3]]).is_err(),
        "unreadable partials"
    );
    assert!(
        run.deliver(&[mine.clone(), mine.clone()]).is_err(),
        "chunks missing"
    );
    // Refused partials leave the run waiting for the right ones.
    assert!(run.waiting() && !run.is_done());
}

#[test]
fn the_cost_model_splits_one_big_run_by_users() {
    let (s, _) = scenarios::by_preset("fedrep-paper").unwrap();
    let big = [("n", "1000000"), ("epsilons", "1"), ("altmin", "off")];
    assert!(s.split_by_users("fedrep-paper", &big, 2));
    assert!(!s.split_by_users("fedrep-paper", &big, 1));
    // Priv-AltMin, small stored sweeps and many runs keep whole runs per worker.
    assert!(!s.split_by_users("fedrep-paper", &[], 2));
    assert!(!s.split_by_users("fedrep-paper", &[("altmin", "off")], 2));
    assert!(!s.split_by_users("fedrep-paper", &[("n", "1000000")], 2));
    assert!(
        scenarios::start_user_split("fedrep-paper", &[], Shard { index: 0, count: 2 }).is_err()
    );
    let (dpgd, name) = scenarios::by_preset("dpgd-browser").unwrap();
    assert!(!dpgd.split_by_users(name, &[], 2));
}
