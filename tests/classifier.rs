//! Algorithm 3 (JL + exponential mechanism, Snedeker et al.): the score's
//! sensitivity is at most 1/n whatever one user's data; the Gumbel-max
//! sampler draws with probability ∝ exp(ε n f / 2); the scenario runs both
//! presets to the end with a pure-ε report.

mod common;

use common::cb;
use dp_explorer::algorithms::jl_exponential::{
    exponential_mechanism, jl_matrix, project, random_candidates, score,
};
use dp_explorer::data::margin_classification::{Inputs, MarginModel, Points};
use dp_explorer::rng::{stream, Purpose};
use dp_explorer::scenarios::{self, Shard};
use rand::RngExt;

#[test]
fn replacing_one_user_moves_every_candidates_score_by_at_most_one_over_n() {
    let model = MarginModel {
        n: 12,
        m: 8,
        d: 10,
        k: 2,
        inputs: Inputs::Subspace { signal: 0.8 },
        radius: 1.0,
        gamma: 1.0,
        margin: 0.05,
        flip: 0.1,
        seed: 4,
    };
    let data = model.generate().unwrap();
    let mut rng = stream(9, Purpose::Initialization, 0);
    let m = jl_matrix(4, 10, &mut rng);
    let candidates = random_candidates(4, 2, 60, &mut rng);
    let labels: Vec<Vec<f64>> = data.train.iter().map(|p| p.y.clone()).collect();
    let projected: Vec<Vec<f64>> = data.train.iter().map(|p| project(&m, p)).collect();
    let scores = |proj: &[Vec<f64>], lab: &[Vec<f64>]| -> Vec<f64> {
        let lab: Vec<&[f64]> = lab.iter().map(Vec::as_slice).collect();
        candidates
            .iter()
            .map(|c| score(c, proj, &lab, 1.0, 0.05, &[]))
            .collect()
    };
    let before = scores(&projected, &labels);
    let mut worst: f64 = 0.0;
    for trial in 0..30 {
        // An adversarial neighbour: user `who` replaced by arbitrary points and labels.
        let who = trial % 12;
        let fake = Points {
            x: (0..4 * 10)
                .map(|_| 5.0 * (rng.random::<f64>() - 0.5))
                .collect(),
            y: (0..4)
                .map(|j| if (j + trial) % 3 == 0 { 1.0 } else { -1.0 })
                .collect(),
        };
        let (mut proj, mut lab) = (projected.clone(), labels.clone());
        proj[who] = project(&m, &fake);
        lab[who] = fake.y.clone();
        for (a, b) in before.iter().zip(scores(&proj, &lab)) {
            worst = worst.max((a - b).abs());
        }
    }
    assert!(worst <= 1.0 / 12.0 + 1e-12, "{worst}");
    assert!(worst > 0.0, "the neighbours changed some score");
}

#[test]
fn the_sampler_draws_with_probability_proportional_to_exp_of_eps_n_f_over_two() {
    // Four candidates, ε = 2, n = 10 (sensitivity 1/10): p_c ∝ exp(10·f_c).
    let scores: [f64; 4] = [-0.30, -0.20, -0.25, -0.40];
    let (eps, n): (f64, f64) = (2.0, 10.0);
    let weights: Vec<f64> = scores.iter().map(|f| (eps * n * f / 2.0).exp()).collect();
    let total: f64 = weights.iter().sum();
    let draws = 40_000;
    let mut counts = [0usize; 4];
    let mut rng = stream(5, Purpose::MechanismNoise, 0);
    for _ in 0..draws {
        counts[exponential_mechanism(&scores, eps, 1.0 / n, &mut rng).unwrap()] += 1;
    }
    let chi2: f64 = counts
        .iter()
        .zip(&weights)
        .map(|(&c, w)| {
            let expected = draws as f64 * w / total;
            (c as f64 - expected).powi(2) / expected
        })
        .sum();
    // χ² with 3 degrees of freedom: P(χ² > 16.27) = 0.001.
    assert!(chi2 < 16.27, "χ² = {chi2}, counts {counts:?}");
}

