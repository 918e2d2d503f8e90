//! Every input ends in a clear message at a field, or in finite results: the
//! hang, the panics and the non-finite "successes" found by fuzzing the CLI,
//! each as a regression test through the registry (so they hold for every
//! scenario that shares the machinery).

use dp_explorer::scenarios::{self, Shard};

/// The errors of these settings, or the CSV of their finished run.
fn outcome(preset: &str, pairs: &[(&str, &str)]) -> Result<String, Vec<String>> {
    let errors = scenarios::validate(preset, pairs);
    if !errors.is_empty() {
        return Err(errors
            .iter()
            .map(|e| format!("{}|{e}", e.field()))
            .collect());
    }
    let (_, mut run) = scenarios::start(preset, pairs, Shard::WHOLE).map_err(|e| {
        e.iter()
            .map(|e| format!("{}|{e}", e.field()))
            .collect::<Vec<_>>()
    })?;
    match scenarios::run_to_end(run.as_mut()) {
        Ok(()) => Ok(run.view().files[0].text.clone()),
        Err(e) => Err(vec![format!("run|{e}")]),
    }
}

/// Refused at `field`, with a message short enough to read.
fn refused_at(preset: &str, pairs: &[(&str, &str)], field: &str) {
    let errors = outcome(preset, pairs).expect_err("refused");
    assert!(
        errors.iter().any(|e| e.starts_with(&format!("{field}|"))),
        "{pairs:?}: {errors:?}"
    );
    for e in &errors {
        assert!(e.len() < 400, "{e}");
    }
}

/// `refused_at` on fedrep-paper at n = 200, d = 10 with `extra` settings.
fn refused_in_small_fedrep(extra: &[(&str, &str)], field: &str) {
    let mut pairs = vec![("n", "200"), ("d", "10")];
    pairs.extend_from_slice(extra);
    refused_at("fedrep-paper", &pairs, field);
}

#[test]
fn the_clip_that_hung_the_principal_angle_is_refused_at_clip() {
    refused_at(
        "fedrep-paper",
        &[
            ("n", "50"),
            ("d", "3"),
            ("k", "3"),
            ("m", "5"),
            ("rounds", "5"),
            ("clip", "1e200"),
        ],
        "clip",
    );
    refused_at(
        "fedrep-linear-sim",
        &[("n", "10"), ("d", "5"), ("k", "1"), ("clip", "1e304")],
        "clip",
    );
}

#[test]
fn the_settings_that_panicked_or_gave_non_finite_results_are_refused_at_their_fields() {
    let dpgd: &[(&[(&str, &str)], &str)] = &[
        // These panicked.
        (&[("clip_scale", "1e308")], "clip_scale"),
        (
            &[("clip_scale", "1e200"), ("epsilons", "1e-150")],
            "epsilons",
        ),
        // These gave non-finite results.
        (&[("clip_scale", "1e300")], "clip_scale"),
        (
            &[("target", "linear"), ("label_noise", "1e200")],
            "label_noise",
        ),
        (&[("delta", "1e-100"), ("epsilons", "1000")], "epsilons"),
    ];
    for (pairs, field) in dpgd {
        refused_at("dpgd-quick", pairs, field);
    }
    let fedrep: &[(&[(&str, &str)], &str)] = &[
        // These panicked.
        (&[("clip", "1e300")], "clip"),
        (&[("altmin_clip", "1e-160")], "altmin_clip"),
        (&[("epsilons", "1e-300"), ("delta", "1e-200")], "epsilons"),
        // This gave non-finite results.
        (&[("local_step", "1e308")], "local_step"),
    ];
    for (extra, field) in fedrep {
        refused_in_small_fedrep(extra, field);
    }
}

#[test]
fn absurd_work_is_refused_with_the_fields_to_lower() {
    refused_at("fedrep-paper", &[("d", "1000"), ("m", "10000")], "n");
    let errors = outcome("fedrep-paper", &[("d", "1000"), ("m", "10000")]).unwrap_err();
    assert!(
        errors.iter().any(|e| e.contains(" h on one core")),
        "{errors:?}"
    );
}

#[test]
fn at_the_edges_of_every_range_a_run_ends_in_finite_numbers_or_a_named_divergence() {
    for pairs in [
        vec![
            ("n", "50"),
            ("d", "5"),
            ("clip", "1e6"),
            ("epsilons", "0.001"),
        ],
        vec![("n", "50"), ("d", "5"), ("local_step", "10")],
        vec![("n", "50"), ("d", "5"), ("eta", "1000")],
        vec![
            ("n", "50"),
            ("d", "5"),
            ("altmin_clip", "1e6"),
            ("altmin_label_clip", "1e6"),
        ],
        vec![
            ("n", "50"),
            ("d", "5"),
            ("noise", "1000"),
            ("epsilons", "0.001,100"),
        ],
    ] {
        match outcome("fedrep-paper", &pairs) {
            Ok(csv) => {
                for line in csv.lines().skip(1) {
                    let cells: Vec<&str> = line.split(',').collect();
                    // excess_risk and mse are always numbers.
                    for c in &cells[4..6] {
                        let x: f64 = c.parse().unwrap();
                        assert!(x.is_finite(), "{pairs:?}: {line}");
                    }
                }
            }
            Err(errors) => assert!(
                errors.iter().all(|e| e.starts_with("run|")
                    && e.contains("diverged")
                    && e.contains("change ")),
                "{pairs:?}: {errors:?}"
            ),
        }
    }
}

#[test]
fn many_unknown_settings_give_one_list_of_the_known_ones_and_a_count() {
    let keys: Vec<String> = (0..5000).map(|i| format!("bogus{i}")).collect();
    let pairs: Vec<(&str, &str)> = keys.iter().map(|k| (k.as_str(), "1")).collect();
    let errors = scenarios::validate("fedrep-paper", &pairs);
    assert!(errors.len() <= 51, "{}", errors.len());
    let text: String = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(text.matches("; known settings:").count(), 1);
    // One error at `settings` with the count and the first few names.
    assert!(
        text.contains("settings: 5000 unknown settings: \"bogus0\", \"bogus1\"")
            && text.contains(" and 4995 more;"),
        "{text}"
    );
    assert!(text.len() < 20_000, "{}", text.len());
}
