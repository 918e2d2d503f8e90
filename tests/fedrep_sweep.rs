//! The Private FedRep sweep with Priv-AltMin as a method: rows, curves and
//! progress; Priv-AltMin's accounting (exact and the authors' formula); and
//! the trend of both private methods with ε on small default-shaped problems.

use dp_explorer::algorithms::priv_altmin::PrivAltMin;
use dp_explorer::privacy::formulas::priv_altmin_authors_code_sigmas;
use dp_explorer::privacy::gdp::epsilon_for_mu;
use dp_explorer::privacy::PrivacyEvent;
use dp_explorer::privacy::{Calibration, Relation};
use dp_explorer::scenarios::adapter::Sweep;
use dp_explorer::scenarios::fedrep::charts::charts_for_config;
use dp_explorer::scenarios::fedrep::config::{AltMinUsers, FedRepConfig};
use dp_explorer::scenarios::fedrep::method::Method;
use dp_explorer::scenarios::fedrep::plan::{plan_priv_altmin, plan_private_fedrep};
use dp_explorer::scenarios::fedrep::results::{csv_string, ResultRow};
use dp_explorer::scenarios::fedrep::run::{merge_shards, FedRepSweep};
use dp_explorer::scenarios::field::{Config, PrivacyTarget};
use dp_explorer::scenarios::{Checked, Shard};

fn rel(a: f64, b: f64) -> f64 {
    ((a - b) / b).abs()
}

/// The default setting's shape (k = 2, m = 10, T = 5, unit heads) at small n, d.
fn small(n: usize, d: usize, epsilons: &[f64]) -> FedRepConfig {
    FedRepConfig {
        n,
        d,
        target: PrivacyTarget::epsilons(epsilons.to_vec()),
        ..FedRepConfig::default()
    }
}

fn checked(config: FedRepConfig) -> Checked<FedRepConfig> {
    Checked::new(config).expect("valid config")
}

fn run(config: FedRepConfig) -> FedRepSweep {
    let mut sweep = FedRepSweep::new(checked(config)).unwrap();
    sweep.run_to_end().expect("accounting succeeds");
    sweep
}

fn risks(rows: &[ResultRow], method: Method) -> Vec<(f64, f64)> {
    rows.iter()
        .filter(|r| r.method == method)
        .map(|r| (r.epsilon.unwrap_or(f64::INFINITY), r.excess_risk))
        .collect()
}

fn decreasing(points: &[(f64, f64)]) -> bool {
    points
        .windows(2)
        .all(|w| w[0].0 < w[1].0 && w[1].1 < w[0].1)
}

