//! One private round in slow motion (the page's "Look inside one round"):
//! a thin wrapper that configures once and asks the configuration
//! (`Configuration.round`).

use super::configuration::Configuration;
use wasm_bindgen::prelude::*;

/// Round `round` (1-based) of the run at the first ε of these settings, stage
/// by stage (`RoundTrace`); throws with `field: message` lines (`round` for a
/// round outside the run, `preset` for a scenario without one).
#[wasm_bindgen(unchecked_return_type = "RoundTrace")]
pub fn round_trace(
    preset: Option<String>,
    #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
    round: usize,
) -> Result<JsValue, JsError> {
    Configuration::of(preset, fields)
        .map_err(|c| c.thrown())?
        .round(round)
}
