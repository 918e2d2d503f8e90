//! The page's result cache: a finished run as one part, and what of it a new run keeps.

use super::{fields_from_js, pairs, preset_or_default};
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
/// one part: what the page keeps of its last run for [`reuse`].
#[wasm_bindgen]
pub fn whole_part(
    preset: Option<String>,
    #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
    parts: Vec<js_sys::Uint8Array>,
    kept_part: Option<Vec<u8>>,
    kept_jobs: Option<Vec<u32>>,
) -> Result<Vec<u8>, JsError> {
    let fields = fields_from_js(fields)?;
    let preset = preset_or_default(preset);
    let (s, name) = scenarios::by_preset(&preset).map_err(|e| JsError::new(&e.to_string()))?;
    let parts: Vec<Vec<u8>> = parts.iter().map(|p| p.to_vec()).collect();
    s.whole_part(
        name,
        &pairs(&fields),
        &parts,
        kept_of(kept_part, kept_jobs).as_ref(),
    )
    .map_err(|e| JsError::new(&e.to_string()))
}

/// The page's result cache: of a finished run of `old_fields` (its
/// [`whole_part`]), the results a run of `fields` would compute again bit for
/// bit (`Scenario::reuse`), as `{ part, jobs }` (`jobs` empty: nothing kept;
/// always so for another scenario).
#[wasm_bindgen]
pub fn reuse(
    old_preset: String,
    #[wasm_bindgen(unchecked_param_type = "Settings")] old_fields: JsValue,
    old_whole: Vec<u8>,
    preset: Option<String>,
    #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
) -> Result<JsValue, JsError> {
    let old_fields = fields_from_js(old_fields)?;
    let fields = fields_from_js(fields)?;
    let preset = preset_or_default(preset);
    let (s, name) = scenarios::by_preset(&preset).map_err(|e| JsError::new(&e.to_string()))?;
    let kept = match scenarios::by_preset(&old_preset) {
        Ok((old_s, old_name)) if old_s.info().id == s.info().id => s
            .reuse(
                old_name,
                &pairs(&old_fields),
                &old_whole,
                name,
                &pairs(&fields),
            )
            .map_err(|e| JsError::new(&e.to_string()))?,
        _ => Kept::default(),
    };
    let out = js_sys::Object::new();
    let part = js_sys::Uint8Array::from(kept.part.as_slice());
    let jobs: Vec<u32> = kept.jobs.iter().map(|&j| j as u32).collect();
    let jobs = js_sys::Uint32Array::from(jobs.as_slice());
    js_sys::Reflect::set(&out, &"part".into(), &part).map_err(|_| JsError::new("reuse: part"))?;
    js_sys::Reflect::set(&out, &"jobs".into(), &jobs).map_err(|_| JsError::new("reuse: jobs"))?;
    Ok(out.into())
}