#[test]
fn a_small_sweep_has_rows_and_curves_for_all_four_methods_with_finite_numbers() {
    let config = small(3000, 10, &[0.5, 2.0, 8.0]);
    let mut sweep = FedRepSweep::new(checked(config.clone())).unwrap();
    let (_, total) = sweep.progress();
    let mut steps = 0;
    let mut saw_altmin_running = false;
    let mut saw_group_running = false;
    while !sweep.step().unwrap() {
        steps += 1;
        let phase = sweep.phase();
        if phase.starts_with("FedRep (non-private) and Private FedRep, ε = 0.5, 2, 8: round 1") {
            saw_group_running = true;
            // The four FedRep runs share each pass: all four curves grow together.
            let growing = sweep
                .curves()
                .iter()
                .filter(|c| c.angles.len() == 2)
                .count();
            assert_eq!(growing, 4, "{phase}");
        }
        if phase.starts_with("Priv-AltMin") && phase.contains(": iteration") {
            saw_altmin_running = true;
            // The running AltMin curve is already visible.
            assert!(sweep
                .curves()
                .iter()
                .any(|c| c.method == Method::PrivAltmin));
        }
    }
    steps += 1;
    assert!(saw_altmin_running);
    assert!(saw_group_running);
    // Progress counts every unit, AltMin iterations included: a unit is one
    // run's chunk of users, and the four FedRep runs (the reference and three
    // ε) share each pass, so one step of theirs (n = 3000: one chunk per pass)
    // is four units.
    assert_eq!(sweep.progress(), (total, total));
    assert_eq!(steps, total - 3 * (config.rounds + 1));

    let rows = sweep.rows();
    let methods: Vec<&str> = rows.iter().map(|r| r.method.name()).collect();
    assert_eq!(
        methods,
        [
            "fedrep",
            "local-gd",
            "private-fedrep",
            "private-fedrep",
            "private-fedrep",
            "priv-altmin",
            "priv-altmin",
            "priv-altmin"
        ]
    );
    for r in &rows {
        assert!(r.excess_risk.is_finite() && r.excess_risk >= 0.0, "{r:?}");
        assert!(r.mse.is_finite() && r.mse >= r.excess_risk);
        if r.method == Method::PrivAltmin {
            assert!(r.principal_angle.is_finite());
            assert!(r.sigma > 0.0 && r.sigma.is_finite());
            let p = r.privacy.as_ref().expect("a private row has its report");
            // init, b, W.
            assert_eq!(p.stages.len(), 3);
            assert!(p.stages.last().unwrap().name.contains('W'));
            assert_eq!(p.stages.last().unwrap().sigma, r.sigma);
            assert!(r
                .privacy_reading
                .as_ref()
                .unwrap()
                .contains("differentially private"));
            assert!(r.variant.contains("disjoint users"), "{}", r.variant);
        }
    }
    let curves = sweep.curves();
    let altmin: Vec<_> = curves
        .iter()
        .filter(|c| c.method == Method::PrivAltmin)
        .collect();
    assert_eq!(altmin.len(), 3);
    for c in &altmin {
        assert_eq!(c.angles.len(), config.altmin_rounds + 1);
        assert!(c.angles.iter().all(|a| a.is_finite()));
        // Both private methods start from the same U_0 at the same ε.
        let fedrep = curves
            .iter()
            .find(|f| f.method == Method::PrivateFedrep && f.epsilon == c.epsilon)
            .unwrap();
        assert_eq!(c.angles[0], fedrep.angles[0]);
    }
    let charts = charts_for_config(sweep.config(), &sweep.rows(), &sweep.curves());
    let names =
        |i: usize| -> Vec<String> { charts[i].series.iter().map(|s| s.name.clone()).collect() };
    assert!(
        names(0).contains(&"Priv-AltMin".to_string()),
        "{:?}",
        names(0)
    );
    for e in ["0.5", "2", "8"] {
        assert!(
            names(1).contains(&format!("Priv-AltMin ε = {e}")),
            "{:?}",
            names(1)
        );
        assert!(names(1).contains(&format!("Private FedRep ε = {e}")));
    }
    let csv = csv_string(&rows);
    assert_eq!(
        csv.lines()
            .filter(|l| l.starts_with("priv-altmin,"))
            .count(),
        3
    );
}

#[test]
fn with_altmin_off_the_sweep_has_no_priv_altmin_rows_and_fewer_units() {
    let on = FedRepSweep::new(checked(small(3000, 10, &[1.0, 4.0]))).unwrap();
    let mut c = small(3000, 10, &[1.0, 4.0]);
    c.altmin = false;
    let off = run(c.clone());
    assert!(off.rows().iter().all(|r| r.method != Method::PrivAltmin));
    assert_eq!(
        on.progress().1 - off.progress().1,
        2 * (c.altmin_rounds + 1)
    );
}

#[test]
fn priv_altmin_excess_risk_falls_as_epsilon_grows() {
    let sweep = run(small(3000, 10, &[0.5, 2.0, 8.0]));
    let r = risks(&sweep.rows(), Method::PrivAltmin);
    println!("priv-altmin: {r:?}");
    assert!(decreasing(&r), "{r:?}");
    assert!(r[0].1 > 5.0 * r[2].1, "{r:?}");
}

