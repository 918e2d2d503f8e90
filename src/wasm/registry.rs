//! The scenarios' descriptions and their presets (settings are checked by
//! building a `Configuration`).

use super::to_js;
use crate::scenarios;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// A scenario's description with whether it has an audit.
#[derive(Serialize)]
struct Described {
    #[serde(flatten)]
    info: scenarios::ScenarioInfo,
    audit: bool,
}

/// Every scenario: `[{ id, title, lede, source, unit, presets, fields, charts, splits, lesson, audit }]`.
#[wasm_bindgen(unchecked_return_type = "ScenarioInfo[]")]
pub fn scenarios() -> Result<JsValue, JsError> {
    let infos: Vec<_> = scenarios::SCENARIOS
        .iter()
        .map(|s| Described {
            info: s.info().clone(),
            audit: s.has_audit(),
        })
        .collect();
    to_js(&infos)
}

/// The default preset's name.
#[wasm_bindgen]
pub fn default_preset() -> String {
    scenarios::default_preset().to_string()
}

/// The scenario id and canonical name of a preset (names match in any case):
/// `{ scenario, preset }`; throws for an unknown preset.
#[wasm_bindgen(unchecked_return_type = "FoundPreset")]
pub fn find_preset(name: &str) -> Result<JsValue, JsError> {
    #[derive(Serialize)]
    struct Found {
        scenario: &'static str,
        preset: &'static str,
    }
    let (s, preset) = scenarios::by_preset(name).map_err(|e| JsError::new(&e.to_string()))?;
    to_js(&Found {
        scenario: s.info().id,
        preset,
    })
}

/// A preset's settings as `[[key, text], …]` in the page's order; throws for
/// an unknown preset.
#[wasm_bindgen(unchecked_return_type = "[string, string][]")]
pub fn preset_fields(name: &str) -> Result<JsValue, JsError> {
    let (s, preset) = scenarios::by_preset(name).map_err(|e| JsError::new(&e.to_string()))?;
    let fields = s
        .preset_fields(preset)
        .map_err(|e| JsError::new(&e.to_string()))?;
    to_js(&fields)
}

/// The page's `describe.json` as text: every scenario's description, each
/// preset's settings and empty charts, the audit's charts and the default
/// preset (`crate::describe`): what `dp-explorer describe --json` prints, byte
/// for byte. `make build` writes the file with it in node (`scripts/describe.mjs`).
#[wasm_bindgen]
pub fn describe_json() -> Result<String, JsError> {
    crate::describe::description_json().map_err(|e| JsError::new(&e))
}
