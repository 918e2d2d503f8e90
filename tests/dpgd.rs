//! DP-GD on random features: algorithm identities, the min-norm baseline,
//! reproducibility and fixed-seed statistical checks of "privacy for free".
//!
//! σ comes from a local stand-in for the accountant implementing the paper's
//! Prop. 3.2, σ = √(ηT)·√(8 ln(1/δ))/ε; the crate's accountant is separate.

use std::sync::Arc;

use dp_explorer::algorithms::dp_gd_random_features::{DpGd, DpGdParams};
use dp_explorer::algorithms::min_norm::min_norm_least_squares;
use dp_explorer::data::random_features::{Activation, RfFeatures, Target};
use dp_explorer::rng::{stream, Purpose};
use dp_explorer::scenarios::dpgd::charts::{charts, mean_test_loss};
use dp_explorer::scenarios::dpgd::config::{DpGdConfig, SigmaQuery};
use dp_explorer::scenarios::dpgd::run::{write_csv, DpGdRow, DpGdSweep};
use dp_explorer::scenarios::field::{Config, OptionalList};

fn prop32(q: &SigmaQuery) -> f64 {
    (q.eta * q.steps as f64).sqrt() * (8.0 * (1.0 / q.delta).ln()).sqrt() / q.epsilon
}

fn features(n: usize, p: usize) -> Arc<RfFeatures> {
    Arc::new(RfFeatures::generate(
        21,
        8,
        n,
        50,
        p,
        Activation::Tanh,
        Target::Sign,
    ))
}

/// Plain GD (no clip, no noise) with a step below the stability limit n/λ₁(K).
fn plain_gd_distance_to_min_norm(n: usize, p: usize) -> (f64, f64) {
    let data = features(n, p);
    let star = min_norm_least_squares(&data.phi, &data.y);
    let eta = 0.9 * n as f64 / star.lambda_max;
    // Contraction per step along the slowest direction: 1 − 2ηλ_min/n.
    let rate = 2.0 * eta * star.lambda_min_kept / n as f64;
    let steps = ((30.0 / rate).ceil() as usize).min(200_000);
    let mut gd = DpGd::new(
        data.clone(),
        DpGdParams::plain(eta, steps),
        stream(0, Purpose::MechanismNoise, 0),
    )
    .unwrap();
    while !gd.is_done() {
        gd.step();
    }
    assert_eq!(gd.steps_done(), steps);
    assert_eq!(gd.clipped_fraction(), 0.0);
    let rel = (gd.theta() - &star.theta).norm() / star.theta.norm();
    (rel, gd.train_loss())
}

#[test]
fn plain_gd_from_zero_converges_to_the_min_norm_solution() {
    // p > n: gradient flow from 0 stays in the row space of Φ and reaches Φ⁺Y.
    let (rel, train) = plain_gd_distance_to_min_norm(20, 120);
    println!("p > n: ‖θ_T − θ*‖/‖θ*‖ = {rel:.2e}, train loss {train:.2e}");
    assert!(rel < 1e-6, "relative distance {rel}");
    assert!(train < 1e-10);
    // p < n: the least-squares solution is unique.
    let (rel, _) = plain_gd_distance_to_min_norm(60, 15);
    println!("p < n: ‖θ_T − θ*‖/‖θ*‖ = {rel:.2e}");
    assert!(rel < 1e-6, "relative distance {rel}");
}

#[test]
fn min_norm_interpolates_when_p_exceeds_n() {
    let data = features(40, 400);
    let star = min_norm_least_squares(&data.phi, &data.y);
    assert_eq!(star.rank, 40);
    let train = data.train_loss(&star.theta);
    assert!(train < 1e-20, "train loss {train}");
    // θ* is orthogonal to the null space of Φ: adding a null-space vector keeps
    // the fit and increases the norm.
    let z = nalgebra::DVector::from_fn(400, |j, _| ((j * 7 % 13) as f64) - 6.0);
    let k = &data.phi * data.phi.transpose();
    let coef = k.lu().solve(&(&data.phi * &z)).unwrap();
    let null = &z - data.phi.transpose() * coef;
    assert!((&data.phi * &null).norm() < 1e-8 * null.norm());
    assert!(star.theta.dot(&null).abs() < 1e-8 * star.theta.norm() * null.norm());
}

