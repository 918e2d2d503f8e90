//! What the page states in words beside its runs: the privacy statement of
//! the run it shows (the same text the CLI writes as `privacy-statement.txt`,
//! `scenarios::statement`, from the settings the page ran and its snapshot's
//! explain entries), and, before an audit of deliberately broken runs starts,
//! which ε its size can catch (`AuditRun::reach`).

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
    let releases = releases_of(entries)?;
    let configured = crate::scenarios::configure(&preset, &pairs(&fields))
        .map_err(|errors| super::errors_to_js(&errors))?;
    Ok(statement::of_releases(configured.as_ref(), &releases))
}

/// The privacy statement of the same run in one line (mechanism, relation, ε
/// spent at δ, accountant): the footer of the page's PNG and SVG exports.
#[wasm_bindgen]
pub fn privacy_statement_line(
    #[wasm_bindgen(unchecked_param_type = "ExplainEntry[]")] entries: JsValue,
) -> Result<String, JsError> {
    let releases = releases_of(entries)?;
    Ok(statement::line_of(&releases.iter().collect::<Vec<_>>()))
}

/// The releases a snapshot's explain entries carry.
fn releases_of(entries: JsValue) -> Result<Vec<Release>, JsError> {
    let entries: Vec<Entry> = serde_wasm_bindgen::from_value(entries).map_err(|e| {
        JsError::new(&format!(
            "entries must be a snapshot's privacy entries: {e}"
        ))
    })?;
    Ok(entries.into_iter().filter_map(|e| e.release).collect())
}

/// The file name the CLI writes it to ("privacy-statement.txt").
#[wasm_bindgen]
pub fn privacy_statement_file_name() -> String {
    statement::FILE_NAME.to_string()
}

/// Before an audit of these settings runs (the arguments of `new Auditor`):
/// which audited ε its size can be expected to catch, and why not the others,
/// for deliberately broken runs whose attack knows its chances exactly; null
/// otherwise. Throws as `new Auditor` does.
#[wasm_bindgen]
pub fn audit_reach(
    preset: Option<String>,
    #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
    runs: usize,
    mode: &str,
    broken: bool,
    seed: u32,
) -> Result<Option<String>, JsError> {
    Ok(super::audit::Auditor::new(preset, fields, runs, mode, broken, seed)?.reach())
}
