//! `dp-explorer step --json`: one private round's numbers agree with one
//! another as a reader of them would check (the statements), on
//! Private FedRep and DP-GD; a round outside the run and a scenario without a
//! round are refused naming the field.

use std::process::Command;

fn step(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dp-explorer"))
        .arg("step")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn numbers(v: &serde_json::Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} in {v}"))
}

/// One round's numbers: the share clipped is the share of raw norms above
/// the clip, the clipped sum is at most count × clip; returns (‖noise‖², σ²·dims).
fn check_round(args: &[&str]) -> (f64, f64) {
    let (code, out, err) = step(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let raw: Vec<f64> = v["raw_norms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    let clip = numbers(&v, "clip");
    let above = raw.iter().filter(|&&g| g > clip).count();
    assert_eq!(
        numbers(&v, "clipped_fraction"),
        above as f64 / raw.len() as f64,
        "{args:?}"
    );
    assert!(
        numbers(&v, "sum_norm") <= raw.len() as f64 * clip,
        "{args:?}"
    );
    assert!(numbers(&v, "release_norm") > 0.0);
    assert_eq!(
        v["plane"]["contributions"].as_array().unwrap().len(),
        raw.len().min(400)
    );
    let (noise, sigma, dims) = (
        numbers(&v, "noise_norm"),
        numbers(&v, "sigma"),
        numbers(&v, "noise_dims"),
    );
    (noise * noise, sigma * sigma * dims)
}

/// ‖noise‖²/(σ²·dims) is a χ² over dims, divided by dims: within [0.8, 1.25]
/// for DP-GD's 2000 coordinates in one step, and for Private FedRep's
/// d·k = 100 pooled over its 5 rounds (500 coordinates; one round's 100 alone
/// leave [0.8, 1.25] about one time in ten).
#[test]
fn step_json_numbers_agree_on_fedrep_and_dpgd() {
    let (noise, expected) = check_round(&[
        "--preset",
        "dpgd-quick",
        "--set",
        "epsilons=2",
        "--round",
        "10",
        "--json",
    ]);
    assert!(
        (0.8..=1.25).contains(&(noise / expected)),
        "DP-GD: {}",
        noise / expected
    );
    let (mut noise, mut expected) = (0.0, 0.0);
    for round in 1..=5 {
        let round = round.to_string();
        let fedrep = [
            "--preset",
            "fedrep-paper",
            "--set",
            "n=2000",
            "--set",
            "epsilons=1",
            "--set",
            "altmin=off",
            "--round",
            &round,
            "--json",
        ];
        let (n, e) = check_round(&fedrep);
        noise += n;
        expected += e;
    }
    assert!(
        (0.8..=1.25).contains(&(noise / expected)),
        "Private FedRep: {}",
        noise / expected
    );
}

#[test]
fn step_refuses_a_round_outside_the_run_and_a_scenario_without_one() {
    let (code, _, err) = step(&["--preset", "dpgd-quick", "--round", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("round:"), "{err}");
    let (code, _, err) = step(&["--preset", "jl-random", "--round", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("preset:") && err.contains("no round"), "{err}");
}
