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

/// `--preset preset --set s` for each of `sets`.
fn sweep_args(preset: &str, sets: &[&str]) -> Vec<String> {
    let mut args = vec!["--preset".to_string(), preset.to_string()];
    for set in sets {
        args.extend(["--set".to_string(), set.to_string()]);
    }
    args
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

#[test]
fn a_sweep_split_by_users_over_threads_gives_one_threads_files() {
    // Streamed data (n·m·d·8 bytes over the store limit), one ε, no
    // Priv-AltMin: the cost model shares every run's users.
    let args = sweep_args(
        "fedrep-paper",
        &[
            "n=70000",
            "d=50",
            "epsilons=1",
            "altmin=off",
            "rounds=2",
            "seed=5",
        ],
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let root = common::scratch("cli_threads", "users");
    let one = root.join("one");
    let said = sweep(&args, "1", &one);
    assert!(!said.contains("split by users"), "{said}");
    for threads in ["2", "5"] {
        let many = root.join(threads);
        let said = sweep(&args, threads, &many);
        assert!(
            said.contains(&format!("on {threads} threads, split by users")),
            "{said}"
        );
        assert_same_files(&one, &many);
    }
}

#[test]
fn one_width_on_more_threads_than_jobs_gives_one_threads_files() {
    // One kernel-path width at n ≥ dense::SECOND_CORE_MIN_M (the steps cut K
    // in two bands) and p > the feature block (blocks computed ahead).
    let args = sweep_args(
        "dpgd-quick",
        &[
            "n=1100",
            "d=8",
            "n_test=50",
            "p_grid=1700",
            "trace_p=none",
            "epsilons=4",
        ],
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let root = common::scratch("cli_threads", "dpgd");
    let one = root.join("one");
    sweep(&args, "1", &one);
    let many = root.join("3");
    sweep(&args, "3", &many);
    assert_same_files(&one, &many);
}