#[test]
fn private_fedrep_excess_risk_falls_as_epsilon_grows_and_approaches_non_private_fedrep() {
    let mut c = small(10_000, 10, &[0.5, 2.0, 8.0, 100.0]);
    c.altmin = false;
    let sweep = run(c);
    let r = risks(&sweep.rows(), Method::PrivateFedrep);
    let reference = risks(&sweep.rows(), Method::Fedrep)[0].1;
    println!("private-fedrep: {r:?}, non-private FedRep: {reference:.3e}");
    assert!(decreasing(&r), "{r:?}");
    let at_100 = r.last().unwrap().1;
    assert!(at_100 < 2.0 * reference, "{at_100} vs {reference}");
    assert!(r[0].1 > 100.0 * reference);
}

#[test]
fn under_exact_calibration_priv_altmin_spends_exactly_the_target_epsilon() {
    for mode in [AltMinUsers::Disjoint, AltMinUsers::AllUsers] {
        for private_init in [true, false] {
            for relation in [Relation::ReplaceOne, Relation::AddRemoveOne] {
                let mut c = small(3000, 10, &[1.0]);
                c.altmin_mode = mode;
                c.relation = relation;
                if !private_init {
                    c.init = dp_explorer::scenarios::fedrep::config::InitMode::NonPrivate;
                }
                for eps in [0.5, 1.0, 4.0, 8.0] {
                    let plan = plan_priv_altmin(&c, eps).unwrap();
                    let p = &plan.report;
                    assert!(
                        rel(p.epsilon_exact, eps) < 1e-6,
                        "{mode:?}: {}",
                        p.epsilon_exact
                    );
                    assert_eq!(p.stages.len(), 2 + usize::from(private_init));
                    // Independent recomputation from the stages' (s, σ, steps).
                    let mu2: f64 = p
                        .stages
                        .iter()
                        .map(|s| s.steps as f64 * (s.sensitivity / s.sigma).powi(2))
                        .sum();
                    let eps_check = epsilon_for_mu(mu2.sqrt(), c.delta).unwrap();
                    assert!(rel(eps_check, eps) < 1e-6);
                    // One noise multiplier for W and b; T-fold or parallel composition.
                    let (w, b) = plan
                        .params
                        .privacy_events(c.m_train(), c.relation == Relation::ReplaceOne);
                    let released = PrivacyEvent::Composed(vec![w, b]).gaussian_stages();
                    let (w, b) = (&released[0], &released[1]);
                    assert!(rel(w.sigma / w.sensitivity, b.sigma / b.sensitivity) < 1e-12);
                    let count = match mode {
                        AltMinUsers::Disjoint => 1,
                        AltMinUsers::AllUsers => c.altmin_rounds as u64,
                    };
                    assert_eq!((w.steps, b.steps), (count, count));
                    // The init gets the same σ as Private FedRep's.
                    let fedrep = plan_private_fedrep(&c, eps).unwrap();
                    assert_eq!(plan.init_sigma.is_some(), private_init);
                    if let (Some(a), Some(f)) = (plan.init_sigma, fedrep.init_sigma) {
                        assert!(rel(a, f) < 1e-12);
                    }
                }
            }
        }
    }
}

#[test]
fn the_plan_accounts_for_exactly_the_releases_the_run_makes() {
    let c = small(500, 8, &[2.0]);
    let data = c.model().generate();
    for mode in [AltMinUsers::Disjoint, AltMinUsers::AllUsers] {
        let c = FedRepConfig {
            altmin_mode: mode,
            ..c.clone()
        };
        let plan = plan_priv_altmin(&c, 2.0).unwrap();
        let run = PrivAltMin::new(&data, data.u_star.clone(), plan.params.clone(), 0);
        // The report accounts for exactly the run's releases (b, then W last).
        let (w, b) = run.privacy_events(true);
        let released = PrivacyEvent::Composed(vec![b, w]).gaussian_stages();
        let reported = &plan.report.stages;
        assert_eq!(reported[reported.len() - 2..], released[..]);
        assert_eq!(
            (plan.params.sigma_w, plan.params.sigma_b),
            (plan.sigma_w, plan.sigma_b)
        );
    }
}

