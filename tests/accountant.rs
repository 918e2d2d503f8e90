//! The accountant against the test vectors of docs/algorithms.md (Privacy accounting), the
//! Private FedRep calibration table (Snedeker et al., App. B.4), and properties.
//! Run with `-- --nocapture` to see the numbers.

use dp_explorer::privacy::calibration::{calibrate_exact, sigma_for_epsilon_exact};
use dp_explorer::privacy::error::AccountingError;
use dp_explorer::privacy::formulas::{
    classic_gaussian_sigma, fedrep_authors_code_sigma, fedrep_paper_delta, fedrep_paper_sigma,
};
use dp_explorer::privacy::gdp::{delta_for_epsilon, epsilon_for_mu, mu_for_epsilon};
use dp_explorer::privacy::rdp::{
    epsilon_classic, epsilon_improved, epsilon_improved_grid, slope_for_epsilon_classic,
    slope_for_epsilon_improved,
};
use dp_explorer::privacy::zcdp::{epsilon_for_rho, rho_for_epsilon};
use dp_explorer::privacy::{Calibration, GaussianStage, PrivacyReport, Relation};

fn rel(a: f64, b: f64) -> f64 {
    ((a - b) / b).abs()
}

fn stage(z: f64, steps: u64) -> GaussianStage {
    GaussianStage::new("steps", "Gaussian", 1.0, z, steps)
}

/// (z, T, δ, exact ε, RDP improved on the grid, α*, zCDP simple)
const VECTORS: [(f64, u64, f64, f64, f64, f64, f64); 3] = [
    (1.0, 1, 1e-5, 4.377178, 4.728507, 5.4, 5.298526),
    (1.0, 10, 1e-5, 17.856587, 19.053598, 2.5, 20.174271),
    (10.0, 100, 1e-6, 4.886554, 5.221540, 5.9, 5.756522),
];

#[test]
fn exact_epsilon_matches_the_spec_vectors() {
    for (z, t, delta, want, ..) in VECTORS {
        let got = epsilon_for_mu(stage(z, t).mu(), delta).unwrap();
        println!("exact: z={z} T={t} δ={delta}: ε = {got:.9} (reference {want})");
        assert!(rel(got, want) < 1e-6, "{got} vs {want}");
    }
}

#[test]
fn rdp_improved_on_the_grid_matches_the_spec_vectors_and_optimal_order() {
    for (z, t, delta, _, want, alpha, _) in VECTORS {
        let got = epsilon_improved_grid(stage(z, t).rdp_slope(), delta).unwrap();
        println!(
            "rdp grid: z={z} T={t} δ={delta}: ε = {:.9} at α = {} (reference {want} at {alpha})",
            got.epsilon, got.alpha
        );
        assert!(rel(got.epsilon, want) < 1e-6);
        assert!((got.alpha - alpha).abs() < 1e-12);
        assert!(!got.alpha_at_edge);
    }
}

#[test]
fn zcdp_simple_conversion_matches_the_spec_vectors() {
    for (z, t, delta, .., want) in VECTORS {
        let got = epsilon_for_rho(stage(z, t).rho(), delta).unwrap();
        println!("zcdp: z={z} T={t} δ={delta}: ε = {got:.9} (reference {want})");
        assert!(rel(got, want) < 1e-6);
    }
}

#[test]
fn exact_calibration_matches_the_spec_noise_multipliers() {
    for (t, want) in [(1u64, 3.730632), (100, 37.306316)] {
        let z = sigma_for_epsilon_exact(1.0, 1e-5, t, 1.0).unwrap();
        let via_mu = (t as f64).sqrt() / mu_for_epsilon(1.0, 1e-5).unwrap();
        println!("calibration: ε=1 δ=1e-5 T={t}: z = {z:.9} (reference {want})");
        assert!(rel(z, want) < 1e-6);
        assert!(rel(z, via_mu) < 1e-14);
    }
    let classic = classic_gaussian_sigma(1.0, 1.0, 1e-5);
    println!("classic single-shot σ(ε=1, δ=1e-5) = {classic:.9} (reference 4.844805)");
    assert!(rel(classic, 4.844805) < 1e-6);
}