fn run(config: DpGdConfig) -> (Vec<DpGdRow>, Vec<DpGdRow>) {
    let mut sweep = DpGdSweep::new(config, prop32).unwrap();
    let mut last = (0, 0);
    while !sweep.step() {
        let now = sweep.progress();
        assert!(now.0 > last.0, "progress must advance");
        last = now;
    }
    let (done, total) = sweep.progress();
    assert_eq!(done, total);
    (sweep.rows().to_vec(), sweep.trace().to_vec())
}

fn csv(rows: &[DpGdRow]) -> String {
    let mut out = Vec::new();
    write_csv(rows, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn same_seed_gives_the_same_numbers() {
    let mut config = DpGdConfig::preset("dpgd-quick").unwrap();
    config.p_grid = vec![50, 200];
    config.trace_p = OptionalList(vec![200]);
    config.trace_time_scales = vec![1.0, 4.0];
    config.trace_eta = 0.0; // the main schedule: η = 1/p
    let (a, ta) = run(config.clone());
    let (b, tb) = run(config.clone());
    assert_eq!(csv(&a), csv(&b));
    assert_eq!(csv(&ta), csv(&tb));
    config.seed += 1;
    let (c, _) = run(config);
    assert_ne!(csv(&a), csv(&c));
}

/// The "privacy for free" shape on the quick preset (d = 10, n = 100), three seeds.
#[test]
fn dp_gd_has_no_peak_at_p_equals_n_and_improves_with_epsilon() {
    let mut config = DpGdConfig::preset("dpgd-quick").unwrap();
    config.repeats = 3;
    config.trace_p = OptionalList(Vec::new());
    let n = config.n;
    let (rows, _) = run(config.clone());
    let star = mean_test_loss(&rows, "min-norm", None);
    let at = |curve: &[(usize, f64)], p: usize| curve.iter().find(|c| c.0 == p).unwrap().1;
    println!("p: θ* | DP-GD ε = 1, 2, 4");
    let dp: Vec<Vec<(usize, f64)>> = config
        .epsilons
        .iter()
        .map(|&e| mean_test_loss(&rows, "dp-gd", Some(e)))
        .collect();
    for &(p, l) in &star {
        println!(
            "{p:>5}: {l:>9.3} | {:.3} {:.3} {:.3}",
            at(&dp[0], p),
            at(&dp[1], p),
            at(&dp[2], p)
        );
    }
    // θ* peaks at p = n (double descent) ...
    let (half, double) = (n / 2, 2 * n);
    assert!(at(&star, n) > 10.0 * at(&star, half).max(at(&star, double)));
    // ... DP-GD at ε = 4 does not, and stays far below θ* there.
    let dp4 = &dp[2];
    assert!(
        at(dp4, n) < 1.1 * at(dp4, half).max(at(dp4, double)),
        "DP-GD at p = n: {} vs neighbours {} / {}",
        at(dp4, n),
        at(dp4, half),
        at(dp4, double)
    );
    assert!(at(dp4, n) < at(&star, n) / 20.0);
    // Test loss falls as ε grows (averaged over widths p ≥ n/2).
    let avg = |curve: &[(usize, f64)]| {
        let v: Vec<f64> = curve.iter().filter(|c| c.0 >= half).map(|c| c.1).collect();
        v.iter().sum::<f64>() / v.len() as f64
    };
    let means: Vec<f64> = dp.iter().map(|c| avg(c)).collect();
    println!("mean DP-GD test loss over p ≥ n/2 for ε = 1, 2, 4: {means:.3?}");
    assert!(means[0] > means[1] && means[1] > means[2], "{means:?}");
    // At ε = 4, wide models are as good as the widest θ* within 0.15.
    let p_max = *config.p_grid.iter().max().unwrap();
    assert!(at(dp4, p_max) < at(&star, p_max) + 0.15);
    // Every private row carries σ and the per-step noise std √η·(2C/n)·σ.
    for r in rows.iter().filter(|r| r.method == "dp-gd") {
        let want = r.eta.sqrt() * 2.0 * r.clip / n as f64 * r.sigma;
        assert!((r.noise_std - want).abs() <= 1e-12 * want);
        assert!(r.clipped_fraction > 0.0 && r.clipped_fraction <= 1.0);
    }
    assert_eq!(charts(&rows).len(), 4);
}
