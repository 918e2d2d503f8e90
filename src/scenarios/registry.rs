//! The one list of scenarios. Every scenario is named here and nowhere else:
//! the CLI, the wasm module and the page read this list and the scenarios'
//! descriptions. Adding a scenario: its folder under `src/scenarios/`, one
//! line here, its tests and its docs (see ARCHITECTURE.md).

use super::Scenario;

/// Every scenario, in the page's order; the first scenario's first preset is
/// the default.
pub static SCENARIOS: &[&dyn Scenario] = &[&super::fedrep::FedRep, &super::dpgd::DpGd];
