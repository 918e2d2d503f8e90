//! A sweep spread over processes: `dp-explorer sweep --shard I/3` run three
//! times (separate processes, separate directories) and `dp-explorer merge`
//! give the same bytes, file for file, as one `sweep --threads 1`; for a
//! scenario that splits and for one that does not. And `merge` refuses a
//! missing share, a share given twice, shards of another sweep and a damaged
//! file, writing nothing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const SHARDS: usize = 3;

fn dp_explorer() -> Command {
    Command::new(env!("CARGO_BIN_EXE_dp-explorer"))
}

/// An empty scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cli_shard")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn succeeded(output: Output, what: &str) -> String {
    assert!(
        output.status.success(),
        "{what} failed:\n{}",
        text(&output.stderr)
    );
    text(&output.stdout)
}

fn run_ok(args: &[&str]) -> String {
    succeeded(dp_explorer().args(args).output().unwrap(), &args.join(" "))
}

/// The error message of a command that must fail.
fn run_err(args: &[&str]) -> String {
    let output = dp_explorer().args(args).output().unwrap();
    assert!(!output.status.success(), "{} succeeded", args.join(" "));
    text(&output.stderr)
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Runs shard I/3 of the sweep for every I, as separate processes at once,
/// into `root/0`, `root/1`, `root/2`.
fn run_shards(sweep: &[&str], root: &Path) -> Vec<PathBuf> {
    let dirs: Vec<PathBuf> = (0..SHARDS).map(|i| root.join(i.to_string())).collect();
    let children: Vec<_> = dirs
        .iter()
        .enumerate()
        .map(|(i, dir)| {
            let share = format!("{i}/{SHARDS}");
            dp_explorer()
                .args(sweep)
                .args(["--shard", &share, "--out", s(dir)])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for (i, child) in children.into_iter().enumerate() {
        succeeded(child.wait_with_output().unwrap(), &format!("shard {i}"));
    }
    dirs
}

fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Every file of `single` is in `merged` with the same bytes, and no other.
fn assert_same_files(single: &Path, merged: &Path) {
    let names = file_names(single);
    assert!(names.iter().any(|n| n == "results.csv"), "{names:?}");
    assert!(names.iter().any(|n| n.ends_with(".svg")), "{names:?}");
    assert_eq!(names, file_names(merged));
    for name in names {
        let (a, b) = (single.join(&name), merged.join(&name));
        assert!(
            std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap(),
            "{name} of the merged shards differs from the single run's"
        );
    }
}

/// The shard files' first lines: whether each share is empty.
fn empty_shares(dirs: &[PathBuf]) -> Vec<bool> {
    dirs.iter()
        .enumerate()
        .map(|(i, dir)| {
            let bytes = std::fs::read(dir.join(format!("shard-{i}-of-{SHARDS}.part"))).unwrap();
            let header = &bytes[..bytes.iter().position(|&b| b == b'\n').unwrap()];
            text(header).contains("\"empty\":true")
        })
        .collect()
}

/// `merge DIR... --out OUT`.
fn merge_args<'a>(dirs: &[&'a Path], out: &'a Path) -> Vec<&'a str> {
    let mut args = vec!["merge"];
    args.extend(dirs.iter().map(|d| s(d)));
    args.extend(["--out", s(out)]);
    args
}

/// One `sweep --threads 1` and three shards merged; the shards' emptiness.
fn single_and_merged(name: &str, sweep: &[&str]) -> Vec<bool> {
    let root = scratch(name);
    let single = root.join("single");
    let merged = root.join("merged");
    run_ok(&[sweep, &["--threads", "1", "--out", s(&single)]].concat());
    let dirs = run_shards(sweep, &root.join("shards"));
    let shards: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
    let said = run_ok(&merge_args(&shards, &merged));
    assert!(said.contains("merged 3 shards"), "{said}");
    assert_same_files(&single, &merged);
    empty_shares(&dirs)
}

#[test]
fn a_split_sweep_merged_from_three_processes_is_byte_identical() {
    // One setting from a --config file: the shard files carry it to the merge.
    let root = scratch("fedrep-config");
    let config = root.join("config.json");
    std::fs::write(&config, r#"{"preset": "fedrep-paper", "n": 2000}"#).unwrap();
    let sweep = ["sweep", "--config", s(&config), "--set", "epsilons=1,4"];
    let empty = single_and_merged("fedrep", &sweep);
    assert_eq!(empty, [false; SHARDS], "every shard has runs");
}

#[test]
fn a_sweep_split_by_width_merges_byte_identically() {
    // DP-GD's shards take whole (seed, width) groups, the costliest first.
    let empty = single_and_merged("dpgd", &["sweep", "--preset", "dpgd-quick"]);
    assert_eq!(empty, [false; SHARDS], "every shard has widths");
}

#[test]
fn a_sweep_that_does_not_split_runs_in_shard_0_and_merges_byte_identically() {
    let empty = single_and_merged("classifier", &["sweep", "--preset", "jl-exact"]);
    assert_eq!(empty, [false, true, true]);
}

#[test]
fn merge_refuses_what_is_not_one_whole_sweep_and_writes_nothing() {
    let root = scratch("refusals");
    let sweep = [
        "sweep",
        "--preset",
        "fedrep-linear-sim",
        "--set",
        "rounds=60",
    ];
    let d = run_shards(&sweep, &root.join("shards"));
    let out = root.join("merged");

    let missing = run_err(&merge_args(&[&d[0], &d[2]], &out));
    assert!(missing.contains("shard 1 of 3 is missing"), "{missing}");
    assert!(missing.contains("--shard 1/3"), "{missing}");

    let other = root.join("other");
    run_ok(
        &[
            &sweep[..],
            &["--set", "rounds=50", "--shard", "1/3", "--out", s(&other)],
        ]
        .concat(),
    );
    let mismatched = run_err(&merge_args(&[&d[0], &other, &d[2]], &out));
    assert!(
        mismatched.contains("first difference: rounds: 50 against 60"),
        "{mismatched}"
    );

    let dup = root.join("dup");
    std::fs::create_dir_all(&dup).unwrap();
    std::fs::copy(
        d[1].join("shard-1-of-3.part"),
        dup.join("shard-1-of-3.part"),
    )
    .unwrap();
    let twice = run_err(&merge_args(&[&d[0], &d[1], &d[2], &dup], &out));
    assert!(twice.contains("shard 1 of 3 is given twice"), "{twice}");

    let four = root.join("four");
    run_ok(&[&sweep[..], &["--shard", "3/4", "--out", s(&four)]].concat());
    let counts = run_err(&merge_args(&[&d[0], &d[1], &d[2], &four], &out));
    assert!(counts.contains("is one of 4 shards"), "{counts}");

    let cut = root.join("cut");
    std::fs::create_dir_all(&cut).unwrap();
    let bytes = std::fs::read(d[2].join("shard-2-of-3.part")).unwrap();
    std::fs::write(cut.join("shard-2-of-3.part"), &bytes[..bytes.len() - 10]).unwrap();
    let truncated = run_err(&merge_args(&[&d[0], &d[1], &cut], &out));
    assert!(truncated.contains("is truncated"), "{truncated}");

    let none = run_err(&merge_args(&[&root], &out));
    assert!(none.contains("holds no shard file"), "{none}");

    assert!(!out.exists(), "a refused merge wrote {}", out.display());
}

#[test]
fn sweep_refuses_a_share_that_does_not_exist() {
    let out = scratch("bad-shares").join("out");
    for (share, says) in [
        ("3/2", "numbered 0 to 1"),
        ("a/b", "whole number"),
        ("0/0", "between 1 and"),
        ("2", "I/N"),
    ] {
        let error = run_err(&[
            "sweep",
            "--preset",
            "dpgd-quick",
            "--shard",
            share,
            "--out",
            s(&out),
        ]);
        assert!(
            error.contains("--shard") && error.contains(says),
            "{share}: {error}"
        );
    }
    let both = run_err(&[
        "sweep",
        "--preset",
        "dpgd-quick",
        "--shard",
        "0/2",
        "--threads",
        "2",
        "--out",
        s(&out),
    ]);
    assert!(both.contains("cannot be used with"), "{both}");
    assert!(!out.exists());
}
