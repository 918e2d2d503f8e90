//! A long sweep survives being stopped: `dp-explorer sweep` killed (SIGKILL)
//! after some of its jobs finished keeps them in OUT/.jobs, and `sweep
//! --resume` computes only the others and writes the same bytes, file for
//! file, as an uninterrupted sweep. Resuming with other settings is refused
//! naming the setting, a damaged kept job naming its file, and a plain sweep
//! into a folder of kept jobs is refused rather than throwing them away. A
//! sweep that cannot skip jobs keeps none and `--resume` computes it whole.
// Native only: the CLI is not built for wasm32.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn dp_explorer() -> Command {
    Command::new(env!("CARGO_BIN_EXE_dp-explorer"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn run(args: &[&str]) -> Output {
    dp_explorer().args(args).output().unwrap()
}

fn run_ok(args: &[&str]) -> String {
    let output = run(args);
    assert!(
        output.status.success(),
        "{} failed:\n{}",
        args.join(" "),
        text(&output.stderr)
    );
    text(&output.stdout)
}

/// The message of a command that must be refused (exit 2).
fn refused(args: &[&str]) -> String {
    let output = run(args);
    assert_eq!(output.status.code(), Some(2), "{}", args.join(" "));
    text(&output.stderr)
}

/// The files of a sweep's output folder (the kept jobs' folder aside), by name.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut found: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            let name = p.file_name().unwrap().to_str().unwrap().to_string();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    found.sort();
    found
}

fn job_files(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = match std::fs::read_dir(dir.join(".jobs")) {
        Ok(entries) => entries
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let name = p.file_name().unwrap().to_str().unwrap();
                name.starts_with("job-") && name.ends_with(".part")
            })
            .collect(),
        Err(_) => Vec::new(),
    };
    found.sort();
    found
}

/// A Private FedRep sweep of 4 seeds × 6 runs (the reference, local GD,
/// Private FedRep and Priv-AltMin at 2 ε): 24 jobs, each seed's finishing
/// together after some hundred milliseconds.
const SWEEP: &[&str] = &[
    "sweep",
    "--preset",
    "fedrep-paper",
    "--set",
    "n=10000",
    "--set",
    "seeds=4",
    "--set",
    "epsilons=1,4",
];
const JOBS: usize = 24;

/// "kept K finished jobs of the interrupted sweep, computed C jobs" → (K, C).
fn kept_and_computed(stdout: &str) -> (usize, usize) {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("resumed: kept "))
        .unwrap_or_else(|| panic!("no resumed line in:\n{stdout}"));
    let numbers: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .collect();
    (numbers[0], numbers[1])
}

#[test]
fn a_killed_sweep_resumes_to_the_same_files_computing_only_the_missing_jobs() {
    let root = common::scratch("cli_resume", "killed");
    let (whole, stopped) = (root.join("whole"), root.join("stopped"));
    let with_out = |dir: &Path, extra: &[&str]| -> Vec<String> {
        let mut args: Vec<String> = SWEEP.iter().map(|a| a.to_string()).collect();
        args.extend(["--out".to_string(), s(dir).to_string()]);
        args.extend(extra.iter().map(|a| a.to_string()));
        args
    };

    run_ok(&strs(&with_out(&whole, &["--threads", "1"])));
    assert!(
        !whole.join(".jobs").exists(),
        "a finished sweep keeps no jobs"
    );

    // Killed once at least one job is kept, and before all are.
    let killed = with_out(&stopped, &["--threads", "1"]);
    let mut child = dp_explorer()
        .args(&killed)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while job_files(&stopped).is_empty() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the sweep ended before any job was kept"
        );
        assert!(started.elapsed() < Duration::from_secs(120));
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let kept = job_files(&stopped);
    assert!(
        !kept.is_empty() && kept.len() < JOBS,
        "{} of {JOBS} jobs kept",
        kept.len()
    );
    assert!(files(&stopped).is_empty(), "no result file before the end");

    // Other settings are refused, naming the setting; so is a plain sweep.
    let other = with_out(&stopped, &["--resume", "--set", "rounds=7"]);
    let message = refused(&strs(&other));
    assert!(
        message.contains("rounds:") && message.contains("7 now"),
        "{message}"
    );
    let again = with_out(&stopped, &[]);
    let message = refused(&strs(&again));
    assert!(message.contains("add --resume"), "{message}");
    assert_eq!(job_files(&stopped), kept, "a refusal keeps the kept jobs");

    // A damaged kept job is refused, naming its file (in a copy).
    let damaged = root.join("damaged");
    std::fs::create_dir_all(damaged.join(".jobs")).unwrap();
    for entry in std::fs::read_dir(stopped.join(".jobs")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, damaged.join(".jobs").join(path.file_name().unwrap())).unwrap();
    }
    let victim = damaged.join(".jobs").join(kept[0].file_name().unwrap());
    let mut bytes = std::fs::read(&victim).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&victim, bytes).unwrap();
    let resume_damaged = with_out(&damaged, &["--resume"]);
    let message = refused(&strs(&resume_damaged));
    assert!(message.contains(s(&victim)), "{message}");

    // Resumed (on two threads: the thread count is no setting), it computes
    // only the missing jobs and writes the uninterrupted sweep's bytes.
    let resumed = with_out(&stopped, &["--resume", "--threads", "2"]);
    let stdout = run_ok(&strs(&resumed));
    let (k, computed) = kept_and_computed(&stdout);
    assert_eq!(k, kept.len(), "{stdout}");
    assert_eq!(k + computed, JOBS, "{stdout}");
    assert!(
        !stopped.join(".jobs").exists(),
        "the kept jobs are removed at the end"
    );
    let (a, b) = (files(&whole), files(&stopped));
    assert_eq!(
        a.iter().map(|f| &f.0).collect::<Vec<_>>(),
        b.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        assert!(x == y, "{name} differs after resuming");
    }
}

/// A sweep that cannot skip jobs (DP-GD's keep no results between runs)
/// keeps none: `--resume` computes it whole, says so, and writes the same files.
#[test]
fn a_sweep_that_keeps_no_jobs_resumes_whole() {
    let root = common::scratch("cli_resume", "whole");
    let sweep = [
        "sweep",
        "--preset",
        "dpgd-quick",
        "--set",
        "n=20",
        "--set",
        "p_grid=5,10",
        "--set",
        "epsilons=1,2",
        "--set",
        "trace_p=none",
        "--out",
    ];
    let (a, b) = (root.join("a"), root.join("b"));
    run_ok(&[&sweep[..], &[s(&a)]].concat());
    let stdout = run_ok(&[&sweep[..], &[s(&b), "--resume"]].concat());
    assert!(stdout.contains("keeps no jobs"), "{stdout}");
    assert!(!b.join(".jobs").exists());
    assert_eq!(files(&a), files(&b));
}