#[test]
fn private_fedrep_calibration_table_is_reproduced() {
    // ψ = 10, T = 5, n = 20000, δ = 1e-6, η = 2.5 (Snedeker et al., App. B.4).
    let (psi, t, n, delta, eta) = (10.0, 5u64, 20000usize, 1e-6, 2.5);
    // ε, Δ, paper σ̂, η·σ̂, authors' σ̂, ε spent under zCDP with paper σ̂
    let table = [
        (1.0, 14.987, 0.016756, 0.04189, 0.029023, 0.710),
        (2.0, 7.494, 0.008378, 0.02095, 0.014511, 1.439),
        (4.0, 3.747, 0.004189, 0.01047, 0.007256, 2.948),
        (6.0, 2.498, 0.002793, 0.00698, 0.004837, 4.529),
        (8.0, 1.873, 0.002095, 0.00524, 0.003628, 6.182),
    ];
    let s = Relation::ReplaceOne.mean_sensitivity(psi, n);
    for (eps, big_delta, paper, eta_paper, authors, spent_zcdp) in table {
        let d = fedrep_paper_delta(eps, delta);
        let p = fedrep_paper_sigma(psi, t, n, eps, delta);
        let a = fedrep_authors_code_sigma(psi, t, n, eps, delta);
        let st = GaussianStage::new("rounds", "clipped mean", s, p, t);
        let z = epsilon_for_rho(st.rho(), delta).unwrap();
        let exact = epsilon_for_mu(st.mu(), delta).unwrap();
        let exact_authors = epsilon_for_mu(
            GaussianStage::new("rounds", "clipped mean", s, a, t).mu(),
            delta,
        )
        .unwrap();
        println!(
            "fedrep ε={eps}: Δ={d:.4} σ̂_paper={p:.6} ησ̂={:.5} σ̂_code={a:.6} ε_zCDP(paper)={z:.4} \
             ε_exact(paper)={exact:.4} ε_exact(code)={exact_authors:.4}",
            eta * p
        );
        assert!((d - big_delta).abs() <= 5e-4, "Δ {d}");
        assert!((p - paper).abs() <= 5e-7, "paper σ̂ {p}");
        assert!((eta * p - eta_paper).abs() <= 5e-6, "η σ̂ {}", eta * p);
        assert!((a - authors).abs() <= 5e-7, "authors σ̂ {a}");
        assert!((z - spent_zcdp).abs() <= 5e-4, "zCDP ε {z}");
        // The paper's constant is valid: every accountant says it spends < ε.
        assert!(exact < z && z < eps);
    }
}

#[test]
fn epsilon_falls_as_sigma_grows_and_rises_with_the_number_of_steps() {
    let delta = 1e-5;
    let sigmas = [1e-3, 0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 20.0, 100.0];
    for t in [1u64, 10, 1000] {
        let eps: Vec<[f64; 4]> = sigmas
            .iter()
            .map(|&z| {
                let st = stage(z, t);
                [
                    epsilon_for_mu(st.mu(), delta).unwrap(),
                    epsilon_improved(st.rdp_slope(), delta).unwrap().epsilon,
                    epsilon_classic(st.rdp_slope(), delta).unwrap().epsilon,
                    epsilon_for_rho(st.rho(), delta).unwrap(),
                ]
            })
            .collect();
        for w in eps.windows(2) {
            for k in 0..4 {
                assert!(w[1][k] < w[0][k], "T={t} accountant {k}: {:?}", w);
            }
        }
    }
    for z in [0.5, 1.0, 10.0] {
        let mut last = 0.0;
        for t in [1u64, 2, 10, 100, 10_000, 1_000_000] {
            let e = epsilon_for_mu(stage(z, t).mu(), delta).unwrap();
            assert!(e > last, "z={z} T={t}");
            last = e;
        }
    }
}

#[test]
fn epsilon_to_sigma_to_epsilon_round_trips_including_extremes() {
    let mut worst: f64 = 0.0;
    for eps in [1e-4, 1e-2, 0.1, 0.5, 1.0, 2.0, 8.0, 30.0, 100.0] {
        for delta in [1e-300, 1e-12, 1e-5, 0.1, 0.5, 0.9] {
            for t in [1u64, 100, 1_000_000] {
                for s in [1e-4, 1.0] {
                    let sigma = sigma_for_epsilon_exact(eps, delta, t, s).unwrap();
                    let st = GaussianStage::new("x", "x", s, sigma, t);
                    let back = epsilon_for_mu(st.mu(), delta).unwrap();
                    let err = rel(back, eps);
                    worst = worst.max(err);
                    assert!(err < 1e-9, "ε={eps} δ={delta} T={t} s={s}: {back}");
                }
            }
        }
    }
    println!("ε → σ → ε: worst relative error {worst:.2e}");
    // σ → ε → σ wherever ε is a valid target.
    for sigma in [1e-2, 0.3, 1.0, 10.0, 1e3, 1e5] {
        for t in [1u64, 1000, 1_000_000] {
            let st = stage(sigma, t);
            let eps = epsilon_for_mu(st.mu(), 1e-5).unwrap();
            if eps > 0.0 && eps <= 100.0 {
                let back = sigma_for_epsilon_exact(eps, 1e-5, t, 1.0).unwrap();
                assert!(
                    rel(back, sigma) < 1e-8,
                    "σ={sigma} T={t}: ε={eps} σ'={back}"
                );
            }
        }
    }
}

