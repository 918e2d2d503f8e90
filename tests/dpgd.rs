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
use dp_explorer::scenarios::dpgd::run::{write_csv, DpGdRow, DpGdSweep, Method};
use dp_explorer::scenarios::field::{Config, OptionalList};
use dp_explorer::scenarios::Checked;

fn prop32(q: &SigmaQuery) -> f64 {
    (q.eta * q.steps as f64).sqrt() * (8.0 * (1.0 / q.delta).ln()).sqrt() / q.epsilon
}

fn features(n: usize, p: usize) -> Arc<RfFeatures> {
    rf_features(21, 8, n, 50, p)
}

/// Tanh features of width p on sign-target data (d inputs, n train, n_test test).
fn rf_features(seed: u64, d: usize, n: usize, n_test: usize, p: usize) -> Arc<RfFeatures> {
    let (a, t) = (Activation::Tanh, Target::Sign);
    Arc::new(RfFeatures::generate(seed, d, n, n_test, p, a, t))
}

/// Plain GD (no clip, no noise) with a step below the stability limit n/λ₁(K).
fn plain_gd_distance_to_min_norm(n: usize, p: usize) -> (f64, f64) {
    let data = features(n, p);
    let star = min_norm_least_squares(&data.train.x, &data.train.y);
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
    let star = min_norm_least_squares(&data.train.x, &data.train.y);
    assert_eq!(star.rank, 40);
    let train = data.train_loss(&star.theta);
    assert!(train < 1e-20, "train loss {train}");
    // θ* is orthogonal to the null space of Φ: adding a null-space vector keeps
    // the fit and increases the norm.
    let z = nalgebra::DVector::from_fn(400, |j, _| ((j * 7 % 13) as f64) - 6.0);
    let k = &data.train.x * data.train.x.transpose();
    let coef = k.lu().solve(&(&data.train.x * &z)).unwrap();
    let null = &z - data.train.x.transpose() * coef;
    assert!((&data.train.x * &null).norm() < 1e-8 * null.norm());
    assert!(star.theta.dot(&null).abs() < 1e-8 * star.theta.norm() * null.norm());
}

fn run(config: DpGdConfig) -> (Vec<DpGdRow>, Vec<DpGdRow>) {
    let mut sweep = DpGdSweep::new(Checked::new(config).unwrap(), prop32).unwrap();
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
    let star = mean_test_loss(&rows, Method::MinNorm, None);
    let at = |curve: &[(usize, f64)], p: usize| curve.iter().find(|c| c.0 == p).unwrap().1;
    println!("p: θ* | DP-GD ε = 1, 2, 4");
    let dp: Vec<Vec<(usize, f64)>> = config
        .target
        .epsilons
        .iter()
        .map(|&e| mean_test_loss(&rows, Method::DpGd, Some(e)))
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
    for r in rows.iter().filter(|r| r.method == Method::DpGd) {
        let want = r.eta.sqrt() * 2.0 * r.clip / n as f64 * r.sigma;
        assert!((r.noise_std - want).abs() <= 1e-12 * want);
        assert!(r.clipped_fraction > 0.0 && r.clipped_fraction <= 1.0);
    }
    assert_eq!(charts(&rows).len(), 4);
}

// ---------------------------------------------------------------------------
// The kernel path (src/algorithms/dp_gd_kernel.rs) against the direct path.

use dp_explorer::algorithms::dp_gd_kernel::{KernelRunSpec, KernelWidth};
use dp_explorer::data::random_features::RfInputs;
use dp_explorer::rng::NoiseSource;

const D: usize = 8;
const N: usize = 40;
const N_TEST: usize = 60;
const DATA_SEED: u64 = 5;

/// (train loss, test loss, mean clipped fraction) of one run.
type Outcome = (f64, f64, f64);

fn kernel_runs(p: usize, params: &[(DpGdParams, u64)]) -> Vec<Outcome> {
    kernel_runs_keeping(p, params, true)
}

/// As `kernel_runs`, with the first pass's features kept for the second or recomputed.
fn kernel_runs_keeping(p: usize, params: &[(DpGdParams, u64)], keep: bool) -> Vec<Outcome> {
    kernel_runs_with(p, params, keep, true)
}

