//! The one list of scenarios. Every scenario is named here and nowhere else:
//! the CLI, the wasm module and the page read this list and the scenarios'
//! descriptions. Adding a scenario: its folder under `src/scenarios/`, its
//! two lines here (the module and its entry in the list), its tests and its
//! docs (see ARCHITECTURE.md).

use super::Scenario;

#[path = "fedrep/mod.rs"]
pub mod fedrep;

#[path = "dpgd/mod.rs"]
pub mod dpgd;

#[path = "classifier/mod.rs"]
pub mod classifier;

#[path = "flute/mod.rs"]
pub mod flute;

#[path = "trace/mod.rs"]
pub mod trace;

/// Every scenario, in the page's order; the first scenario's first preset is
/// the default.
pub static SCENARIOS: &[&dyn Scenario] = &[
    &fedrep::FedRep,
    &dpgd::DpGd,
    &classifier::Classifier,
    &flute::Flute,
    &trace::Trace,
];
