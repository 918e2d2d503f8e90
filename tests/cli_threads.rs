//! `sweep --threads N` gives the same bytes, file for file, as `--threads 1`
//! where the threads work inside the runs (issue 44): a FedRep sweep of one
//! large run split by users (every thread takes chunks of each pass as it
//! frees up), and a DP-GD sweep of one width on more threads than jobs (the
//! idle threads lent to its feature blocks and steps' bands).
// Native only: the CLI is not built for wasm32.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::path::Path;
use std::process::Command;

fn sweep(args: &[&str], threads: &str, out: &Path) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_dp-explorer"))
        .arg("sweep")
        .args(args)
        .args(["--threads", threads, "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    assert!(output.status.success(), "{}", text(&output.stderr));
    text(&output.stdout)
}

/// Every file of `a` is in `b` with the same bytes, and no other.
fn assert_same_files(a: &Path, b: &Path) {
    let names = |d: &Path| {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    let files = names(a);
    assert!(files.iter().any(|n| n == "results.csv"), "{files:?}");
    assert_eq!(files, names(b));
    for name in files {
        assert!(
            std::fs::read(a.join(&name)).unwrap() == std::fs::read(b.join(&name)).unwrap(),
            "{name} differs"
        );
    }
}

/// The sweep `--preset preset --set s` (for each of `sets`) at `--threads 1`
/// and at each of `threads`, each into its own folder of the scratch
/// directory `name`: every run writes the one-thread run's files. What each
/// printed, the one-thread run's first.
fn same_files_on_threads(name: &str, preset: &str, sets: &[&str], threads: &[&str]) -> Vec<String> {
    let mut args = vec!["--preset", preset];
    for set in sets {
        args.extend(["--set", set]);
    }
    let root = common::scratch("cli_threads", name);
    let one = root.join("one");
    let mut said = vec![sweep(&args, "1", &one)];
    for threads in threads {
        let many = root.join(threads);
        said.push(sweep(&args, threads, &many));
        assert_same_files(&one, &many);
    }
    said
}

#[test]
fn a_sweep_split_by_users_over_threads_gives_one_threads_files() {
    // Streamed data (n·m·d·8 bytes over the store limit), one ε, no
    // Priv-AltMin: the cost model shares every run's users.
    let threads = ["2", "5"];
    let said = same_files_on_threads(
        "users",
        "fedrep-paper",
        &[
            "n=70000",
            "d=50",
            "epsilons=1",
            "altmin=off",
            "rounds=2",
            "seed=5",
        ],
        &threads,
    );
    assert!(!said[0].contains("split by users"), "{}", said[0]);
    for (threads, said) in threads.iter().zip(&said[1..]) {
        assert!(
            said.contains(&format!("on {threads} threads, split by users")),
            "{said}"
        );
    }
}

#[test]
fn one_width_on_more_threads_than_jobs_gives_one_threads_files() {
    // One kernel-path width at n ≥ dense::SECOND_CORE_MIN_M (the steps cut K
    // in two bands) and p > the feature block (blocks computed ahead).
    same_files_on_threads(
        "dpgd",
        "dpgd-quick",
        &[
            "n=1100",
            "d=8",
            "n_test=50",
            "p_grid=1700",
            "trace_p=none",
            "epsilons=4",
        ],
        &["3"],
    );
}
