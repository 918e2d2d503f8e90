//! Scenarios through the registry: every preset runs to the end through the
//! generic `Run` interface, every field round-trips through text, settings of
//! another scenario are refused at their field; DP-GD's σ comes from the
//! crate's accountant and its ε spent is the exact ε of the noise it adds.

mod common;

use dp_explorer::privacy::calibration::sigma_for_epsilon_exact;
use dp_explorer::privacy::formulas::dpgd_prop32_multiplier;
use dp_explorer::privacy::gdp::{delta_for_epsilon, epsilon_for_mu};
use dp_explorer::privacy::PrivacyReport;
use dp_explorer::scenarios::dpgd::config::DpGdConfig;
use dp_explorer::scenarios::dpgd::plan::{dpgd_epsilon_spent, dpgd_report, dpgd_sigma};
use dp_explorer::scenarios::dpgd::run::{DpGdRow, DpGdSweep};
use dp_explorer::scenarios::field::Config;
use dp_explorer::scenarios::{self, Shard, SCENARIOS};

/// A DP-GD sweep run to the end with the crate's accountant: every row (main,
/// then loss-versus-T) with its report.
fn run(preset: &str, pairs: &[(&str, &str)]) -> Vec<(DpGdRow, Option<PrivacyReport>)> {
    let config = DpGdConfig::from_pairs(preset, pairs.iter().copied())
        .unwrap_or_else(|e| panic!("{preset}: {e:?}"));
    let (n, cal) = (config.n, config.calibration);
    let mut s = DpGdSweep::with_epsilon_spent(config, dpgd_sigma, dpgd_epsilon_spent, Shard::WHOLE)
        .unwrap();
    let total = s.progress().1;
    let mut steps = 0;
    while !s.step() {
        steps += 1;
        assert!(steps <= total, "more steps than planned");
    }
    assert_eq!(s.progress(), (total, total));
    assert_eq!(s.phase_label(), "done");
    [s.rows(), s.trace()]
        .concat()
        .into_iter()
        .map(|r| {
            let report = dpgd_report(&r, n, cal).transpose().unwrap();
            (r, report)
        })
        .collect()
}

/// Views are equal, NaN included (a horizontal reference has x = NaN): as JSON.
fn same_view(a: &scenarios::View, b: &scenarios::View) -> Result<(), String> {
    let (ja, jb) = (
        serde_json::to_string(a).unwrap(),
        serde_json::to_string(b).unwrap(),
    );
    if ja == jb && a.summary == b.summary {
        Ok(())
    } else {
        Err(format!("views differ:\n{ja}\n{jb}"))
    }
}

#[test]
fn the_dpgd_quick_preset_runs_to_the_end_through_the_registry() {
    let (s, mut run) = scenarios::start("dpgd-quick", &[], Shard::WHOLE).unwrap();
    assert_eq!(s.info().id, "dpgd");
    let total = run.progress().1;
    scenarios::run_to_end(run.as_mut()).unwrap();
    assert_eq!(run.progress(), (total, total));
    let snap = scenarios::snapshot("dpgd", run.as_ref());
    assert!(snap.finished);
    let view = &snap.view;
    assert_eq!(view.charts.len(), 4);
    assert_eq!(view.tables.len(), 4);
    assert_eq!(view.tables[1].rows.len(), 7, "one table row per width");
    for t in &view.tables {
        assert!(!t.rows.is_empty(), "{}", t.caption);
        assert!(t.rows.iter().all(|r| r.len() == t.headers.len()));
    }
    // One explain-ε entry per (method, target ε): 3 ε of the main grid and
    // the loss-versus-T runs' ε; each says who one "user" is here.
    assert_eq!(view.privacy.len(), 4);
    for e in &view.privacy {
        assert!(e.reading.as_ref().unwrap().contains("one training sample"));
        assert!(e.summary.contains("spend"), "{}", e.summary);
    }
    let json = serde_json::to_value(&snap).unwrap();
    assert_eq!(json["scenario"], "dpgd");
    for key in [
        "done", "total", "phase", "finished", "charts", "tables", "privacy", "files",
    ] {
        assert!(json.get(key).is_some(), "snapshot has {key}");
    }
    let csv = &view.files[0].text;
    assert_eq!(view.files[0].name, "results.csv");
    let mut lines = csv.lines();
    let header = lines.next().unwrap();
    for col in [
        "method",
        "p",
        "epsilon",
        "seed",
        "test_loss",
        "train_loss",
        "excess_risk",
        "clipped_fraction",
        "sigma",
        "epsilon_spent",
    ] {
        assert!(header.split(',').any(|c| c == col), "column {col}");
    }
    assert_eq!(lines.count(), 7 * 6 + 2 * 3);
    // Its one part merges back to the same view.
    let merged = scenarios::configure("dpgd-quick", &[])
        .unwrap()
        .merge(&[run.part()], scenarios::Coverage::Whole)
        .unwrap();
    assert_eq!(same_view(&merged, &run.view()), Ok(()));
}