#[test]
fn under_the_authors_formula_the_report_shows_what_the_run_spends_whatever_it_is() {
    for calibration in [Calibration::Paper, Calibration::AuthorsCode] {
        for mode in [AltMinUsers::Disjoint, AltMinUsers::AllUsers] {
            let mut c = FedRepConfig::preset("fedrep-authors-code").unwrap();
            c.calibration = calibration;
            c.altmin_mode = mode;
            for eps in [1.0, 2.0, 4.0, 6.0, 8.0] {
                let plan = plan_priv_altmin(&c, eps).unwrap();
                let (sw, sb) = priv_altmin_authors_code_sigmas(1e-4, 5, 5, eps, c.delta);
                assert_eq!((plan.sigma_w, plan.sigma_b), (sw, sb));
                let p = &plan.report;
                // The run's releases (non-private init in this preset: no init stage).
                assert_eq!(p.stages.len(), 2);
                let (w, b) = plan
                    .params
                    .privacy_events(c.m_train(), c.relation == Relation::ReplaceOne);
                let mu2: f64 = PrivacyEvent::Composed(vec![w, b])
                    .gaussian_stages()
                    .iter()
                    .map(|s| s.steps as f64 * (s.sensitivity / s.sigma).powi(2))
                    .sum();
                let spent = epsilon_for_mu(mu2.sqrt(), c.delta).unwrap();
                // Never smaller than what the run spends.
                assert!(
                    p.epsilon_exact >= spent * (1.0 - 1e-9),
                    "{} < {spent}",
                    p.epsilon_exact
                );
                assert!(rel(p.epsilon_exact, spent) < 1e-9);
                let warned = p.notes.iter().any(|n| n.starts_with("Warning"));
                assert_eq!(
                    warned,
                    p.epsilon_exact > eps * (1.0 + 1e-9),
                    "{:?}",
                    p.notes
                );
                println!(
                    "{} {:?} ε = {eps}: spends {:.4}",
                    calibration.name(),
                    mode,
                    p.epsilon_exact
                );
            }
        }
    }
    // What is true at the paper's setting: with all users (T-fold composition)
    // the formula spends less than the target at ε = 1 and more at ε = 8; with
    // disjoint subsets (one release per user) it always spends less.
    let c = FedRepConfig::preset("fedrep-authors-code").unwrap();
    assert!(plan_priv_altmin(&c, 1.0).unwrap().report.epsilon_exact < 1.0);
    assert!(plan_priv_altmin(&c, 8.0).unwrap().report.epsilon_exact > 8.0);
    let c = FedRepConfig {
        altmin_mode: AltMinUsers::Disjoint,
        ..c
    };
    assert!(plan_priv_altmin(&c, 8.0).unwrap().report.epsilon_exact < 8.0);
}

#[test]
fn shards_of_a_pool_merged_in_order_give_exactly_the_single_worker_sweep() {
    let config = FedRepConfig {
        seeds: 2,
        ..small(1200, 8, &[1.0, 4.0])
    };
    let single = run(config.clone());
    let (merged_rows, merged_curves) = merge_shards((0..3).map(|shard| {
        let mut part = FedRepSweep::new_shard(
            checked(config.clone()),
            Shard {
                index: shard,
                count: 3,
            },
        )
        .unwrap();
        part.run_to_end().unwrap();
        assert_eq!(part.progress().0, part.progress().1);
        (part.rows(), part.curves())
    }));
    // Debug text compares NaN fields (local GD's angle) as equal, unlike PartialEq.
    assert_eq!(format!("{merged_rows:?}"), format!("{:?}", single.rows()));
    assert_eq!(merged_curves, single.curves());
    assert_eq!(csv_string(&merged_rows), csv_string(&single.rows()));
}

