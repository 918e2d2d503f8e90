//! The accountant's answers for the explain panel: ε for a σ, σ for an ε, ε of stages.

use super::to_js;
use crate::privacy::query;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The ε that `steps` releases of a Gaussian mechanism with L2 `sensitivity`
/// and noise std `sigma` spend at `delta`, under every accountant.
#[wasm_bindgen(unchecked_return_type = "EpsilonSpent")]
pub fn epsilon_for_sigma(
    sigma: f64,
    delta: f64,
    steps: u32,
    sensitivity: f64,
) -> Result<JsValue, JsError> {
    answer(query::epsilon_for_sigma(
        sigma,
        delta,
        steps as u64,
        sensitivity,
    ))
}

/// The noise std σ per release that `steps` releases of L2 `sensitivity`
/// need to spend exactly (`epsilon`, `delta`), under every accountant.
#[wasm_bindgen(unchecked_return_type = "SigmaNeeded")]
pub fn sigma_for_epsilon(
    epsilon: f64,
    delta: f64,
    steps: u32,
    sensitivity: f64,
) -> Result<JsValue, JsError> {
    answer(query::sigma_for_epsilon(
        epsilon,
        delta,
        steps as u64,
        sensitivity,
    ))
}

/// The ε that a list of stages (each `steps` Gaussian releases) spends
/// together at `delta`, under every accountant.
#[wasm_bindgen(unchecked_return_type = "EpsilonSpent")]
pub fn epsilon_for_stages(
    #[wasm_bindgen(unchecked_param_type = "Stage[]")] stages: JsValue,
    delta: f64,
) -> Result<JsValue, JsError> {
    let stages: Vec<crate::privacy::GaussianStage> = serde_wasm_bindgen::from_value(stages)
        .map_err(|e| {
            JsError::new(&format!(
                "stages must be [{{ name, mechanism, sensitivity, sigma, steps }}]: {e}"
            ))
        })?;
    answer(query::epsilon_for_stages(&stages, delta))
}

/// An accountant's answer as JS, its refusal (a bad σ, ε, δ or count) as the
/// thrown error's message: the same for every question the panel asks.
fn answer<T: Serialize, E: std::fmt::Display>(answer: Result<T, E>) -> Result<JsValue, JsError> {
    to_js(&answer.map_err(|e| JsError::new(&e.to_string()))?)
}