/// The noise std on the mean gradient ḡ per step, (2C/n)·σ/√η, and the
/// replace-one sensitivity 2C/n of ḡ.
fn std_and_sensitivity(r: &DpGdRow, n: usize) -> (f64, f64) {
    let s = 2.0 * r.clip / n as f64;
    (s * r.sigma / r.eta.sqrt(), s)
}

fn rel(a: f64, b: f64) -> f64 {
    ((a - b) / b).abs()
}

#[test]
fn prop32_sigma_is_the_papers_and_epsilon_spent_is_its_exact_epsilon() {
    let rows = run("dpgd-quick", &[("calibration", "prop32")]);
    let n = 100;
    let private: Vec<_> = rows.iter().filter(|r| r.0.sigma > 0.0).collect();
    assert_eq!(private.len(), 7 * 3 + 2 * 3);
    for (r, report) in private {
        let want = dpgd_prop32_multiplier(r.eta, r.steps as u64, r.epsilon, r.delta);
        assert!(rel(r.sigma, want) < 1e-12, "{r:?}");
        // The algorithm's own noise std √η·(2C/n)·σ.
        assert!(
            rel(
                r.noise_std,
                r.eta.sqrt() * 2.0 * r.clip / n as f64 * r.sigma
            ) < 1e-12
        );
        // μ of T Gaussian steps of sensitivity s and std (2C/n)σ/√η: √T·s/std.
        let (std, sens) = std_and_sensitivity(r, n);
        let mu = (r.steps as f64).sqrt() * sens / std;
        // Under Prop. 3.2, μ = ε/√(8 ln(1/δ)) whatever η and T.
        assert!(rel(mu, r.epsilon / (8.0 * (1.0 / r.delta).ln()).sqrt()) < 1e-9);
        let exact = epsilon_for_mu(mu, r.delta).unwrap();
        assert!(rel(r.epsilon_spent, exact) < 1e-12, "{r:?}");
        // Never smaller than what it spends: (ε spent, δ) holds for this μ.
        assert!(delta_for_epsilon(mu, r.epsilon_spent) <= r.delta * (1.0 + 1e-9));
        // Prop. 3.2 is conservative: the run spends less than its target.
        assert!(r.epsilon_spent < r.epsilon, "{r:?}");
        let report = report.as_ref().unwrap();
        assert_eq!(report.epsilon_exact, r.epsilon_spent);
        assert_eq!(report.stages.len(), 1);
        assert!(rel(report.stages[0].sensitivity, sens) < 1e-12);
        assert_eq!(report.stages[0].steps, r.steps as u64);
    }
}

#[test]
fn exact_sigma_spends_exactly_the_target() {
    let s = run(
        "dpgd-quick",
        &[
            ("calibration", "exact"),
            ("epsilons", "0.5,2,10"),
            ("p_grid", "10,100,500"),
            ("trace_p", "500"),
        ],
    );
    let n = 100;
    for (r, report) in s.iter().filter(|r| r.0.sigma > 0.0) {
        let (std, sens) = std_and_sensitivity(r, n);
        let want = sigma_for_epsilon_exact(r.epsilon, r.delta, r.steps as u64, sens).unwrap();
        assert!(rel(std, want) < 1e-12, "{r:?}");
        assert!(rel(r.epsilon_spent, r.epsilon) < 1e-9, "{r:?}");
        let mu = (r.steps as f64).sqrt() * sens / std;
        assert!(delta_for_epsilon(mu, r.epsilon_spent) <= r.delta * (1.0 + 1e-9));
        let report = report.as_ref().unwrap();
        assert_eq!(report.epsilon_exact, r.epsilon_spent);
        assert!(
            report
                .notes
                .iter()
                .all(|n| !n.contains("more than the target")),
            "{:?}",
            report.notes
        );
    }
}

