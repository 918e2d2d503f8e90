//! The page's result cache: a finished run as one part, and what of it a new run keeps.

use super::configuration::{Checking, Configuration};
use super::preset_or_default;
use crate::scenarios::{self, Kept};
use wasm_bindgen::prelude::*;

pub(super) fn kept_of(part: Option<Vec<u8>>, jobs: Option<Vec<u32>>) -> Option<Kept> {
    match (part, jobs) {
        (Some(part), Some(jobs)) if !jobs.is_empty() => Some(Kept {
            part,
            jobs: jobs.into_iter().map(|j| j as usize).collect(),
        }),
        _ => None,
    }
}

/// A finished sweep's results (its workers' parts, beside what it kept) as
/// one part: what the page keeps of its last run for [`reuse`]
/// (`Configuration.whole_part`).
#[wasm_bindgen]
pub fn whole_part(
    preset: Option<String>,
    #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
    parts: Vec<js_sys::Uint8Array>,
    kept_part: Option<Vec<u8>>,
    kept_jobs: Option<Vec<u32>>,
) -> Result<Vec<u8>, JsError> {
    let preset = preset_or_default(preset);
    scenarios::by_preset(&preset).map_err(|e| JsError::new(&e.to_string()))?;
    Configuration::of(Some(preset), fields)
        .map_err(Checking::thrown_as_run_error)?
        .whole_part(parts, kept_part, kept_jobs)
}

/// The page's result cache: of a finished run of `old_fields` (its
/// [`whole_part`]), the results a run of `fields` would compute again bit for
/// bit (`Configuration.reuse`), as `{ part, jobs }` (`jobs` empty: nothing
/// kept; always so for another scenario).
#[wasm_bindgen]
pub fn reuse(
    old_preset: String,
    #[wasm_bindgen(unchecked_param_type = "Settings")] old_fields: JsValue,
    old_whole: Vec<u8>,
    preset: Option<String>,
    #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
) -> Result<JsValue, JsError> {
    let preset = preset_or_default(preset);
    let (s, _) = scenarios::by_preset(&preset).map_err(|e| JsError::new(&e.to_string()))?;
    match scenarios::by_preset(&old_preset) {
        Ok((old_s, _)) if old_s.info().id == s.info().id => {
            let old = Configuration::of(Some(old_preset), old_fields)
                .map_err(Checking::thrown_as_run_error)?;
            let new =
                Configuration::of(Some(preset), fields).map_err(Checking::thrown_as_run_error)?;
            new.reuse(&old, old_whole)
        }
        // Another scenario's run (or an unknown preset's) keeps nothing.
        _ => kept_to_js(&Kept::default()),
    }
}

/// Kept results for JS: `{ part: Uint8Array, jobs: Uint32Array }`.
pub(super) fn kept_to_js(kept: &Kept) -> Result<JsValue, JsError> {
    let out = js_sys::Object::new();
    let part = js_sys::Uint8Array::from(kept.part.as_slice());
    let jobs: Vec<u32> = kept.jobs.iter().map(|&j| j as u32).collect();
    let jobs = js_sys::Uint32Array::from(jobs.as_slice());
    js_sys::Reflect::set(&out, &"part".into(), &part).map_err(|_| JsError::new("reuse: part"))?;
    js_sys::Reflect::set(&out, &"jobs".into(), &jobs).map_err(|_| JsError::new("reuse: jobs"))?;
    Ok(out.into())
}