#[test]
fn delta_approaching_one_drives_epsilon_to_zero() {
    for mu in [0.1, 1.0, 5.0] {
        let mut last = f64::INFINITY;
        for delta in [1e-5, 0.1, 0.5, 0.9, 0.99, 0.999_999, 1.0 - 1e-12] {
            let e = epsilon_for_mu(mu, delta).unwrap();
            assert!(e <= last, "μ={mu} δ={delta}");
            last = e;
        }
        assert_eq!(last, 0.0, "μ={mu}");
    }
    // And the other way round: δ(ε) → 0 as ε grows, δ(0) < 1.
    assert!(delta_for_epsilon(1.0, 0.0) < 1.0);
    // δ(0) = Φ(μ/2) − Φ(−μ/2) = 2Φ(1/2) − 1 at μ = 1.
    assert!(rel(delta_for_epsilon(1.0, 0.0), 0.382_924_922_548_026_24) < 1e-12);
    assert_eq!(delta_for_epsilon(1.0, 1e6), 0.0);
}

#[test]
fn exact_is_tightest_then_rdp_improved_then_rdp_classic_and_zcdp() {
    for mu in [1e-3, 0.05, 0.3, 1.0, 3.0, 10.0, 100.0] {
        for delta in [1e-12, 1e-6, 1e-3, 0.1] {
            let slope = 0.5 * mu * mu;
            let exact = epsilon_for_mu(mu, delta).unwrap();
            let improved = epsilon_improved(slope, delta).unwrap().epsilon;
            let classic = epsilon_classic(slope, delta).unwrap().epsilon;
            let zcdp = epsilon_for_rho(slope, delta).unwrap();
            assert!(exact <= improved, "μ={mu} δ={delta}: {exact} > {improved}");
            assert!(improved <= classic, "μ={mu} δ={delta}");
            assert!(exact <= zcdp, "μ={mu} δ={delta}");
        }
    }
    // In σ for a target ε: the exact accountant needs the least noise.
    for eps in [0.1, 1.0, 10.0] {
        let delta = 1e-5;
        let exact = 1.0 / mu_for_epsilon(eps, delta).unwrap();
        let improved = 1.0 / (2.0 * slope_for_epsilon_improved(eps, delta).unwrap()).sqrt();
        let classic = 1.0 / (2.0 * slope_for_epsilon_classic(eps, delta).unwrap()).sqrt();
        let zcdp = 1.0 / (2.0 * rho_for_epsilon(eps, delta).unwrap()).sqrt();
        assert!(exact <= improved && improved <= classic && exact <= zcdp);
    }
}

#[test]
fn exact_calibration_with_budget_shares_composes_back_to_exactly_epsilon() {
    let relation = Relation::ReplaceOne;
    for (eps, delta, share_init) in [(1.0, 1e-6, 0.1), (4.0, 1e-5, 0.3), (0.2, 1e-8, 0.5)] {
        let s_init = relation.mean_sensitivity(1.0, 500);
        let s_round = relation.mean_sensitivity(10.0, 20000);
        let stages_in = [(1u64, s_init, share_init), (50, s_round, 1.0 - share_init)];
        let sigmas = calibrate_exact(eps, delta, &stages_in).unwrap();
        let stages = vec![
            GaussianStage::new(
                "initialization",
                "noisy moment matrix",
                s_init,
                sigmas[0],
                1,
            ),
            GaussianStage::new(
                "training rounds",
                "noisy clipped mean",
                s_round,
                sigmas[1],
                50,
            ),
        ];
        // Each stage receives its share of μ².
        let mu2 = mu_for_epsilon(eps, delta).unwrap().powi(2);
        assert!(rel(stages[0].mu().powi(2), share_init * mu2) < 1e-12);
        let report =
            PrivacyReport::from_stages(stages, delta, relation, Calibration::Exact, eps).unwrap();
        println!(
            "shares: ε={eps} δ={delta} init share {share_init}: σ = {sigmas:?}, composed ε = {:.12}",
            report.epsilon_exact
        );
        assert!(rel(report.epsilon_exact, eps) < 1e-9);
        assert!(report.epsilon_exact <= eps * (1.0 + 1e-12));
        assert!(!report.notes.iter().any(|n| n.contains("more than")));
    }
}