#[test]
fn every_preset_of_every_scenario_round_trips_through_text() {
    let mut names = Vec::new();
    for s in SCENARIOS {
        let info = s.info();
        assert!(
            !info.presets.is_empty() && !info.charts.is_empty(),
            "{}",
            info.id
        );
        for p in info.presets {
            names.push(p.name);
            let fields = s.preset_fields(p.name).unwrap();
            let listed: Vec<&str> = info.fields.iter().map(|f| f.name).collect();
            let got: Vec<&str> = fields.iter().map(|(k, _)| *k).collect();
            assert_eq!(got, listed, "{}", p.name);
            let pairs: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
            // Under another preset of the same scenario, the same text gives the same config.
            let other = info.presets[(info.presets.len() - 1).min(1)].name;
            assert!(s.configure(p.name, &pairs).is_ok(), "{}", p.name);
            assert_eq!(s.preset_fields(other).unwrap().len(), fields.len());
            let (found, name) = scenarios::by_preset(&p.name.to_ascii_uppercase()).unwrap();
            assert_eq!((found.info().id, name), (info.id, p.name));
        }
    }
    let before = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(
        names.len(),
        before,
        "preset names are unique across scenarios"
    );
    let e = scenarios::validate("nope", &[]);
    assert_eq!(e[0].field(), "preset");
    assert!(e[0].to_string().contains("dpgd-browser") && e[0].to_string().contains("fedrep-paper"));
}

#[test]
fn settings_of_another_scenario_are_refused_at_their_field() {
    let e = scenarios::validate("dpgd-quick", &[("rounds", "5")]);
    assert_eq!(e[0].field(), "rounds");
    let e = scenarios::validate("fedrep-paper", &[("p_grid", "10")]);
    assert_eq!(e[0].field(), "p_grid");
    // Every bad field at once, in DP-GD too.
    let e = scenarios::validate(
        "dpgd-quick",
        &[("n", "x"), ("p_grid", ""), ("d", "0"), ("clip_scale", "-1")],
    );
    let fields: Vec<&str> = e.iter().map(|e| e.field()).collect();
    for f in ["n", "p_grid", "d", "clip_scale"] {
        assert!(fields.contains(&f), "{f} in {fields:?}");
    }
    // Old names of renamed settings still work.
    assert!(scenarios::validate("fedrep-paper", &[("step", "1"), ("n", "2000")]).is_empty());
    assert!(scenarios::validate("dpgd-quick", &[("repeats", "2")]).is_empty());
}

/// The view of `count` shards of a sweep, each run to the end, merged.
fn merged_shards(preset: &str, pairs: &[(&str, &str)], count: usize) -> scenarios::View {
    let parts: Vec<Vec<u8>> = (0..count)
        .map(|index| common::finished(preset, pairs, Shard { index, count }).part())
        .collect();
    scenarios::configure(preset, pairs)
        .unwrap()
        .merge(&parts, scenarios::Coverage::Whole)
        .unwrap()
}

#[test]
fn fedrep_runs_through_the_registry_and_its_shards_merge_to_the_whole() {
    let pairs = [("n", "600"), ("d", "10"), ("epsilons", "1,4")];
    let whole = common::finished("fedrep-paper", &pairs, Shard::WHOLE);
    let merged = merged_shards("fedrep-paper", &pairs, 3);
    assert_eq!(same_view(&merged, &whole.view()), Ok(()));
    let json = serde_json::to_value(scenarios::snapshot("fedrep", whole.as_ref())).unwrap();
    assert_eq!(json["charts"].as_array().unwrap().len(), 2);
    assert_eq!(json["tables"].as_array().unwrap().len(), 2);
    // Two private methods × two ε: one explain entry each.
    assert_eq!(json["privacy"].as_array().unwrap().len(), 4);
    let files: Vec<&str> = merged.files.iter().map(|f| f.name).collect();
    assert_eq!(files, ["results.csv", "angles.csv"]);
}

