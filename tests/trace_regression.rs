//! DP low-rank trace regression (Zha 2024) on the registry: recovery without
//! noise, the two data paths, exact accounting, and the reference table of
//! docs/algorithms.md (a numpy check made for this project; the paper has no
//! experiments).

mod common;

use dp_explorer::privacy::gdp::epsilon_for_mu;
use dp_explorer::scenarios::field::Config;
use dp_explorer::scenarios::trace::charts::median_of;
use dp_explorer::scenarios::trace::config::{PrivacyKind, TraceConfig, Variant};
use dp_explorer::scenarios::trace::method::Method;
use dp_explorer::scenarios::trace::plan::{paper_sensitivities, plan};
use dp_explorer::scenarios::trace::run::{TraceRow, TraceSweep};
use dp_explorer::scenarios::{self, Checked, Run, Shard};

fn config(preset: &str, pairs: &[(&str, &str)]) -> TraceConfig {
    TraceConfig::from_pairs(preset, pairs.iter().copied())
        .expect("valid settings")
        .into_inner()
}

fn run(c: TraceConfig) -> Vec<TraceRow> {
    let mut sweep = TraceSweep::new(Checked::new(c).expect("valid settings"));
    while !sweep.step().expect("the run finishes") {}
    sweep.rows().to_vec()
}

fn cell(rows: &[TraceRow], method: Method, n: usize, eps: f64) -> f64 {
    median_of(
        rows,
        |r| {
            r.method == method
                && r.n == n
                && (r.epsilon == eps || (eps.is_nan() && r.epsilon.is_nan()))
        },
        |r| r.error_fro,
    )
}

/// Without label noise RGrad converges to M itself (a noiseless rank-r
/// system with n ≫ r(d1 + d2) has M as its only rank-r solution); the private
/// runs at a large ε come within 5 % of ‖M‖_F = 2.24 (their noise grows with l*).
#[test]
fn without_noise_rgrad_recovers_m() {
    let rows = run(config(
        "trace-paper",
        &[
            ("noise", "0"),
            ("n", "5000"),
            ("repeats", "3"),
            ("iterations", "40"),
            ("epsilons", "50"),
        ],
    ));
    let rgrad = cell(&rows, Method::Rgrad, 5000, f64::NAN);
    assert!(rgrad < 1e-8, "RGrad error {rgrad}");
    let private = cell(&rows, Method::DpRgrad, 5000, 50.0);
    assert!(
        private < 0.05 * 5f64.sqrt(),
        "DP-RGrad at ε = 50: {private}"
    );
}

/// The spec table (docs/algorithms.md, DP trace regression): the median over
/// 20 replicates of ‖M̃₀ − M‖_F and ‖M̃_{l*} − M‖_F in every (n, ε) cell within
/// ±30 % of the reference check's.
#[test]
fn the_reference_table_is_reproduced_within_30_percent() {
    let rows = run(config("trace-paper", &[]));
    #[rustfmt::skip]
    let table: [(usize, [(f64, f64); 5]); 5] = [
        (10_000, [(1.12, 0.517), (0.571, 0.248), (0.316, 0.131), (0.176, 0.060), (0.135, 0.030)]),
        (20_000, [(0.628, 0.274), (0.317, 0.132), (0.170, 0.071), (0.114, 0.035), (0.094, 0.020)]),
        (50_000, [(0.274, 0.111), (0.139, 0.056), (0.092, 0.031), (0.063, 0.018), (0.063, 0.014)]),
        (100_000, [(0.153, 0.058), (0.079, 0.029), (0.057, 0.018), (0.045, 0.011), (0.045, 0.009)]),
        (200_000, [(0.081, 0.029), (0.050, 0.016), (0.036, 0.010), (0.034, 0.007), (0.032, 0.006)]),
    ];
    let eps = [0.5, 1.0, 2.0, 5.0, f64::NAN];
    for (n, cells) in table {
        for (e, (init, fin)) in eps.iter().zip(cells) {
            let (mi, mf) = if e.is_nan() {
                (
                    cell(&rows, Method::SpectralInit, n, *e),
                    cell(&rows, Method::Rgrad, n, *e),
                )
            } else {
                (
                    cell(&rows, Method::DpInit, n, *e),
                    cell(&rows, Method::DpRgrad, n, *e),
                )
            };
            for (got, want, what) in [(mi, init, "init"), (mf, fin, "final")] {
                assert!(
                    (got - want).abs() <= 0.3 * want,
                    "n = {n}, ε = {e}: {what} {got:.4} against {want}"
                );
            }
        }
    }
}

/// The direct path (n matrices) and the Wishart path give the same errors in
/// distribution: medians over 40 datasets within 15 %.
#[test]
fn the_two_data_paths_agree_in_distribution() {
    let mut medians = Vec::new();
    for data in ["direct", "sufficient"] {
        let rows = run(config(
            "trace-paper",
            &[
                ("d1", "5"),
                ("d2", "4"),
                ("n", "3000"),
                ("repeats", "40"),
                ("epsilons", "1"),
                ("data", data),
            ],
        ));
        medians.push([
            cell(&rows, Method::SpectralInit, 3000, f64::NAN),
            cell(&rows, Method::Rgrad, 3000, f64::NAN),
            cell(&rows, Method::DpInit, 3000, 1.0),
            cell(&rows, Method::DpRgrad, 3000, 1.0),
        ]);
    }
    for (j, (&a, &b)) in medians[0].iter().zip(&medians[1]).enumerate() {
        assert!(
            (a - b).abs() <= 0.15 * a.max(b),
            "statistic {j}: direct {a} vs sufficient {b}"
        );
    }
}

