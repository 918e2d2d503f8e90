//! The page's result cache (`Configuration.whole_part`, `Configuration.reuse`):
//! the kept results as they cross the boundary.

use crate::scenarios::Kept;
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