#[test]
fn dpgd_shards_by_width_merge_to_the_whole_on_both_paths() {
    // Two seeds, widths on the direct (batched) and the kernel path, and traced
    // runs: every shard count gives exactly the single-worker view.
    let pairs = [
        ("n", "256"),
        ("d", "8"),
        ("n_test", "64"),
        ("p_grid", "64,256,512"),
        ("epsilons", "1,4"),
        ("repeats", "2"),
        ("trace_p", "256,512"),
        ("trace_time_scales", "1,2"),
    ];
    let whole = common::finished("dpgd-browser", &pairs, Shard::WHOLE);
    let view = whole.view();
    let csv = &view.files[0].text;
    assert!(csv.lines().count() > 2 * 3 * 5, "{csv}");
    for count in [2, 3, 7] {
        let merged = merged_shards("dpgd-browser", &pairs, count);
        assert_eq!(same_view(&merged, &view), Ok(()), "{count} shards");
    }
}

#[test]
fn every_lesson_step_sets_valid_settings_of_its_scenario() {
    for s in SCENARIOS {
        let info = s.info();
        assert!(!info.lesson.is_empty(), "{} has a lesson", info.id);
        for step in info.lesson {
            let (found, name) = scenarios::by_preset(step.preset).unwrap();
            assert_eq!(found.info().id, info.id, "{}: {}", info.id, step.title);
            let configured = found
                .configure(name, step.settings)
                .unwrap_or_else(|errors| panic!("{}: {errors:?}", step.title));
            // Short enough to run live in class.
            let seconds = configured.estimated_seconds();
            assert!(seconds < 10.0, "{}: {seconds} s", step.title);
        }
    }
}

/// The page's first screen: every scenario says in two sentences which of its
/// charts to look at, and shows n, ε, δ (where it has one) and at least one
/// setting of its own at once; the rest are folded.
#[test]
fn every_first_screen_names_a_chart_and_shows_few_settings() {
    for s in SCENARIOS {
        let info = s.info();
        let text = info.look_at;
        assert!(text.ends_with('.'), "{}: {text}", info.id);
        let sentences = text.matches(". ").count() + 1;
        assert_eq!(sentences, 2, "{}: two sentences: {text}", info.id);
        assert!(
            info.charts.iter().any(|c| text.contains(c.name)),
            "{}: names none of its charts: {text}",
            info.id
        );
        let shown: Vec<&str> = info
            .fields
            .iter()
            .filter(|f| f.essential)
            .map(|f| f.name)
            .collect();
        let has = |name: &str| info.fields.iter().any(|f| f.name == name);
        for name in ["n", "epsilons", "delta"] {
            assert_eq!(
                shown.contains(&name),
                has(name),
                "{}: {name} shown at once: {shown:?}",
                info.id
            );
        }
        // The privacy target's other form (risks at risk_fpr) stands in the ε list's place: the
        // switch shows one of the two at a time, so it is not a setting of the scenario's own.
        let own = shown
            .iter()
            .filter(|n| !["n", "epsilons", "delta", "risks", "risk_fpr"].contains(n))
            .count();
        assert!(
            (1..=2).contains(&own),
            "{}: its own settings shown at once: {shown:?}",
            info.id
        );
        assert!(
            shown.len() < info.fields.len() / 2,
            "{}: most settings folded: {shown:?}",
            info.id
        );
    }
}

