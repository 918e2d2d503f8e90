//! The machine probe the page times, and its factors (the time estimates on
//! them are `Configuration.estimated_seconds` and `estimated_page_seconds`).

use crate::scenarios::machine::{self, ProbeKind, ProbeTimes};
use crate::scenarios::Machine;
use wasm_bindgen::prelude::*;

/// The machine whose factors JS gives as `[scalar, dense]` (none: the
/// reference machine), for the estimates `Configuration` and `Auditor` make.
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