/// The report composes exactly the releases the paper makes: μ² is the sum
/// of (Δ/σ)² over the three init releases and the l* iterations, and the ε
/// spent is the GDP ε of that μ; the clipped variant spends exactly 2ε.
#[test]
fn the_accounting_is_exact() {
    let c = config("trace-paper", &[]);
    let (n, eps) = (50_000, 1.0);
    let p = plan(&c, n, eps, Variant::Paper, PrivacyKind::Strong).unwrap();
    let (d1, d2, dl) = paper_sensitivities(&c, n, PrivacyKind::Strong);
    assert!((d1 - 1.0e-3).abs() < 0.05e-3, "Δ⁽¹⁾ = {d1}");
    assert!((dl - 3.1e-4).abs() < 0.1e-4, "Δ_l = {dl}");
    assert!((p.loop_sd - 8.1e-3).abs() < 0.1e-3, "sd = {}", p.loop_sd);
    let mu2 = 2.0 * (d1 / p.s1).powi(2) + (d2 / p.s2).powi(2) + 5.0 * (dl / p.loop_sd).powi(2);
    let want = epsilon_for_mu(mu2.sqrt(), 2.0 * c.delta).unwrap();
    assert!(
        (p.report.epsilon_exact - want).abs() < 1e-9,
        "{} vs {want}",
        p.report.epsilon_exact
    );
    // The paper's classical calibration is loose: the exact ε is below the nominal 2ε.
    assert!(p.report.epsilon_exact < 2.0 * eps);
    let weak = paper_sensitivities(&c, n, PrivacyKind::Weak);
    assert!(weak.0 < d1 && weak.2 < dl);
    let cd = TraceConfig {
        data: dp_explorer::data::trace_regression::DataPath::Direct,
        ..c
    };
    let q = plan(&cd, n, eps, Variant::Clipped, PrivacyKind::Strong).unwrap();
    assert!((q.report.epsilon_exact - 2.0 * eps).abs() < 1e-6);
}

/// The clipped variant's sweep of n = 2000 samples (given directly, as it
/// needs) at ε = 1, `repeats` times, run to its end.
fn clipped_sweep(repeats: &str) -> Box<dyn Run> {
    let pairs = [
        ("variant", "clipped"),
        ("data", "direct"),
        ("n", "2000"),
        ("repeats", repeats),
        ("epsilons", "1"),
    ];
    common::finished("trace-paper", &pairs, Shard::WHOLE)
}

/// The clipped variant needs the samples, and says so at its field.
#[test]
fn the_clipped_variant_is_refused_on_sufficient_statistics() {
    let errors = scenarios::validate("trace-paper", &[("variant", "clipped")]);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].field(), "variant");
    let csv = &clipped_sweep("2").view().files[0].text;
    // The clipped rows and the paper's, for comparison.
    assert!(csv.contains(",clipped,strong,") && csv.contains(",paper,strong,"));
    for col in [
        "method",
        "n",
        "epsilon",
        "repeat",
        "error_fro",
        "subspace_error",
        "epsilon_spent",
    ] {
        assert!(
            csv.lines().next().unwrap().split(',').any(|h| h == col),
            "{col}"
        );
    }
}

/// n = 10⁶ through the Wishart path needs no n matrices: it finishes fast.
#[test]
fn a_million_samples_through_the_sufficient_statistics() {
    let rows = run(config(
        "trace-paper",
        &[("n", "1000000"), ("repeats", "2"), ("epsilons", "1")],
    ));
    let e = cell(&rows, Method::DpRgrad, 1_000_000, 1.0);
    assert!(e.is_finite() && e < 0.01, "{e}");
}

/// The paper's variant's ε rests on high-probability sensitivities: its explain-ε
/// entries say, in the reading and beside the attacker's bound, that the ε holds
/// only on a likely event, with the paper's constants; the clipped variant's do not.
/// (A clipped sweep runs the paper's variant beside it: both kinds of entry.)
#[test]
fn the_paper_variant_says_its_epsilon_holds_on_a_likely_event() {
    let view = clipped_sweep("1").view();
    let mut kinds = Vec::new();
    for e in &view.privacy {
        let paper = e.summary.contains("the paper's sensitivities");
        let reading = e.reading.as_deref().unwrap();
        let a = e.attacker.as_ref().unwrap();
        let sentence = &a.sentence;
        // Every reading of the ε, the plain opening and the frequencies too, says so.
        let says = reading.contains("holds only on a likely event")
            && sentence.contains("likely event")
            && a.plain.contains("likely event")
            && a.frequencies.starts_with("If those bounds hold")
            && a.test_bound
                .contains("If those bounds hold, every such test");
        assert_eq!(says, paper, "{}: {reading} / {sentence}", e.summary);
        if paper {
            assert!(reading.contains("the constant C = "), "{reading}");
        }
        kinds.push(paper);
    }
    assert!(kinds.contains(&true) && kinds.contains(&false), "{kinds:?}");
}
