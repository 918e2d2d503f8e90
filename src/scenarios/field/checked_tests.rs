use super::*;
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
