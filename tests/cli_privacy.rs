//! What the CLI says about privacy, through the binary: a sweep whose δ is at
//! least 1/n says so in its summary (any scenario; DP-GD's presets all use the
//! paper's δ = 1/n).

mod common;

use std::process::Command;

fn dp_explorer(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dp-explorer"))
        .args(args)
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn a_sweep_at_delta_one_over_n_warns_and_one_below_does_not() {
    let quick = [
        "sweep",
        "--preset",
        "dpgd-quick",
        "--set",
        "p_grid=20,200",
        "--set",
        "trace_p=",
        "--set",
        "epsilons=1",
        "--threads",
        "1",
    ];
    let warning = "warning: δ = 0.01 ≥ 1/n (n = 100)";
    let out = common::scratch("cli_privacy", "one-over-n");
    let mut args = quick.to_vec();
    args.extend(["--out", out.to_str().unwrap()]);
    let (ok, stdout, stderr) = dp_explorer(&args);
    assert!(ok, "{stderr}");
    assert_eq!(stdout.matches(warning).count(), 1, "{stdout}");

    let out = common::scratch("cli_privacy", "below");
    let mut args = quick.to_vec();
    args.extend(["--set", "delta=1e-4", "--out", out.to_str().unwrap()]);
    let (ok, stdout, stderr) = dp_explorer(&args);
    assert!(ok, "{stderr}");
    assert!(!stdout.contains("warning: δ"), "{stdout}");
}
