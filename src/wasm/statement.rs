//! What the page states in words beside its runs: the privacy statement of
//! the run it shows (the same text the CLI writes as `privacy-statement.txt`,
//! `scenarios::statement`, from the settings the page ran and its snapshot's
//! explain entries).

use super::{fields_from_js, pairs, preset_or_default};
use crate::scenarios::statement::{self, Release};
use serde::Deserialize;
use wasm_bindgen::prelude::*;

/// What the statement reads of an explain entry: the release it carries.
#[derive(Deserialize)]
struct Entry {
    release: Option<Release>,
}

/// The privacy statement of a finished run: `preset` and `fields` the
/// settings it ran, `entries` its snapshot's `privacy` (explain entries, as
/// the snapshot gave them). Throws for settings that do not check, or entries
/// that are not a snapshot's.
#[wasm_bindgen]
pub fn privacy_statement(
    preset: Option<String>,
    #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ExplainEntry[]")] entries: JsValue,
) -> Result<String, JsError> {
    let preset = preset_or_default(preset);
    let fields = fields_from_js(fields)?;
    let entries: Vec<Entry> = serde_wasm_bindgen::from_value(entries).map_err(|e| {
        JsError::new(&format!(
            "entries must be a snapshot's privacy entries: {e}"
        ))
    })?;
    let releases: Vec<Release> = entries.into_iter().filter_map(|e| e.release).collect();
    statement::of_releases(&preset, &pairs(&fields), &releases)
        .map_err(|errors| super::errors_to_js(&errors))
}

/// The file name the CLI writes it to ("privacy-statement.txt").
#[wasm_bindgen]
pub fn privacy_statement_file_name() -> String {
    statement::FILE_NAME.to_string()
}