/// A list setting in any order (typed "4,1,2"; the page's slider appends its
/// value at the end) gives every chart's lines in increasing x, the same
/// lines as the sorted list.
#[test]
fn lines_are_in_x_order_whatever_the_order_of_the_lists() {
    let small = [("repeats", "1"), ("iterations", "3")];
    let view = |pairs: &[(&str, &str)]| {
        let pairs: Vec<(&str, &str)> = small.iter().chain(pairs).copied().collect();
        let (_, mut run) = scenarios::start("trace-paper", &pairs, Shard::WHOLE).unwrap();
        scenarios::run_to_end(run.as_mut()).unwrap();
        run.view()
    };
    let shuffled = view(&[("epsilons", "4,1,2"), ("n", "2000,1000")]);
    let sorted = view(&[("epsilons", "1,2,4"), ("n", "1000,2000")]);
    for (a, b) in shuffled.charts.iter().zip(&sorted.charts) {
        for (sa, sb) in a.series.iter().zip(&b.series) {
            let xs: Vec<f64> = sa.points.iter().map(|p| p.0).collect();
            assert!(
                xs.windows(2).all(|w| w[0] <= w[1]),
                "{}: {}: {xs:?}",
                a.title,
                sa.name
            );
            assert_eq!(sa.points.len(), sb.points.len(), "{}: {}", a.title, sa.name);
        }
    }
    let drawn = shuffled
        .charts
        .iter()
        .map(|c| c.series.iter().filter(|s| s.points.len() > 2).count())
        .sum::<usize>();
    assert!(drawn > 0, "some line has three points or more");
}

#[test]
fn the_estimate_grows_with_the_work() {
    let seconds = |preset: &str, pairs: &[(&str, &str)]| {
        scenarios::configure(preset, pairs).map(|c| c.estimated_seconds())
    };
    let small = seconds("fedrep-paper", &[("n", "2000")]).unwrap();
    let large = seconds("fedrep-paper", &[("n", "200000")]).unwrap();
    assert!(large > 50.0 * small, "{small} vs {large}");
    let quick = seconds("dpgd-quick", &[]).unwrap();
    assert!(quick > 0.0 && quick < 1.0, "{quick}");
    assert!(seconds("dpgd-quick", &[("n", "x")]).is_err());
}

/// Settings are checked once, at `configure`: bad ones are refused with every
/// field's error (what `validate` says), and a configured value's estimate is
/// the experiment's own on the same config.
#[test]
fn configure_refuses_bad_settings_at_their_fields_and_serves_the_same_estimate() {
    use dp_explorer::scenarios::adapter::Experiment;
    use dp_explorer::scenarios::fedrep::{config::FedRepConfig, FedRep};
    use dp_explorer::scenarios::Machine;

    let errors = scenarios::configure("fedrep-paper", &[("n", "x"), ("k", "0")])
        .err()
        .unwrap();
    let fields: Vec<&str> = errors.iter().map(|e| e.field()).collect();
    assert!(fields.contains(&"n") && fields.contains(&"k"), "{fields:?}");
    assert_eq!(
        scenarios::validate("fedrep-paper", &[("n", "x"), ("k", "0")]),
        errors
    );

    let pairs = [("n", "3000"), ("epsilons", "1,4")];
    let configured = scenarios::configure("FEDREP-PAPER", &pairs).unwrap();
    assert_eq!(configured.preset(), "fedrep-paper");
    assert_eq!(configured.info().id, "fedrep");
    let config = FedRepConfig::from_pairs("fedrep-paper", pairs).unwrap();
    let slow = Machine {
        scalar: 2.0,
        dense: 1.5,
    };
    assert_eq!(
        configured.estimated_seconds_on(&slow),
        FedRep::estimated_seconds(&config, &slow)
    );
    assert_eq!(configured.settings(), config.to_fields());
}

#[test]
fn every_field_a_scenario_says_of_itself_is_in_its_description() {
    // ScenarioInfo's Serialize lists About's fields by hand (for the keys'
    // order): a field added to About and not to it would vanish from
    // `describe --json` and the page.
    for s in SCENARIOS {
        let info = s.info();
        let described = serde_json::to_value(info).unwrap();
        let about = serde_json::to_value(info.about).unwrap();
        for (key, value) in about.as_object().unwrap() {
            assert_eq!(
                described.get(key),
                Some(value),
                "{}: About.{key} is not described",
                info.id
            );
        }
        for key in ["fields", "splits", "user_split", "round"] {
            assert!(described.get(key).is_some(), "{}: no {key}", info.id);
        }
    }
}
