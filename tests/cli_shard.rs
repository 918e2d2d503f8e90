//! A sweep spread over processes: `dp-explorer sweep --shard I/3` run three
//! times (separate processes, separate directories) and `dp-explorer merge`
//! give the same bytes, file for file, as one `sweep --threads 1`; for a
//! scenario that splits and for one that does not. And `merge` refuses a
//! missing share, a share given twice, shards of another sweep and a damaged
//! file, writing nothing; in every scenario, the issue's edited and relabelled
//! shares (a header edited with or without its digest recomputed, a share of
//! another seed, a part that does not decode) are refused naming the file.
// Native only: the CLI (`dp_explorer::cli`) is not built for wasm32 (the wasm tests' cargo build covers every target).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use dp_explorer::cli::shard;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const SHARDS: usize = 3;

fn dp_explorer() -> Command {
    Command::new(env!("CARGO_BIN_EXE_dp-explorer"))
}

/// An empty scratch directory for one test of this file.
fn scratch(name: &str) -> PathBuf {
    common::scratch("cli_shard", name)
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

/// Every scenario's small sweep (the issue's configs; DP-GD with three widths
/// so that each of three shards has one).
const SMALL_SWEEPS: &[&[&str]] = &[
    &[
        "--preset",
        "fedrep-paper",
        "--set",
        "n=200",
        "--set",
        "d=10",
        "--set",
        "k=2",
        "--set",
        "m=10",
        "--set",
        "rounds=3",
        "--set",
        "epsilons=1,4",
        "--set",
        "local_steps=3",
        "--set",
        "altmin_rounds=2",
    ],
    &[
        "--preset",
        "dpgd-quick",
        "--set",
        "n=20",
        "--set",
        "p_grid=5,10,20",
        "--set",
        "epsilons=1,2",
        "--set",
        "trace_p=none",
    ],
    &[
        "--preset",
        "jl-random",
        "--set",
        "n=50",
        "--set",
        "m=10",
        "--set",
        "candidates=20",
        "--set",
        "d_grid=none",
        "--set",
        "candidate_grid=none",
        "--set",
        "test_points=10",
        "--set",
        "epsilons=1,3",
    ],
    &[
        "--preset",
        "flute-private",
        "--set",
        "n=12",
        "--set",
        "m=10",
        "--set",
        "rounds=20",
        "--set",
        "private_rounds=5",
        "--set",
        "epsilons=1,4",
    ],
    &[
        "--preset",
        "trace-paper",
        "--set",
        "n=1000,2000",
        "--set",
        "repeats=2",
        "--set",
        "epsilons=1,2",
        "--set",
        "iterations=3",
    ],
];

/// The shard file's header line edited as text (`sed -i '1s/from/to/'`), the
/// digest left as it was.
fn sed_header(path: &Path, edit: impl Fn(&str) -> String) {
    let bytes = std::fs::read(path).unwrap();
    let end = bytes.iter().position(|&b| b == b'\n').unwrap();
    let line = edit(&text(&bytes[..end]));
    assert_ne!(line.as_bytes(), &bytes[..end], "the edit changed nothing");
    let mut edited = line.into_bytes();
    edited.extend_from_slice(&bytes[end..]);
    std::fs::write(path, edited).unwrap();
}

/// The epsilons of a header as 2,8 (as the issue's sed does).
fn epsilons_2_8(line: &str) -> String {
    let at = line.find("[\"epsilons\",\"").unwrap() + "[\"epsilons\",\"".len();
    let end = at + line[at..].find('"').unwrap();
    format!("{}2,8{}", &line[..at], &line[end..])
}

/// The shard file relabelled with its digest recomputed, as a careful edit
/// would: `edit` changes the header, `part` (if given) replaces the results.
fn relabel(path: &Path, edit: impl FnOnce(&mut shard::Header), part: Option<Vec<u8>>) {
    let file = shard::read(path).unwrap();
    let mut header = file.header;
    edit(&mut header);
    let part = part.unwrap_or(file.part);
    header.part_bytes = part.len();
    header.digest = shard::digest(&header, &part).unwrap();
    std::fs::write(path, shard::encode(&header, &part).unwrap()).unwrap();
}

fn shard_file(dir: &Path, index: usize, count: usize) -> PathBuf {
    dir.join(format!("shard-{index}-of-{count}.part"))
}

/// `merge` of `dirs` fails naming `file`, and writes nothing.
fn refused_naming(dirs: &[&Path], out: &Path, file: &Path, what: &str) -> String {
    let error = run_err(&merge_args(dirs, out));
    assert!(
        error.contains(s(file)),
        "{what}: the refusal does not name {}: {error}",
        file.display()
    );
    assert!(
        !out.exists(),
        "{what}: a refused merge wrote {}",
        out.display()
    );
    error
}

#[test]
fn the_issues_edited_and_relabelled_shares_are_refused_naming_the_file_in_every_scenario() {
    for sweep_args in SMALL_SWEEPS {
        let preset = sweep_args[1];
        let root = scratch(&format!("repro-{preset}"));
        let sweep = [&["sweep"][..], sweep_args].concat();
        let out = root.join("merged");
        let share = |name: &str, index: usize, count: usize, extra: &[&str]| -> PathBuf {
            let dir = root.join(name);
            let shard = format!("{index}/{count}");
            run_ok(&[&sweep[..], extra, &["--shard", &shard, "--out", s(&dir)]].concat());
            dir
        };

        // The issue's first command: ε = 1, 4 relabelled as 2, 8 by sed.
        let m1 = share("m1", 0, 1, &[]);
        let file = shard_file(&m1, 0, 1);
        sed_header(&file, epsilons_2_8);
        let error = refused_naming(&[&m1], &out, &file, preset);
        assert!(error.contains("damaged or was edited"), "{error}");
        // The same relabelling with the digest recomputed: the part's
        // fingerprints are those of ε = 1, 4.
        let m1 = share("m1-digest", 0, 1, &[]);
        let file = shard_file(&m1, 0, 1);
        relabel(
            &file,
            |h| {
                for (k, v) in &mut h.settings {
                    if k == "epsilons" {
                        *v = "2,8".into();
                    }
                }
            },
            None,
        );
        let error = refused_naming(&[&m1], &out, &file, preset);
        assert!(error.contains("computed from other settings"), "{error}");

        // The issue's second: two of three shares relabelled as the two of two.
        let d: Vec<PathBuf> = (0..3).map(|i| share(&format!("s{i}"), i, 3, &[])).collect();
        for (i, dir) in d.iter().take(2).enumerate() {
            sed_header(&shard_file(dir, i, 3), |l| {
                l.replace("\"shards\":3", "\"shards\":2")
            });
        }
        refused_naming(&[&d[0], &d[1]], &out, &shard_file(&d[0], 0, 3), preset);
        let d: Vec<PathBuf> = (0..3).map(|i| share(&format!("t{i}"), i, 3, &[])).collect();
        for (i, dir) in d.iter().take(2).enumerate() {
            relabel(&shard_file(dir, i, 3), |h| h.shards = 2, None);
        }
        let (scenario, _) = dp_explorer::scenarios::by_preset(preset).unwrap();
        if scenario.info().splits {
            let error = refused_naming(&[&d[0], &d[1]], &out, &shard_file(&d[0], 0, 3), preset);
            assert!(error.contains("computed as shard 0 of 3"), "{error}");
        } else {
            // Shard 0 of a sweep that does not split holds all of it: the
            // relabelled pair is still the whole sweep, byte for byte.
            let single = root.join("single");
            run_ok(&[&sweep[..], &["--threads", "1", "--out", s(&single)]].concat());
            run_ok(&merge_args(&[&d[0], &d[1]], &out));
            assert_same_files(&single, &out);
            std::fs::remove_dir_all(&out).unwrap();
        }

        // A share of another seed relabelled with this sweep's header.
        let other = share("other-seed", 0, 1, &["--seed", "5"]);
        let file = shard_file(&other, 0, 1);
        let settings = shard::read(&shard_file(&m1, 0, 1)).unwrap().header.settings;
        let mine: Vec<(String, String)> = settings
            .into_iter()
            .map(|(k, v)| (k, if v == "2,8" { "1,4".into() } else { v }))
            .collect();
        relabel(&file, |h| h.settings = mine.clone(), None);
        let error = refused_naming(&[&other], &out, &file, preset);
        assert!(error.contains("computed from other settings"), "{error}");

        // A part that does not decode, under a recomputed digest.
        let bad = share("bad-part", 0, 1, &[]);
        let file = shard_file(&bad, 0, 1);
        relabel(&file, |_| {}, Some(vec![0xff; 7]));
        let error = refused_naming(&[&bad], &out, &file, preset);
        assert!(error.contains("could not be read"), "{error}");
    }
}

/// The kernels' build switch never falls back silently: a value it cannot
/// honour stops the CLI with a message naming it (exit 2), a known one runs.
#[cfg(target_arch = "x86_64")]
#[test]
fn an_unknown_simd_build_is_refused_by_name() {
    let output = dp_explorer()
        .env("DP_EXPLORER_SIMD", "avx3")
        .args(["account", "--epsilon", "1", "--delta", "1e-5"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    let message = text(&output.stderr);
    assert!(
        message.contains("DP_EXPLORER_SIMD=\"avx3\"") && message.contains("avx2 or scalar"),
        "{message}"
    );
    let scalar = dp_explorer()
        .env("DP_EXPLORER_SIMD", "scalar")
        .args(["account", "--epsilon", "1", "--delta", "1e-5"])
        .output()
        .unwrap();
    succeeded(scalar, "account with DP_EXPLORER_SIMD=scalar");
}

/// The sweep's estimate is scaled by this machine's probe (src/cli/machine.rs)
/// and the summary says by how much, per kind of work. (Whether the dense
/// chunk sees the vector units is measured in release builds:
/// docs/performance.md; a debug build under load does not resolve it.)
#[test]
fn the_sweep_estimate_names_this_machines_probe() {
    let out = scratch("probe");
    let output = dp_explorer()
        .args(["sweep", "--preset", "dpgd-quick", "--out", s(&out)])
        .output()
        .unwrap();
    let summary = succeeded(output, "sweep --preset dpgd-quick");
    let line = summary
        .lines()
        .find(|l| l.starts_with("sweep took"))
        .unwrap_or_else(|| panic!("no timing line in {summary}"));
    for kind in ["scalar work", "dense"] {
        let at = line
            .find(&format!("{kind} "))
            .unwrap_or_else(|| panic!("{kind}: {line}"));
        let rest = &line[at + kind.len() + 1..];
        // The factor is a number (clamped to [0.25, 16] by Machine::from_probe).
        let _factor: f64 = rest[..rest.find('×').expect(line)].parse().expect(line);
    }
}