#[test]
fn no_nan_or_infinity_on_the_extreme_grid() {
    let deltas = [f64::MIN_POSITIVE, 1e-300, 1e-12, 1e-5, 0.5, 1.0 - 1e-12];
    for sigma in [1e-5, 1e-3, 1.0, 1e3, 1e5] {
        for t in [1u64, 1000, 1_000_000] {
            for s in [1e-3, 1.0] {
                for delta in deltas {
                    let st = GaussianStage::new("x", "x", s, sigma, t);
                    let r = PrivacyReport::from_stages(
                        vec![st],
                        delta,
                        Relation::ReplaceOne,
                        Calibration::Exact,
                        1.0,
                    )
                    .unwrap();
                    for v in [
                        r.epsilon_exact,
                        r.epsilon_rdp,
                        r.rdp_alpha,
                        r.epsilon_rdp_classic,
                        r.rdp_classic_alpha,
                        r.epsilon_zcdp,
                    ] {
                        assert!(
                            v.is_finite() && v >= 0.0,
                            "σ={sigma} T={t} s={s} δ={delta}: {r:?}"
                        );
                    }
                    assert!(r.epsilon_exact <= r.epsilon_rdp * (1.0 + 1e-12));
                    assert!(!r.plain_language().contains("NaN"));
                    assert!(delta_for_epsilon(r.mu_total(), 1.0).is_finite());
                }
            }
        }
    }
    for eps in [1e-6, 1e-3, 1.0, 10.0, 100.0] {
        for delta in deltas {
            for t in [1u64, 1_000_000] {
                let sigma = sigma_for_epsilon_exact(eps, delta, t, 1.0).unwrap();
                let a = slope_for_epsilon_improved(eps, delta).unwrap();
                let b = slope_for_epsilon_classic(eps, delta).unwrap();
                let c = rho_for_epsilon(eps, delta).unwrap();
                for v in [sigma, a, b, c] {
                    assert!(v.is_finite() && v > 0.0, "ε={eps} δ={delta} T={t}: {v}");
                }
            }
        }
    }
    for x in [f64::NAN, f64::INFINITY, -1.0] {
        assert!((0.0..=1.0).contains(&delta_for_epsilon(x, 1.0)));
        assert!((0.0..=1.0).contains(&delta_for_epsilon(1.0, x)));
    }
}

#[test]
fn out_of_range_inputs_give_typed_errors() {
    assert!(matches!(
        epsilon_for_mu(1.0, 0.0),
        Err(AccountingError::Delta { .. })
    ));
    assert!(matches!(
        epsilon_for_mu(1.0, 1.0),
        Err(AccountingError::Delta { .. })
    ));
    assert!(matches!(
        epsilon_for_mu(f64::NAN, 0.5),
        Err(AccountingError::Mu { .. })
    ));
    assert!(matches!(
        mu_for_epsilon(0.0, 1e-5),
        Err(AccountingError::Epsilon { .. })
    ));
    assert!(matches!(
        mu_for_epsilon(101.0, 1e-5),
        Err(AccountingError::Epsilon { .. })
    ));
    assert!(matches!(
        sigma_for_epsilon_exact(1.0, 1e-5, 0, 1.0),
        Err(AccountingError::Steps { .. })
    ));
    assert!(matches!(
        sigma_for_epsilon_exact(1.0, 1e-5, 1, -1.0),
        Err(AccountingError::Sensitivity { .. })
    ));
    let st = GaussianStage::new("x", "x", 1.0, f64::NAN, 1);
    assert!(matches!(
        PrivacyReport::from_stages(
            vec![st],
            1e-5,
            Relation::ReplaceOne,
            Calibration::Exact,
            1.0
        ),
        Err(AccountingError::Sigma { .. })
    ));
    assert!(matches!(
        PrivacyReport::from_stages(vec![], 1e-5, Relation::ReplaceOne, Calibration::Exact, 1.0),
        Err(AccountingError::NoStages)
    ));
    assert!(matches!(
        epsilon_improved(0.0, 1e-5),
        Err(AccountingError::RdpSlope { .. })
    ));
}

#[test]
fn the_report_serialises_with_kebab_case_names() {
    let r = PrivacyReport::from_stages(
        vec![stage(1.0, 1)],
        1e-5,
        Relation::AddRemoveOne,
        Calibration::AuthorsCode,
        5.0,
    )
    .unwrap();
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["relation"], "add-remove-one");
    assert_eq!(json["calibration"], "authors-code");
    let back: PrivacyReport = serde_json::from_value(json).unwrap();
    assert_eq!(back, r);
}
