use super::*;
use crate::scenarios::field::common;
use crate::scenarios::trace::config::TraceConfig;

#[test]
fn only_a_config_whose_checks_pass_is_checked() {
    let good = TraceConfig::default();
    let checked = Checked::new(good.clone()).expect("the default is valid");
    assert_eq!(checked, good);
    assert_eq!(checked.into_inner(), good);

    let bad = TraceConfig {
        repeats: 0,
        ..TraceConfig::default()
    };
    let errors = Checked::new(bad.clone()).unwrap_err();
    assert_eq!(errors, bad.validate_all());
    assert!(errors.iter().any(|e| e.field() == "repeats"), "{errors:?}");
}

#[test]
fn from_pairs_gives_a_checked_config_or_every_error() {
    let c = TraceConfig::from_pairs("trace-paper", [("repeats", "2")]).unwrap();
    assert_eq!(c.repeats, 2);
    let errors = TraceConfig::from_pairs("trace-paper", [("repeats", "0")]).unwrap_err();
    assert_eq!(errors[0].field(), "repeats");
}

/// The shared ε field (0, 100] of `TraceConfig`, as a scenario's table starts it.
fn shared_epsilons() -> Field<TraceConfig> {
    common::epsilons(
        |c: &TraceConfig| &c.target.epsilons,
        |c: &mut TraceConfig| &mut c.target.epsilons,
    )
}

fn refuses(field: &Field<TraceConfig>, eps: f64) -> bool {
    let config = TraceConfig {
        target: PrivacyTarget::epsilons(vec![eps]),
        ..TraceConfig::default()
    };
    field.check(&config).is_some()
}

#[test]
fn a_scenarios_bound_narrows_the_shared_one() {
    let shared = shared_epsilons();
    assert!(!refuses(&shared, 50.0) && refuses(&shared, 0.0) && refuses(&shared, 101.0));
    // A tighter upper bound keeps the shared lower one, and the reverse.
    let at_most = shared_epsilons().at_most(10.0);
    assert!(refuses(&at_most, 50.0) && refuses(&at_most, 0.0) && !refuses(&at_most, 10.0));
    let at_least = shared_epsilons().at_least(1e-3);
    assert!(refuses(&at_least, 5e-4) && refuses(&at_least, 101.0) && !refuses(&at_least, 1e-3));
    // The same bound again, or a range inside the shared one, changes nothing else.
    let same = shared_epsilons().range(common::EPSILON);
    assert_eq!(same.rules.interval, Some(common::EPSILON));
    assert_eq!(
        shared_epsilons().range(1e-3..=100.0).rules.interval,
        Some(rules::Interval::closed(1e-3, 100.0))
    );
    // `> 0` is the shared lower end itself.
    assert_eq!(
        shared_epsilons().positive().rules.interval,
        Some(common::EPSILON)
    );
}

#[test]
#[should_panic(expected = "would widen the bound")]
fn a_wider_bound_is_refused_as_the_table_is_built() {
    let _ = shared_epsilons().at_most(1000);
}

#[test]
#[should_panic(expected = "would widen the bound")]
fn a_wider_range_is_refused_as_the_table_is_built() {
    let _ = shared_epsilons().range(1e-3..=1e3);
}

#[test]
#[should_panic(expected = "would widen the bound")]
fn a_closed_end_at_the_shared_open_one_is_wider() {
    // (0, 100] does not hold 0: [0, …) would add it.
    let _ = shared_epsilons().at_least(0);
}

#[test]
fn widening_is_its_own_rule_with_its_reason() {
    let wide = shared_epsilons().widened_to(rules::Interval::open_closed(0.0, 1e3), "why");
    assert!(!refuses(&wide, 500.0) && refuses(&wide, 0.0) && refuses(&wide, 1001.0));
    assert_eq!(wide.rules.widened, Some("why"));
    assert_eq!(shared_epsilons().rules.widened, None);
    // The classifier's ε is the one shared field a scenario widens, and says why.
    let classifier = crate::scenarios::classifier::config::ClassifierConfig::field("epsilons");
    assert!(classifier.unwrap().rules.widened.is_some());
}

#[test]
#[should_panic(expected = "a widened bound says why")]
fn a_widened_bound_needs_its_reason() {
    let _ = shared_epsilons().widened_to(rules::Interval::open_closed(0.0, 1e3), " ");
}

#[test]
#[should_panic(expected = "only widens")]
fn widened_to_does_not_narrow() {
    let _ = shared_epsilons().widened_to(rules::Interval::open_closed(0.0, 10.0), "why");
}
