//! Priv-AltMin end to end: convergence without noise, the sensitivity bound
//! under adversarial replacement, reproducibility. (Its time at the paper's size
//! is part of `make bench`'s `fedrep-default-sweep`.)

use dp_explorer::algorithms::priv_altmin::{
    statistic_sensitivity, AltMinMode, PrivAltMin, PrivAltMinParams, SampleSplit,
};
use dp_explorer::data::shared_representation::{FederatedDataset, SharedRepresentationModel};
use dp_explorer::linalg::{gaussian_matrix, orthonormalize};
use dp_explorer::privacy::event::PrivacyEvent;
use dp_explorer::rng::{stream, Purpose};
use nalgebra::DMatrix;

fn dataset(n: usize, d: usize, k: usize, seed: u64) -> FederatedDataset {
    SharedRepresentationModel {
        n,
        d,
        k,
        m: 10,
        m_train: 5,
        noise: 0.01,
        unit_heads: false,
        seed,
    }
    .generate()
}

/// U* plus `scale`·N(0,1) entries, re-orthonormalized.
fn perturbed_init(data: &FederatedDataset, scale: f64) -> DMatrix<f64> {
    let g = gaussian_matrix(
        data.d(),
        data.k(),
        &mut stream(99, Purpose::Initialization, 0),
    );
    orthonormalize(&data.u_star + g * scale)
}

fn large_clip_params(mode: AltMinMode, rounds: usize) -> PrivAltMinParams {
    PrivAltMinParams {
        rounds,
        feature_clip: 1e6,
        label_clip: 1e6,
        sigma_w: 0.0,
        sigma_b: 0.0,
        mode,
        split: SampleSplit::Shared,
        ridge: 0.0,
        head_ridge: 0.0,
    }
}

#[test]
fn without_noise_and_with_large_clips_it_reaches_the_non_private_altmin_noise_floor() {
    let data = dataset(2000, 10, 2, 1);
    let u0 = perturbed_init(&data, 0.4);
    for mode in [AltMinMode::AllUsers, AltMinMode::DisjointSubsets] {
        let mut alg = PrivAltMin::new(&data, u0.clone(), large_clip_params(mode, 5), 7);
        while !alg.is_done() {
            alg.step(&data);
        }
        let h = alg.angle_history();
        println!("{mode:?}: principal angles {h:.5?}");
        assert_eq!(h.len(), 6);
        assert!(
            h[0] > 0.3,
            "the init should be only moderately good: {}",
            h[0]
        );
        assert!(*h.last().unwrap() < 0.05, "{mode:?}: {h:?}");
        assert_eq!(alg.failed_solves(), 0);
        let (excess, mse) = alg.finish(&data);
        println!("{mode:?}: excess risk {excess:.3e}, mse {mse:.3e}");
        assert!((mse - excess - 1e-4).abs() < 1e-15);
        // S¹ has 5 points for k = 2 unknowns: excess ≈ R²k/(5−k−1) plus the U error.
        assert!(excess < 0.05, "{excess}");
    }
}

#[test]
fn with_two_point_heads_it_diverges_unclipped_and_per_sample_clipping_restores_convergence() {
    // The re-implementation's split: heads interpolate ⌊5/2⌋ = 2 points (k = 2).
    let data = dataset(2000, 10, 2, 1);
    let u0 = perturbed_init(&data, 0.4);
    let run = |clip: f64| {
        let mut p = large_clip_params(AltMinMode::AllUsers, 5);
        p.split = SampleSplit::HeadOnFirstHalf;
        p.feature_clip = clip;
        let mut alg = PrivAltMin::new(&data, u0.clone(), p, 7);
        while !alg.is_done() {
            alg.step(&data);
        }
        println!(
            "2-point heads, clip {clip}: angles {:.4?}",
            alg.angle_history()
        );
        *alg.angle_history().last().unwrap()
    };
    assert!(run(1e6) > 0.5);
    assert!(run(1.0) < 0.05);
}

/// Point j, coordinate p of the replaced user → (x_jp, y_j).
type Adversary = Box<dyn Fn(usize, usize) -> (f64, f64)>;

