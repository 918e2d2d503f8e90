//! A Private FedRep sweep split by users (every worker computes its share of
//! each pass over the users, then all apply every share in user order) gives
//! byte-for-byte the single-worker results, for several numbers of workers.

mod common;

use dp_explorer::scenarios::{self, Run, Shard};

/// More than one chunk of every pass (32768 users per chunk of the statistic,
/// rounds, final heads and local GD), small d for speed.
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

/// Workers whose chunks are handed out as they ask, as the page's pool does
/// (a counter per pass, reset when every worker has posted its partials),
/// worker w taking `speeds[w]` steps per turn so that fast workers take more
/// chunks; returns each worker's part and first file, and how many chunks of
/// every pass each worker computed.
fn run_handed_out(
    pairs: &[(&str, &str)],
    speeds: &[usize],
) -> (Vec<(Vec<u8>, String)>, Vec<usize>) {
    let count = speeds.len();
    let mut runs: Vec<Box<dyn Run>> = (0..count)
        .map(|index| {
            let (_, mut run) =
                scenarios::start_user_split("fedrep-paper", pairs, Shard { index, count }).unwrap();
            assert!(run.hand_out_chunks());
            run
        })
        .collect();
    let mut next_chunk = 0;
    // Claims in the order sent, as the pool answers them.
    let mut claims: Vec<std::collections::VecDeque<()>> = vec![Default::default(); count];
    let mut outbox: Vec<Option<Vec<u8>>> = vec![None; count];
    let mut computed = vec![0; count];
    while !runs.iter().all(|r| r.is_done()) {
        for (w, run) in runs.iter_mut().enumerate() {
            // The pool answers one claim of this worker per turn.
            if claims[w].pop_front().is_some() {
                run.grant(next_chunk).unwrap();
                next_chunk += 1;
            }
            for _ in 0..speeds[w] {
                if run.is_done() || run.waiting() {
                    break;
                }
                let before = run.progress().0;
                run.step().unwrap();
                computed[w] += usize::from(run.progress().0 > before);
            }
            while run.claim() {
                claims[w].push_back(());
            }
            if let Some(out) = run.take_outbox() {
                outbox[w] = Some(out);
            }
        }
        if outbox.iter().all(Option::is_some) {
            assert!(
                claims.iter().all(|c| c.is_empty()),
                "a claim open after a pass"
            );
            next_chunk = 0;
            let parts: Vec<Vec<u8>> = outbox.iter_mut().map(|o| o.take().unwrap()).collect();
            for run in runs.iter_mut() {
                run.deliver(&parts).unwrap();
            }
        }
    }
    for run in &runs {
        let (done, total) = run.progress();
        assert_eq!(done, total);
    }
    let results = runs
        .iter()
        .map(|r| (r.part(), r.view().files[0].text.clone()))
        .collect();
    (results, computed)
}

#[test]
fn chunks_handed_out_to_workers_of_unequal_speed_give_the_single_run() {
    let whole = common::finished("fedrep-paper", PAIRS, Shard::WHOLE);
    let (part, csv) = (whole.part(), whole.view().files[0].text.clone());
    for speeds in [vec![1], vec![1, 1], vec![3, 1], vec![1, 4, 2]] {
        let (results, computed) = run_handed_out(PAIRS, &speeds);
        for (worker, (p, c)) in results.into_iter().enumerate() {
            assert_eq!(c, csv, "speeds {speeds:?}, worker {worker}");
            assert_eq!(p, part, "speeds {speeds:?}, worker {worker}");
        }
        // The faster worker took more chunks (not a fixed share).
        if speeds == [3, 1] {
            assert!(computed[0] > computed[1], "{computed:?}");
        }
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
    let split = |pairs: &[(&str, &str)], workers| {
        scenarios::configure("fedrep-paper", pairs)
            .unwrap()
            .split_by_users(workers)
    };
    let big = [("n", "1000000"), ("epsilons", "1"), ("altmin", "off")];
    assert!(split(&big, 2));
    assert!(!split(&big, 1));
    // Priv-AltMin, small stored sweeps and many runs keep whole runs per worker.
    assert!(!split(&[], 2));
    assert!(!split(&[("altmin", "off")], 2));
    assert!(!split(&[("n", "1000000")], 2));
    assert!(
        scenarios::start_user_split("fedrep-paper", &[], Shard { index: 0, count: 2 }).is_err()
    );
    let dpgd = scenarios::configure("dpgd-browser", &[]).unwrap();
    assert!(!dpgd.split_by_users(2));
}