/// As `kernel_runs_keeping`, with feature blocks computed ahead on another
/// thread (where the machine has a second core) or each in its turn.
fn kernel_runs_with(
    p: usize,
    params: &[(DpGdParams, u64)],
    keep: bool,
    ahead: bool,
) -> Vec<Outcome> {
    let inputs = Arc::new(RfInputs::generate(DATA_SEED, D, N, N_TEST, Target::Sign));
    let runs = params
        .iter()
        .map(|&(params, seed)| KernelRunSpec {
            params,
            noise: NoiseSource::new(seed).release(0),
            fresh: NoiseSource::new(seed).release(1),
        })
        .collect();
    // A thread lent for the blocks computed ahead (as a sweep's idle thread is).
    let _loan = ahead.then(|| dp_explorer::cores::Loan::new(1));
    let mut k = KernelWidth::new(inputs, DATA_SEED, p, Activation::Tanh, runs)
        .keep_features(keep)
        .features_ahead(ahead);
    while !k.step() {}
    assert!(k.failure().is_none());
    k.results()
        .into_iter()
        .map(|r| (r.train_loss, r.test_loss, r.mean_clipped_fraction))
        .collect()
}

/// The runs of one kernel width over `inputs`, each `(params, steps, seed)`, with the steps' work
/// on a second core (a thread lent, as a sweep's idle thread is) or all on the run's own thread.
fn steps_with_second_core(
    inputs: &Arc<RfInputs>,
    p: usize,
    runs: Vec<(DpGdParams, usize, u64)>,
    second_core: bool,
) -> Vec<dp_explorer::algorithms::dp_gd_kernel::KernelRunResult> {
    kernel_with_second_core(inputs, p, runs, second_core).results()
}

/// The kernel width after its run, with a second core lent or not (its
/// results, and whether the lent thread drew the noise images).
fn kernel_with_second_core(
    inputs: &Arc<RfInputs>,
    p: usize,
    runs: Vec<(DpGdParams, usize, u64)>,
    second_core: bool,
) -> KernelWidth {
    let runs = runs
        .into_iter()
        .map(|(mut params, steps, seed)| {
            params.steps = steps;
            KernelRunSpec {
                params,
                noise: NoiseSource::new(seed).release(0),
                fresh: NoiseSource::new(seed).release(1),
            }
        })
        .collect();
    let _loan = second_core.then(|| dp_explorer::cores::Loan::new(1));
    let mut k = KernelWidth::new(inputs.clone(), DATA_SEED, p, Activation::Tanh, runs)
        .steps_on_second_core(second_core);
    while !k.step() {}
    assert!(k.failure().is_none());
    k
}

fn direct_run(data: &Arc<RfFeatures>, params: DpGdParams, seed: u64) -> Outcome {
    let mut gd = DpGd::new(data.clone(), params, NoiseSource::new(seed).release(0)).unwrap();
    while !gd.is_done() {
        gd.step();
    }
    (gd.train_loss(), gd.test_loss(), gd.mean_clipped_fraction())
}

/// DP-GD at C = 0.5√p, η = 1/p, T = 5d, ε = 2, δ = 1/n (Prop. 3.2): clipping binds
/// on part of the samples, as in the paper's runs.
fn private_params(p: usize) -> DpGdParams {
    let eta = 1.0 / p as f64;
    let steps = 5 * D;
    let sigma = prop32(&SigmaQuery {
        calibration: Default::default(),
        epsilon: 2.0,
        risk_mu: None,
        delta: 1.0 / N as f64,
        steps,
        eta,
        sensitivity: 0.0,
    });
    DpGdParams {
        eta,
        steps,
        clip: Some(0.5 * (p as f64).sqrt()),
        sigma,
    }
}

#[test]
fn without_noise_the_two_paths_agree_to_rounding() {
    // σ = 0 with clipping (and plain GD): both paths are deterministic. p < n
    // (forced kernel path, K singular) included.
    for &p in &[30, 120, 400] {
        let data = rf_features(DATA_SEED, D, N, N_TEST, p);
        let clipped = DpGdParams {
            sigma: 0.0,
            ..private_params(p)
        };
        let plain = DpGdParams::plain(1.0 / p as f64, 5 * D);
        let kernel = kernel_runs(p, &[(clipped, 1), (plain, 2)]);
        for (params, k) in [clipped, plain].into_iter().zip(kernel) {
            let d = direct_run(&data, params, 1);
            println!("p = {p}: direct {d:?}, kernel {k:?}");
            assert!(
                (d.0 - k.0).abs() < 1e-9 * d.0.max(1.0),
                "train loss at p = {p}"
            );
            assert!(
                (d.1 - k.1).abs() < 1e-9 * d.1.max(1.0),
                "test loss at p = {p}"
            );
            assert_eq!(d.2, k.2, "clipped fraction at p = {p}");
            if params.clip.is_some() {
                assert!(d.2 > 0.05, "clipping must bind for the check to test it");
            }
        }
    }
}

/// Two-sample Kolmogorov–Smirnov statistic sup |F_a − F_b|.
fn ks(a: &[f64], b: &[f64]) -> f64 {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort_by(f64::total_cmp);
    b.sort_by(f64::total_cmp);
    let (mut i, mut j, mut d) = (0, 0, 0.0_f64);
    while i < a.len() && j < b.len() {
        let x = a[i].min(b[j]);
        while i < a.len() && a[i] <= x {
            i += 1;
        }
        while j < b.len() && b[j] <= x {
            j += 1;
        }
        d = d.max((i as f64 / a.len() as f64 - j as f64 / b.len() as f64).abs());
    }
    d
}

