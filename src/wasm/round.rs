//! One private round in slow motion (the page's "Look inside one round"):
//! the registry's `Scenario::round` of a preset's settings.

use super::{errors_to_js, fields_from_js, pairs, preset_or_default, to_js};
use crate::scenarios::{self, round::RoundRequest};
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
    let fields = fields_from_js(fields)?;
    let preset = preset_or_default(preset);
    let (s, name) = scenarios::by_preset(&preset).map_err(|e| JsError::new(&e.to_string()))?;
    let trace = s
        .round(name, &pairs(&fields), RoundRequest { round })
        .map_err(|errors| errors_to_js(&errors))?;
    to_js(&trace)
}
