//! The machine probe the page times, its factors, and the time estimates on them.

use super::runner::configuration;
use crate::scenarios::machine::{self, ProbeKind, ProbeTimes};
use crate::scenarios::Machine;
use wasm_bindgen::prelude::*;

/// Seconds the sweep of a preset with these settings takes in one worker
/// (wasm), estimated from its size before it runs (within about 2×), on a
/// machine whose `machine_factors` are `[scalar, dense]` (none: the reference
/// machine); throws with `field: message` lines for settings that do not validate
/// (`Configuration.estimated_seconds`).
#[wasm_bindgen]
pub fn estimated_seconds(
    preset: Option<String>,
    #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
    machine: Option<Vec<f64>>,
) -> Result<f64, JsError> {
    configuration(preset, fields)?.estimated_seconds(machine)
}

/// Seconds from Run to done in the page with `workers` workers (the busiest
/// worker's share of the sweep, as the pool splits it, and the page's own
/// work), on a machine whose `machine_factors` are `[scalar, dense]` (none:
/// the reference machine); throws like `estimated_seconds`
/// (`Configuration.estimated_page_seconds`).
#[wasm_bindgen]
pub fn estimated_page_seconds(
    preset: Option<String>,
    #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
    workers: usize,
    machine: Option<Vec<f64>>,
) -> Result<f64, JsError> {
    configuration(preset, fields)?.estimated_page_seconds(workers, machine)
}

/// Workers the page's pool runs the sweep of a preset with these settings on,
/// on a machine of `cores` cores and `memory_bytes` of memory (none: not
/// known): every core, as far as the cost model's per-worker peak memory
/// allows; throws like `estimated_seconds` (`Configuration.workers_for`).
#[wasm_bindgen]
pub fn workers_for(
    preset: Option<String>,
    #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
    cores: usize,
    memory_bytes: Option<f64>,
) -> Result<usize, JsError> {
    Ok(configuration(preset, fields)?.workers_for(cores, memory_bytes))
}

pub(super) fn machine_of(factors: Option<Vec<f64>>) -> Result<Machine, JsError> {
    match factors.as_deref() {
        Some(&[scalar, dense]) => Ok(Machine { scalar, dense }),
        Some(_) => Err(JsError::new("machine: give [scalar, dense] factors")),
        None => Ok(Machine::REFERENCE),
    }
}

/// One chunk of the machine probe's fixed work of `kind` ("scalar" or
/// "dense"), for the page to time (`scenarios::machine`); returns a number
/// computed from it.
#[wasm_bindgen]
pub fn machine_probe(kind: &str) -> Result<f64, JsError> {
    let kind =
        ProbeKind::parse(kind).ok_or_else(|| JsError::new("kind: \"scalar\" or \"dense\""))?;
    Ok(machine::probe(kind))
}

/// This page's `[scalar, dense]` factors against the reference machine's page,
/// from the probe's milliseconds per chunk of each kind.
#[wasm_bindgen]
pub fn machine_factors(scalar_ms: f64, dense_ms: f64) -> Vec<f64> {
    let m = Machine::from_probe(
        ProbeTimes {
            scalar_ms,
            dense_ms,
        },
        machine::REFERENCE_WASM,
    );
    vec![m.scalar, m.dense]
}