fn mean_sd(v: &[f64]) -> (f64, f64) {
    let m = v.iter().sum::<f64>() / v.len() as f64;
    let var = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (v.len() - 1) as f64;
    (m, var.sqrt())
}

#[test]
fn with_noise_the_two_paths_agree_in_distribution() {
    // p = 50 (< 1.5n) draws the kernel path's noise through the eigendecomposition
    // of K, p = 120 and 400 through its Cholesky factor.
    // 400 independent noise seeds per path on the same data and features;
    // each path's seeds are its own. Compared: the final train loss, test loss
    // and clipped fraction, by their means (within 4 standard errors of the
    // difference), their spreads (within 4 standard errors of a standard
    // deviation) and the two-sample KS statistic (below its 0.1 % critical
    // value, 1.95·√(2/R)). Fixed seeds: the outcome is deterministic.
    const R: usize = 400;
    for &p in &[50, 120, 400] {
        let data = rf_features(DATA_SEED, D, N, N_TEST, p);
        let params = private_params(p);
        let direct: Vec<Outcome> = (0..R as u64)
            .map(|s| direct_run(&data, params, 10_000 + s))
            .collect();
        let specs: Vec<(DpGdParams, u64)> = (0..R as u64).map(|s| (params, 20_000 + s)).collect();
        let kernel = kernel_runs(p, &specs);
        let ks_critical = 1.95 * (2.0 / R as f64).sqrt();
        for (name, pick) in [
            ("train loss", 0usize),
            ("test loss", 1),
            ("clipped fraction", 2),
        ] {
            let get = |o: &Outcome| [o.0, o.1, o.2][pick];
            let a: Vec<f64> = direct.iter().map(get).collect();
            let b: Vec<f64> = kernel.iter().map(get).collect();
            let ((ma, sa), (mb, sb)) = (mean_sd(&a), mean_sd(&b));
            let se_mean = (sa * sa / R as f64 + sb * sb / R as f64).sqrt();
            let se_sd = ((sa * sa + sb * sb) / (2.0 * R as f64)).sqrt();
            let d = ks(&a, &b);
            println!(
                "p = {p}, {name}: direct {ma:.5} ± {sa:.5}, kernel {mb:.5} ± {sb:.5}; \
                 mean diff {:.2} SE, sd diff {:.2} SE, KS {d:.3} (critical {ks_critical:.3})",
                (ma - mb) / se_mean,
                (sa - sb) / se_sd
            );
            assert!((ma - mb).abs() < 4.0 * se_mean, "{name} means at p = {p}");
            assert!((sa - sb).abs() < 4.0 * se_sd, "{name} spreads at p = {p}");
            assert!(d < ks_critical, "{name} KS at p = {p}");
        }
    }
}

#[test]
fn kept_and_recomputed_features_give_the_same_numbers() {
    // p = 300 > FEATURE_BLOCK: several blocks, the last one partial.
    let p = 300;
    let specs = [
        (private_params(p), 3),
        (DpGdParams::plain(1.0 / p as f64, 40), 4),
    ];
    let kept = kernel_runs_keeping(p, &specs, true);
    let recomputed = kernel_runs_keeping(p, &specs, false);
    assert_eq!(kept, recomputed);
    // Blocks computed ahead on another thread, or each in its turn: the same.
    for keep in [true, false] {
        assert_eq!(
            kernel_runs_with(p, &specs, keep, false),
            kept,
            "keep = {keep}"
        );
    }
    assert!(
        kept.iter().all(|o| o.1.is_finite() && o.1 > 0.0),
        "{kept:?}"
    );
}

