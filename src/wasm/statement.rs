//! What the page states in words beside its runs: the privacy statement of
//! the run it shows (the same text the CLI writes as `privacy-statement.txt`,
//! `scenarios::statement`, from the settings the page ran and its snapshot's
//! explain entries; `Configuration.privacy_statement`), in full and in one
//! line.

use super::configuration::Configuration;
use crate::scenarios::statement::{self, Release};
use serde::Deserialize;
use wasm_bindgen::prelude::*;

/// What the statement reads of an explain entry: the release it carries.
#[derive(Deserialize)]
struct Entry {
    release: Option<Release>,
}

#[wasm_bindgen]
impl Configuration {
    /// The privacy statement of a finished run of this configuration,
    /// `entries` its snapshot's `privacy` (explain entries, as the snapshot
    /// gave them). Throws for entries that are not a snapshot's.
    pub fn privacy_statement(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ExplainEntry[]")] entries: JsValue,
    ) -> Result<String, JsError> {
        let releases = releases_of(entries)?;
        Ok(statement::of_releases(self.configured(), &releases))
    }
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