#[test]
fn several_seeds_give_one_row_per_seed_and_the_chart_shows_their_mean() {
    let config = FedRepConfig {
        seeds: 3,
        altmin: false,
        ..small(1000, 8, &[2.0])
    };
    let sweep = run(config);
    let rows = sweep.rows();
    let private: Vec<&ResultRow> = rows
        .iter()
        .filter(|r| r.method == Method::PrivateFedrep)
        .collect();
    let seeds: Vec<u64> = private.iter().map(|r| r.seed).collect();
    assert_eq!(seeds, vec![1, 2, 3]);
    assert!(
        private[0].excess_risk != private[1].excess_risk,
        "different data per seed"
    );
    let mean = private.iter().map(|r| r.excess_risk).sum::<f64>() / 3.0;
    let charts = charts_for_config(sweep.config(), &sweep.rows(), &sweep.curves());
    let series = charts[0]
        .series
        .iter()
        .find(|s| s.name == "Private FedRep")
        .unwrap();
    assert_eq!(series.points.len(), 1);
    assert!((series.points[0].1 - mean).abs() < 1e-15 * mean.max(1.0));
    // The band spans the seeds' spread.
    let lo = private
        .iter()
        .map(|r| r.excess_risk)
        .fold(f64::INFINITY, f64::min);
    let hi = private
        .iter()
        .map(|r| r.excess_risk)
        .fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(series.band, vec![(2.0, lo, hi)]);
}

/// `fedrep-linear-sim` (FedRep's linear simulation, Collins et al.): every run
/// starts from the same random U_0; non-private FedRep falls by three orders
/// of magnitude to its noise floor; the private runs stop at floors that are
/// lower for the larger ε; the random init costs no budget (ε spent = target).
#[test]
fn the_linear_simulation_preset_reproduces_fedreps_figure_with_private_floors() {
    let c = FedRepConfig::preset("fedrep-linear-sim").unwrap();
    assert_eq!(
        (c.n, c.d, c.k, c.m_train(), c.rounds),
        (100, 20, 2, 10, 500)
    );
    assert_eq!((c.step, c.noise), (0.1, 0.001));
    assert!(!c.altmin);
    let sweep = run(c);
    let curves = sweep.curves();
    let start = curves[0].angles[0];
    assert!(curves.iter().all(|c| c.angles[0] == start), "same U_0");
    let reference = curves.iter().find(|c| c.epsilon.is_none()).unwrap();
    let last = *reference.angles.last().unwrap();
    assert!(last < 1e-3 * start, "non-private floor {last} from {start}");
    let floor = |e: f64| {
        let a = &curves.iter().find(|c| c.epsilon == Some(e)).unwrap().angles;
        a[a.len() - 100..].iter().sum::<f64>() / 100.0
    };
    let (f10, f100) = (floor(10.0), floor(100.0));
    assert!(
        last < f100 && f100 < f10 && f10 < 0.6,
        "floors {f100} {f10}"
    );
    for r in sweep.rows().iter().filter(|r| r.privacy.is_some()) {
        assert!(rel(r.epsilon_spent, r.epsilon.unwrap()) < 1e-6);
    }
    // The risk chart carries the fitted theory guide, from ε = 10 to 100,
    // falling towards non-private FedRep's level.
    let charts = charts_for_config(sweep.config(), &sweep.rows(), &sweep.curves());
    let guide = charts[0]
        .series
        .iter()
        .find(|s| s.name.starts_with("theory guide"))
        .expect("guide");
    let floor = sweep
        .rows()
        .iter()
        .find(|r| r.method == Method::Fedrep)
        .unwrap()
        .excess_risk;
    let (first, last) = (guide.points[0], *guide.points.last().unwrap());
    assert!((first.0 - 10.0).abs() < 1e-9 && (last.0 - 100.0).abs() < 1e-9);
    assert!(first.1 > last.1 && last.1 > floor);
}