#[test]
fn a_kernel_run_does_not_depend_on_its_batch() {
    let p = 120;
    let params = private_params(p);
    let alone = kernel_runs(p, &[(params, 7)]);
    let batched = kernel_runs(
        p,
        &[(DpGdParams::plain(0.01, 3), 1), (params, 7), (params, 8)],
    );
    let (a, b) = (alone[0], batched[1]);
    assert!(
        (a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9 && a.2 == b.2,
        "{a:?} vs {b:?}"
    );
    assert_ne!(batched[1], batched[2], "different seeds, different noise");
}

#[test]
fn a_batch_of_direct_runs_gives_each_run_its_own_result() {
    use dp_explorer::algorithms::dp_gd_random_features::DpGdBatch;
    let p = 90;
    let data = rf_features(DATA_SEED, D, N, N_TEST, p);
    let runs = [
        (private_params(p), 3),
        (DpGdParams::plain(1.0 / p as f64, 7), 4),
        (
            DpGdParams {
                steps: 13,
                ..private_params(p)
            },
            5,
        ),
    ];
    let mut batch = DpGdBatch::new(
        data.clone(),
        runs.iter()
            .map(|&(params, seed)| (params, NoiseSource::new(seed).release(0)))
            .collect(),
    )
    .unwrap();
    while !batch.is_done() {
        batch.step();
    }
    for (&(params, seed), got) in runs.iter().zip(batch.results()) {
        let want = direct_run(&data, params, seed);
        assert!((want.0 - got.0).abs() < 1e-9 && (want.1 - got.1).abs() < 1e-9);
        assert_eq!(want.2, got.2);
    }
}

#[test]
fn batched_and_kernel_widths_count_their_progress_exactly() {
    // n = 256: p = 100 runs as a batch of direct runs, p = 300 on the kernel path.
    let mut config = DpGdConfig::preset("dpgd-quick").unwrap();
    config.n = 256;
    config.d = 8;
    config.n_test = 50;
    config.p_grid = vec![100, 300];
    config.trace_p = OptionalList(vec![300]);
    config.trace_time_scales = vec![1.0, 4.0];
    config.trace_eta = 0.0;
    let (rows, trace) = run(config.clone()); // asserts progress ends at its total
    assert_eq!(rows.len(), 2 * (3 + config.target.epsilons.len()));
    assert_eq!(trace.len(), 2);
    for r in rows.iter().chain(&trace) {
        assert!(r.test_loss.is_finite() && r.train_loss.is_finite(), "{r:?}");
        assert_eq!(r.path, if r.p == 300 { "kernel" } else { "direct" });
    }
}

#[test]
fn the_steps_give_the_same_numbers_with_a_second_core_or_without() {
    // n ≥ dense::SECOND_CORE_MIN_M: each step's lower-triangle product cuts K
    // into two bands of rows, and with a second core one band runs on a helper
    // thread. The bands and their sum do not depend on the thread, so neither
    // do the runs. p ≥ 1.5n: K factored by Cholesky (a short test).
    let n = dp_explorer::dense::SECOND_CORE_MIN_M + 76;
    let p = 3 * n / 2 + 10;
    let inputs = Arc::new(RfInputs::generate(DATA_SEED, D, n, 50, Target::Sign));
    let results = |second_core: bool| {
        let runs = vec![
            (private_params(p), 12, 5),
            (DpGdParams::plain(1.0 / p as f64, 12), 12, 6),
        ];
        steps_with_second_core(&inputs, p, runs, second_core)
    };
    let one = results(false);
    assert!(
        one.iter()
            .all(|r| r.test_loss.is_finite() && r.train_loss > 0.0),
        "{one:?}"
    );
    for _ in 0..2 {
        assert_eq!(results(true), one);
    }
}

#[test]
fn the_noise_images_drawn_ahead_give_the_same_numbers() {
    // With a thread lent at the factorization, the steps' noise images are
    // drawn on it ahead of the steps (`dp_gd_kernel::noise_images`): the
    // same draws and products as drawn in turn, so the same runs. Step counts
    // over several refills of 32 steps, runs ending at different refills, and
    // both factorizations (Cholesky at p ≥ 1.5n, else the eigendecomposition).
    let n = 300;
    let inputs = Arc::new(RfInputs::generate(DATA_SEED, D, n, 50, Target::Sign));
    for p in [3 * n / 2 + 10, n + 20] {
        let results = |ahead: bool| {
            let runs = [(70, 5, true), (40, 6, true), (70, 7, false), (64, 8, true)]
                .into_iter()
                .map(|(steps, seed, private)| {
                    let params = if private {
                        private_params(p)
                    } else {
                        DpGdParams::plain(1.0 / p as f64, steps)
                    };
                    (params, steps, seed)
                })
                .collect();
            kernel_with_second_core(&inputs, p, runs, ahead)
        };
        let in_turn = results(false);
        assert!(!in_turn.noise_drawn_ahead());
        let in_turn = in_turn.results();
        assert!(
            in_turn
                .iter()
                .all(|r| r.test_loss.is_finite() && r.train_loss > 0.0),
            "{in_turn:?}"
        );
        // The lent thread is the process's spare core, which another test of
        // this binary may hold for a moment: compare every run, and require
        // twice a run whose images were drawn ahead, so the test cannot pass
        // on the in-turn path alone.
        let mut drawn_ahead = 0;
        for _ in 0..40 {
            let k = results(true);
            assert_eq!(k.results(), in_turn, "p = {p}");
            drawn_ahead += usize::from(k.noise_drawn_ahead());
            if drawn_ahead == 2 {
                break;
            }
        }
        assert_eq!(drawn_ahead, 2, "p = {p}: no thread was lent in 40 runs");
    }
}
