//! What the CLI says about privacy, through the binary: a sweep whose δ is at
//! least 1/n says so in its summary (any scenario; DP-GD's presets all use the
//! paper's δ = 1/n).

mod common;

use std::path::Path;
use std::process::Command;

fn dp_explorer(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dp-explorer"))
        .args(args)
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

/// `command` on the [`QUICK`] sweep, then `extra` and `--out out`: it must
/// succeed; what it printed.
fn quick(command: &str, extra: &[&str], out: &Path) -> String {
    let mut args = vec![command];
    args.extend(QUICK);
    args.extend(extra);
    args.extend(["--out", out.to_str().unwrap()]);
    let (ok, stdout, stderr) = dp_explorer(&args);
    assert!(ok, "{stderr}");
    stdout
}

#[test]
fn a_sweep_at_delta_one_over_n_warns_and_one_below_does_not() {
    let warning = "warning: δ = 0.01 ≥ 1/n (n = 100)";
    let out = common::scratch("cli_privacy", "one-over-n");
    let stdout = quick("sweep", &["--threads", "1"], &out);
    assert_eq!(stdout.matches(warning).count(), 1, "{stdout}");

    let out = common::scratch("cli_privacy", "below");
    let stdout = quick("sweep", &["--threads", "1", "--set", "delta=1e-4"], &out);
    assert!(!stdout.contains("warning: δ"), "{stdout}");
}

/// `account --tpr T --fpr A`: μ of the Gaussian curve through (A, T), σ per
/// release for K releases and the exact ε at δ (Kulynych & Gomez 2024).
#[test]
fn account_by_risk_gives_mu_sigma_and_epsilon() {
    let args = [
        "account", "--tpr", "0.1", "--fpr", "0.01", "--delta", "1e-6", "--steps", "5", "--json",
    ];
    let (ok, stdout, stderr) = dp_explorer(&args);
    assert!(ok, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let num = |k: &str| v[k].as_f64().unwrap_or_else(|| panic!("{k}: {v}"));
    // Φ⁻¹(0.99) − Φ⁻¹(0.90), from tables: 2.326348 − 1.281552.
    let mu = 2.326_347_874 - 1.281_551_566;
    assert!((num("mu") - mu).abs() < 1e-8, "{v}");
    assert!((num("sigma") - 5f64.sqrt() / mu).abs() < 1e-7, "{v}");
    assert!(((num("epsilon") - 5.136816) / 5.136816).abs() < 1e-6, "{v}");
    assert_eq!(num("epsilon"), num("exact"));
    assert!(num("rdp") > num("epsilon") && num("zcdp") > num("epsilon"));
    assert!((num("epsilon_pure") - 10f64.ln()).abs() < 1e-12);
}

#[test]
fn account_by_risk_refuses_bad_values_naming_the_flag() {
    for (argv, flag) in [
        (["--tpr", "0.1", "--fpr", "0.2", "--delta", "1e-6"], "--tpr"),
        (["--tpr", "1", "--fpr", "0.01", "--delta", "1e-6"], "--tpr"),
        (["--tpr", "0.1", "--fpr", "0", "--delta", "1e-6"], "--fpr"),
        (["--tpr", "0.1", "--fpr", "nan", "--delta", "1e-6"], "--fpr"),
        (["--tpr", "0.1", "--fpr", "0.01", "--delta", "2"], "--delta"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_dp-explorer"))
            .arg("account")
            .args(argv)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{argv:?}: {stderr}");
        assert!(stderr.contains(flag), "{argv:?}: {stderr}");
    }
}

/// The statement names the relation, δ, the accountant and the unit of privacy.
fn assert_statement(dir: &Path, delta: &str, unit: &str) {
    let path = dir.join("privacy-statement.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    for needle in [
        "Neighbouring relation: replace-one",
        &format!("at δ = {delta}"),
        "Accountant: exact Gaussian DP composition",
        &format!("Unit of privacy: one {unit}"),
        "Not covered:",
    ] {
        assert!(text.contains(needle), "{needle:?} not in:\n{text}");
    }
}

/// A DP-GD sweep of two widths and one ε (a second or so in debug).
const QUICK: [&str; 8] = [
    "--preset",
    "dpgd-quick",
    "--set",
    "p_grid=20,200",
    "--set",
    "trace_p=",
    "--set",
    "epsilons=1",
];

#[test]
fn sweep_and_merge_write_a_privacy_statement() {
    let single = common::scratch("cli_privacy", "statement-sweep");
    quick("sweep", &["--set", "delta=1e-4", "--threads", "1"], &single);
    assert_statement(&single, "1e-4", "training sample");

    let root = common::scratch("cli_privacy", "statement-merge");
    let shards: Vec<_> = (0..2).map(|i| root.join(i.to_string())).collect();
    for (i, dir) in shards.iter().enumerate() {
        let share = format!("{i}/2");
        quick("sweep", &["--set", "delta=1e-4", "--shard", &share], dir);
    }
    let merged = root.join("merged");
    let (ok, _, stderr) = dp_explorer(&[
        "merge",
        shards[0].to_str().unwrap(),
        shards[1].to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    assert_statement(&merged, "1e-4", "training sample");
    let read = |d: &Path| std::fs::read(d.join("privacy-statement.txt")).unwrap();
    assert_eq!(read(&single), read(&merged));
}

#[test]
fn audit_writes_a_privacy_statement() {
    let out = common::scratch("cli_privacy", "statement-audit");
    quick("audit", &["--set", "delta=1e-4", "--runs", "20"], &out);
    assert_statement(&out, "1e-4", "training sample");
}
