//! Every scenario's method ids against the CSV text the stored outputs hold,
//! in one table: each enum's `name()`, `Display` and serde text come from
//! [`crate::serde_named!`] and its serde derive, so one check per variant
//! keeps a renamed variant from changing a stored file's `method` column.

use crate::names::assert_texts;
use crate::scenarios::{classifier, dpgd, fedrep, flute, trace};

#[test]
fn every_scenarios_method_ids_are_the_csv_text_the_stored_outputs_hold() {
    use dpgd::run::Method as DpGd;
    assert_texts(&[
        (DpGd::DpGd, "dp-gd"),
        (DpGd::DpGdTrace, "dp-gd-trace"),
        (DpGd::Gd, "gd"),
        (DpGd::MinNorm, "min-norm"),
        (DpGd::Zero, "zero"),
    ]);
    use classifier::run::Method as Classifier;
    assert_texts(&[
        (Classifier::JlEm, "jl-em"),
        (Classifier::JlEmCandidates, "jl-em-candidates"),
        (Classifier::BestCandidate, "best-candidate"),
        (Classifier::LocalOnly, "local-only"),
        (Classifier::TrueModel, "true-model"),
    ]);
    use fedrep::method::Method as FedRep;
    assert_texts(&[
        (FedRep::PrivateFedrep, "private-fedrep"),
        (FedRep::PrivAltmin, "priv-altmin"),
        (FedRep::Fedrep, "fedrep"),
        (FedRep::LocalGd, "local-gd"),
    ]);
    use flute::run::Method as Flute;
    assert_texts(&[
        (Flute::Flute, "flute"),
        (Flute::Fedrep, "fedrep"),
        (Flute::FedrepRi, "fedrep-ri"),
        (Flute::FedrepGd, "fedrep-gd"),
        (Flute::FedrepGdRi, "fedrep-gd-ri"),
        (Flute::FedrepGdSumRi, "fedrep-gd-sum-ri"),
        (Flute::DpFlute, "dp-flute"),
        (Flute::PrivateFedrep, "private-fedrep"),
        (Flute::FluteAblation, "flute-ablation"),
    ]);
    use trace::method::Method as Trace;
    assert_texts(&[
        (Trace::SpectralInit, "spectral-init"),
        (Trace::Rgrad, "rgrad"),
        (Trace::DpInit, "dp-init"),
        (Trace::DpRgrad, "dp-rgrad"),
        (Trace::DpRgradLstar, "dp-rgrad-lstar"),
    ]);
    // Display pads as a format's width asks (the CLI's tables line up).
    assert_eq!(format!("{:<8}|", DpGd::Gd), "gd      |");
    assert_eq!(format!("{:<7}|", Classifier::JlEm), "jl-em  |");
}
