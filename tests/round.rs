//! One private round in slow motion (the "Look inside one round" view and
//! `dp-explorer step`): the round replayed through the view's code path ends
//! exactly where the run's own path does, and its numbers say what the
//! stages did (the clipped share, the sum's bound, the noise's size).

use dp_explorer::scenarios::dpgd::config::DpGdConfig;
use dp_explorer::scenarios::dpgd::round::{dpgd_round, run_after};
use dp_explorer::scenarios::fedrep::method::Method;
use dp_explorer::scenarios::field::Config;
use dp_explorer::scenarios::round::{RoundRequest, RoundTrace};

/// The stages' numbers agree with one another as the issue states them.
fn check_stages(t: &RoundTrace) {
    let n = t.measured.raw_norms.len();
    let above = t
        .measured
        .raw_norms
        .iter()
        .filter(|&&g| g > t.measured.clip)
        .count();
    assert_eq!(t.measured.clipped_fraction, above as f64 / n as f64);
    assert!(
        t.measured.sum_norm <= n as f64 * t.measured.clip * (1.0 + 1e-12),
        "{} > {n}·{}",
        t.measured.sum_norm,
        t.measured.clip
    );
    // ‖noise‖²/(σ²·dims) is χ²/dims: within [0.8, 1.25] all but never at
    // 1000+ coordinates (DP-GD's 2000); FedRep's 100 are pooled over rounds in
    // tests/cli_step.rs.
    if t.measured.noise_dims >= 1000 {
        let ratio = t.measured.noise_norm * t.measured.noise_norm
            / (t.measured.sigma * t.measured.sigma * t.measured.noise_dims as f64);
        assert!(
            (0.8..=1.25).contains(&ratio),
            "‖noise‖²/(σ²·dims) = {ratio}"
        );
    }
    // σ at other ε: the run's own at its ε, and less noise for a larger ε.
    let at = t
        .sigma_by_epsilon
        .iter()
        .find(|p| p[0] == t.head.epsilon)
        .unwrap();
    assert_eq!(at[1].to_bits(), t.measured.sigma.to_bits());
    assert!(t
        .sigma_by_epsilon
        .windows(2)
        .all(|w| w[0][0] < w[1][0] && w[0][1] >= w[1][1]));
    // The picture: the sum on the first axis, the noise and the release in the plane exactly.
    assert!((t.plane.sum[0] - t.measured.sum_norm).abs() <= 1e-9 * t.measured.sum_norm);
    assert!(t.plane.sum[1].abs() <= 1e-9 * t.measured.sum_norm);
    let noise = t.plane.noise[0].hypot(t.plane.noise[1]);
    assert!((noise - t.measured.noise_norm).abs() <= 1e-9 * t.measured.noise_norm);
    let release = t.plane.release[0].hypot(t.plane.release[1]);
    assert!((release - t.measured.release_norm).abs() <= 1e-9 * t.measured.release_norm);
    assert_eq!(t.plane.contributions.len(), t.plane.drawn.len());
    assert!(t.plane.drawn.len() == n.min(dp_explorer::scenarios::round::MOST_DRAWN));
}

#[test]
fn a_dpgd_round_in_slow_motion_is_the_runs_own_step_bit_for_bit() {
    let config = DpGdConfig::from_pairs("dpgd-quick", [("epsilons", "2")])
        .unwrap()
        .into_inner();
    let steps = {
        let p = *config.p_grid.iter().max().unwrap();
        config.schedule(p, config.time_scale).1
    };
    for round in [1, steps.div_ceil(2), steps] {
        let (trace, theta) = dpgd_round(&config, RoundRequest { round }).unwrap();
        let own = run_after(&config, round).unwrap();
        assert_eq!(theta.len(), own.len());
        assert!(
            theta
                .iter()
                .zip(own.iter())
                .all(|(a, b)| a.to_bits() == b.to_bits()),
            "round {round}: θ after the slow-motion step differs from the run's"
        );
        assert_eq!(
            (trace.head.round, trace.head.rounds, trace.head.unit),
            (round, steps, "sample")
        );
        check_stages(&trace);
        // The step moved the model and the loss is measured on both sides.
        assert!(trace.step.change_norm > 0.0 && trace.step.before.is_finite());
    }
}

#[test]
fn a_round_outside_the_run_is_refused_at_the_round_field() {
    let config = DpGdConfig::from_pairs("dpgd-quick", [("epsilons", "2")])
        .unwrap()
        .into_inner();
    for round in [0, 1_000_000] {
        let errors = dpgd_round(&config, RoundRequest { round }).unwrap_err();
        assert_eq!(errors.field(), "round", "{errors}");
    }
}

#[test]
fn a_fedrep_round_in_slow_motion_is_the_sweeps_own_round_bit_for_bit() {
    use dp_explorer::scenarios::fedrep::config::FedRepConfig;
    use dp_explorer::scenarios::fedrep::run::round::fedrep_round;
    use dp_explorer::scenarios::fedrep::run::FedRepSweep;
    let pairs = [("n", "2000"), ("epsilons", "1"), ("altmin", "off")];
    let checked = FedRepConfig::from_pairs("fedrep-paper", pairs).unwrap();
    let config = checked.clone().into_inner();
    // The sweep's own curve of Private FedRep at ε = 1.
    let mut sweep = FedRepSweep::new(checked).unwrap();
    sweep.run_to_end().unwrap();
    let curve = sweep
        .curves()
        .into_iter()
        .find(|c| c.method == Method::PrivateFedrep && c.epsilon == Some(1.0))
        .unwrap();
    let rounds = config.rounds;
    for round in [1, rounds] {
        let (trace, _, _) = fedrep_round(&config, RoundRequest { round }).unwrap();
        assert_eq!(
            trace.step.before.to_bits(),
            curve.angles[round - 1].to_bits(),
            "round {round}"
        );
        assert_eq!(
            trace.step.after.to_bits(),
            curve.angles[round].to_bits(),
            "round {round}"
        );
        assert_eq!(
            (trace.head.unit, trace.measured.raw_norms.len()),
            ("user", 2000)
        );
        check_stages(&trace);
    }
    let refused = fedrep_round(&config, RoundRequest { round: rounds + 1 }).unwrap_err();
    assert_eq!(refused.field(), "round");
}
