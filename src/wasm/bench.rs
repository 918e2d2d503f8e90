//! The shared benchmarks (`crate::bench`), run in the browser.

use wasm_bindgen::prelude::*;

/// Runs a shared benchmark to the end (timed by the caller) and returns its
/// one-line summary; see `crate::bench`.
#[wasm_bindgen]
pub fn run_bench(name: &str) -> Result<String, JsError> {
    crate::bench::run_bench(name).map_err(|e| JsError::new(&e.to_string()))
}

/// The benchmark names.
#[wasm_bindgen]
pub fn bench_names() -> Vec<String> {
    crate::bench::BENCHES
        .iter()
        .map(|b| b.0.to_string())
        .collect()
}
