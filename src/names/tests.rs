use super::*;
use crate::algorithms::fedrep::BatchMode;
use crate::data::random_features::{Activation, Target};
use crate::privacy::{Calibration, Relation};
use crate::scenarios::audit::AuditMode;
use crate::scenarios::fedrep::config::{AltMinUsers, Heads, InitMode};

#[test]
fn names_are_the_serde_names_the_settings_and_files_have_always_used() {
    let names = [
        serde_name(&Calibration::Exact),
        serde_name(&Calibration::Paper),
        serde_name(&Calibration::AuthorsCode),
        serde_name(&Relation::ReplaceOne),
        serde_name(&Relation::AddRemoveOne),
        serde_name(&Activation::Tanh),
        serde_name(&Activation::Sin),
        serde_name(&Target::Sign),
        serde_name(&Target::Linear { noise: 0.3 }),
        serde_name(&BatchMode::Split),
        serde_name(&BatchMode::Full),
        serde_name(&BatchMode::Fresh),
        serde_name(&InitMode::Private),
        serde_name(&InitMode::NonPrivate),
        serde_name(&InitMode::Random),
        serde_name(&Heads::Gaussian),
        serde_name(&Heads::Unit),
        serde_name(&AltMinUsers::Disjoint),
        serde_name(&AltMinUsers::AllUsers),
        serde_name(&AuditMode::WhiteBox),
        serde_name(&AuditMode::Final),
    ];
    assert_eq!(
        names,
        [
            "exact",
            "paper",
            "authors-code",
            "replace-one",
            "add-remove-one",
            "tanh",
            "sin",
            "sign",
            "linear",
            "split",
            "full",
            "fresh",
            "private",
            "non-private",
            "random",
            "gaussian",
            "unit",
            "disjoint",
            "all-users",
            "white-box",
            "final",
        ]
    );
}

#[test]
#[should_panic(expected = "not an enum variant")]
fn a_value_that_is_not_a_variant_is_a_bug() {
    serde_name(&1.5);
}
