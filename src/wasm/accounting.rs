//! The accountant's answers for the explain panel: ε for a σ, σ for an ε, ε of stages.

use super::to_js;
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
    let e = crate::privacy::query::epsilon_for_sigma(sigma, delta, steps as u64, sensitivity)
        .map_err(|e| JsError::new(&e.to_string()))?;
    to_js(&e)
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
    let s = crate::privacy::query::sigma_for_epsilon(epsilon, delta, steps as u64, sensitivity)
        .map_err(|e| JsError::new(&e.to_string()))?;
    to_js(&s)
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
    let e = crate::privacy::query::epsilon_for_stages(&stages, delta)
        .map_err(|e| JsError::new(&e.to_string()))?;
    to_js(&e)
}
