//! The one list of scenarios. Every scenario is named here and nowhere else:
//! the CLI, the wasm module and the page read this list and the scenarios'
//! descriptions. Adding a scenario: its folder under `src/scenarios/`, its
//! lines here (the module, its adapter and its place in the list), its tests
//! and its docs (see ARCHITECTURE.md).

use super::adapter::Adapter;
use super::Scenario;

#[path = "fedrep/mod.rs"]
pub mod fedrep;
static FEDREP: Adapter<fedrep::FedRep> = Adapter::new();

#[path = "dpgd/mod.rs"]
pub mod dpgd;
static DPGD: Adapter<dpgd::DpGd> = Adapter::new();

#[path = "classifier/mod.rs"]
pub mod classifier;
static CLASSIFIER: Adapter<classifier::Classifier> = Adapter::new();

#[path = "flute/mod.rs"]
pub mod flute;
static FLUTE: Adapter<flute::Flute> = Adapter::new();

#[path = "trace/mod.rs"]
pub mod trace;
static TRACE: Adapter<trace::Trace> = Adapter::new();

/// Every scenario, in the page's order; the first scenario's first preset is
/// the default.
pub static SCENARIOS: &[&dyn Scenario] = &[&FEDREP, &DPGD, &CLASSIFIER, &FLUTE, &TRACE];