#[test]
fn clipping_bounds_the_sensitivity_whatever_one_users_data_is() {
    let data = dataset(40, 6, 2, 2);
    let u0 = perturbed_init(&data, 0.5);
    let victim = 8; // in iteration 0's group for DisjointSubsets too (8 mod 4 = 0)
    let m_train = data.model.m_train;
    let d = data.d();
    let adversaries: Vec<(&str, Adversary)> = vec![
        (
            "huge",
            Box::new(|j, p| (1e150 * (1.0 + (j * 7 + p) as f64), 1e300)),
        ),
        (
            "aligned",
            Box::new(|_, p| (if p == 0 { 50.0 } else { 0.0 }, 1e3)),
        ),
        (
            "aligned, flipped labels",
            Box::new(|_, p| (if p == 0 { 50.0 } else { 0.0 }, -1e3)),
        ),
        (
            "orthogonal",
            Box::new(move |_, p| (if p == d - 1 { 50.0 } else { 0.0 }, 1e3)),
        ),
        (
            "alternating",
            Box::new(|j, p| {
                (
                    (-1f64).powi((j + p) as i32) * 3.0,
                    5.0 * (-1f64).powi(j as i32),
                )
            }),
        ),
        (
            "nan",
            Box::new(|j, _| (if j == 0 { f64::NAN } else { 1.0 }, f64::NAN)),
        ),
        ("inf", Box::new(|_, _| (f64::INFINITY, f64::NEG_INFINITY))),
        ("zero (= removed)", Box::new(|_, _| (0.0, 0.0))),
    ];
    for (mode, split) in [
        (AltMinMode::AllUsers, SampleSplit::HeadOnFirstHalf),
        (AltMinMode::AllUsers, SampleSplit::Shared),
        (AltMinMode::DisjointSubsets, SampleSplit::FreshHalves),
    ] {
        let mut params = large_clip_params(mode, 4);
        params.split = split;
        params.feature_clip = 0.5;
        params.label_clip = 0.3;
        params.head_ridge = 1e-6;
        let m_stat = params.split.statistic_points(m_train).len();
        let (sw_rep, sb_rep) = statistic_sensitivity(&params, m_stat, true);
        let (sw_add, sb_add) = statistic_sensitivity(&params, m_stat, false);
        let base_alg = PrivAltMin::new(&data, u0.clone(), params.clone(), 0);
        assert!(base_alg.participants(0).any(|i| i == victim));
        let base = base_alg.noiseless_statistics(&data, 0);
        for (name, adv) in &adversaries {
            let mut other = data.clone();
            let m = other.model.m;
            for j in 0..m {
                for p in 0..d {
                    other.x[(victim * m + j) * d + p] = adv(j, p).0;
                }
                other.y[victim * m + j] = adv(j, 0).1;
            }
            let st = PrivAltMin::new(&other, u0.clone(), params.clone(), 0)
                .noiseless_statistics(&other, 0);
            let dw = (&st.w - &base.w).norm();
            let db = (&st.b - &base.b).norm();
            println!(
                "{mode:?} {split:?} {name}: |dW|_F/s_W = {:.3}, |db|/s_b = {:.3} (replace-one bounds)",
                dw / sw_rep,
                db / sb_rep
            );
            assert!(st.w.iter().chain(st.b.iter()).all(|t| t.is_finite()));
            assert!(dw <= sw_rep * (1.0 + 1e-9), "{name}: {dw} > {sw_rep}");
            assert!(db <= sb_rep * (1.0 + 1e-9), "{name}: {db} > {sb_rep}");
            if name.starts_with("zero") {
                // A user with all-zero data contributes nothing: add/remove bound.
                assert!(dw <= sw_add * (1.0 + 1e-9) && db <= sb_add * (1.0 + 1e-9));
            }
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_run_and_another_seed_another_one() {
    let data = dataset(300, 8, 2, 3);
    let u0 = perturbed_init(&data, 0.3);
    let params = PrivAltMinParams {
        feature_clip: 2.0,
        label_clip: 2.0,
        ..large_clip_params(AltMinMode::AllUsers, 3)
    }
    .with_noise_multiplier(2.0, data.model.m_train, true);
    let run = |seed| {
        let mut a = PrivAltMin::new(&data, u0.clone(), params.clone(), seed);
        while !a.is_done() {
            a.step(&data);
        }
        (a.u().clone(), a.angle_history().to_vec(), a.finish(&data))
    };
    let (u1, h1, r1) = run(11);
    let (u2, h2, r2) = run(11);
    let (u3, _, _) = run(12);
    assert_eq!(u1, u2);
    assert_eq!(h1, h2);
    assert_eq!(r1, r2);
    assert!((&u1 - &u3).norm() > 1e-6);
}

#[test]
fn privacy_events_compose_t_times_for_all_users_and_once_for_disjoint_subsets() {
    let data = dataset(50, 6, 2, 4);
    for (mode, count, m_stat) in [
        (AltMinMode::AllUsers, 5, 5),
        (AltMinMode::DisjointSubsets, 1, 3),
    ] {
        let params = PrivAltMinParams {
            feature_clip: 1e-4,
            label_clip: 1e-4,
            split: mode.default_split(),
            ..large_clip_params(mode, 5)
        }
        .with_noise_multiplier(4.0, data.model.m_train, false);
        let alg = PrivAltMin::new(&data, data.u_star.clone(), params, 0);
        let (w, b) = alg.privacy_events(false);
        let stages = PrivacyEvent::Composed(vec![w, b]).gaussian_stages();
        assert_eq!(stages.len(), 2);
        assert!(stages.iter().all(|s| s.steps == count));
        assert!((stages[0].sensitivity - m_stat as f64 * 1e-8).abs() < 1e-20);
        assert!((stages[1].sensitivity - m_stat as f64 * 1e-8).abs() < 1e-20);
        assert!(stages
            .iter()
            .all(|s| (s.sigma / s.sensitivity - 4.0).abs() < 1e-12));
        // One multiplier z for both: μ = √(2·count)/z.
        assert!((alg.gdp_mu(false) - (2.0 * count as f64).sqrt() / 4.0).abs() < 1e-12);
    }
}
