//! One private round in slow motion (the page's "Look inside one round"):
//! a question the configuration answers (`Configuration.round`).

use super::configuration::Configuration;
use super::{errors_to_js, to_js};
use crate::scenarios::round::RoundRequest;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl Configuration {
    /// Round `round` (1-based) of its run at the first ε in slow motion,
    /// stage by stage (`RoundTrace`); throws with `field: message` lines
    /// (`round` outside the run, `preset` for a scenario without one).
    #[wasm_bindgen(unchecked_return_type = "RoundTrace")]
    pub fn round(&self, round: usize) -> Result<JsValue, JsError> {
        let trace = self
            .configured()
            .round(RoundRequest { round })
            .map_err(|errors| errors_to_js(&errors))?;
        to_js(&trace)
    }
}