#[test]
fn both_presets_run_to_the_end_with_a_pure_epsilon_report() {
    for preset in ["jl-exact", "jl-random"] {
        let pairs = [("n", "60"), ("d_grid", "10,40"), ("test_points", "20")];
        let view = common::finished(preset, &pairs, Shard::WHOLE).view();
        assert_eq!(view.charts.len(), 3);
        let csv = &view.files[0].text;
        let header = csv.lines().next().unwrap();
        for col in [
            "method",
            "d",
            "epsilon",
            "seed",
            "error01",
            "candidates",
            "epsilon_spent",
        ] {
            assert!(header.split(',').any(|c| c == col), "{col}");
        }
        for method in ["jl-em", "best-candidate", "local-only", "true-model"] {
            assert!(
                csv.lines().any(|l| l.starts_with(&format!("{method},"))),
                "{preset}: {method}"
            );
        }
        // Every error is a fraction; the private rows spend exactly their ε.
        for line in csv.lines().skip(1) {
            let cells: Vec<&str> = line.split(',').collect();
            let error: f64 = cells[4].parse().unwrap();
            assert!((0.0..=1.0).contains(&error), "{line}");
            if cells[0].starts_with("jl-em") {
                assert_eq!(cells[2], cells[6], "{line}");
            }
        }
        let entry = &view.privacy[0];
        assert!(
            entry.reading.as_ref().unwrap().contains("δ = 0"),
            "{:?}",
            entry.reading
        );
        assert!(entry.tables[0].rows[0][1].contains("exponential mechanism"));
        // The note says what Theorem 17 would need beside the run's values,
        // not that it applies.
        let notes = entry.notes.join(" ");
        assert!(notes.contains("r²Γ²·ln(nm)/ρ² ≈"), "{notes}");
        assert!(!notes.contains("Theorem 17 applies"), "{notes}");
        if preset == "jl-exact" {
            // n = 60, m = 20, ρ = 0.1: ln(1200)/0.01 ≈ 709.
            assert!(notes.contains("γ = 0.5 against ρ/(rΓ) = 0.1"), "{notes}");
            assert!(
                notes.contains("k′ = 2 against r²Γ²·ln(nm)/ρ² ≈ 709"),
                "{notes}"
            );
        }
    }
}

fn fields_at_fault(preset: &str, extra: &[(&str, &str)]) -> Vec<String> {
    let pairs = common::with(&cb(), extra);
    scenarios::validate(preset, &pairs)
        .iter()
        .map(|e| e.field().to_string())
        .collect()
}

#[test]
fn a_dimension_below_k_is_refused_at_its_field_in_the_sweep_and_the_audit() {
    // U* is d×k with orthonormal columns: k ≤ d at every d the sweep runs.
    assert_eq!(fields_at_fault("jl-random", &[("d", "1")]), ["d"]);
    assert_eq!(
        fields_at_fault("jl-random", &[("d_grid", "10,1")]),
        ["d_grid"]
    );
    assert_eq!(
        fields_at_fault("jl-exact", &[("k", "2"), ("d", "1")]),
        ["d"]
    );
    assert!(fields_at_fault("jl-random", &[("d", "2")]).is_empty());
    let pairs = common::with(&cb(), &[("d", "1")]);
    let refused = scenarios::start_audit("jl-random", &pairs, Default::default())
        .err()
        .expect("the audit refuses d < k");
    assert_eq!(refused[0].field(), "d");
    // k = d runs: the subspace inputs then have no part orthogonal to U*.
    common::finished(
        "jl-random",
        &common::with(&cb(), &[("d", "2")]),
        Shard::WHOLE,
    );
}

#[test]
fn a_margin_the_inputs_cannot_keep_is_refused_at_margin_and_the_largest_allowed_one_runs() {
    for inputs in ["subspace", "ball"] {
        let faults = fields_at_fault(
            "jl-random",
            &[("inputs", inputs), ("d", "5"), ("margin", "1")],
        );
        assert_eq!(faults, ["margin"], "{inputs}");
    }
    // The bound the message prints is one the data draw meets.
    let pairs = common::with(&cb(), &[("inputs", "ball"), ("d", "5"), ("margin", "1")]);
    let message = scenarios::validate("jl-random", &pairs)[0].to_string();
    let bound: f64 = message
        .split("at most ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no bound in {message}"));
    assert!(bound > 0.5 && bound < 1.0, "{message}");
    let at = bound.to_string();
    let pairs = common::with(&cb(), &[("inputs", "ball"), ("d", "5"), ("margin", &at)]);
    assert!(scenarios::validate("jl-random", &pairs).is_empty());
    common::finished("jl-random", &pairs, Shard::WHOLE);
}
