//! The only `#[wasm_bindgen]` code: thin wrappers that delegate 1:1 to the pure
//! core (as rapier.js does), convert values with serde-wasm-bindgen, and turn
//! every error into a `JsError` at the boundary. Nothing here panics on user
//! input; a panic elsewhere is reported by `console_error_panic_hook`.

use crate::experiment::fedrep_config::FEDREP_PRESETS;
use crate::experiment::results::csv_string;
use crate::experiment::{ConfigError, FedRepConfig, FedRepSweep};
use crate::plot::{self, ChartSpec};
use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use serde::Serialize;
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    let serializer = serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true);
    value
        .serialize(&serializer)
        .map_err(|e| JsError::new(&e.to_string()))
}

/// A field-tagged error for the page: `{ field, message }`.
#[derive(Serialize)]
struct FieldError {
    field: String,
    message: String,
}

fn field_errors(errors: &[ConfigError]) -> Vec<FieldError> {
    errors
        .iter()
        .map(|e| FieldError {
            field: e.field().to_string(),
            message: e.to_string(),
        })
        .collect()
}

/// Reads `{ key: "text", … }` from JS; every value is taken as text.
fn fields_from_js(fields: JsValue) -> Result<BTreeMap<String, String>, JsError> {
    if fields.is_undefined() || fields.is_null() {
        return Ok(BTreeMap::new());
    }
    let raw: BTreeMap<String, serde_json::Value> = serde_wasm_bindgen::from_value(fields)
        .map_err(|e| JsError::new(&format!("fields must be an object of texts: {e}")))?;
    Ok(raw
        .into_iter()
        .map(|(k, v)| {
            let text = match v {
                serde_json::Value::String(s) => s,
                other => other.to_string(),
            };
            (k, text)
        })
        .collect())
}

fn config_from_js(
    preset: Option<String>,
    fields: JsValue,
) -> Result<Result<FedRepConfig, Vec<ConfigError>>, JsError> {
    let fields = fields_from_js(fields)?;
    Ok(FedRepConfig::from_pairs(
        preset.as_deref(),
        fields.iter().map(|(k, v)| (k.as_str(), v.as_str())),
    ))
}

/// The preset names.
#[wasm_bindgen]
pub fn presets() -> Result<JsValue, JsError> {
    to_js(FEDREP_PRESETS)
}

/// A preset's fields as `[[key, text], …]` in the page's order.
#[wasm_bindgen]
pub fn preset_fields(name: &str) -> Result<JsValue, JsError> {
    let config = FedRepConfig::preset(name).map_err(|e| JsError::new(&e.to_string()))?;
    to_js(&config.to_fields())
}

/// Every problem with these fields, as `[{ field, message }]` (empty: valid).
#[wasm_bindgen]
pub fn validate_fields(preset: Option<String>, fields: JsValue) -> Result<JsValue, JsError> {
    match config_from_js(preset, fields)? {
        Ok(_) => to_js(&Vec::<FieldError>::new()),
        Err(errors) => to_js(&field_errors(&errors)),
    }
}

/// Approximate bytes a config needs (for the page's memory note).
#[wasm_bindgen]
pub fn memory_estimate(preset: Option<String>, fields: JsValue) -> Result<f64, JsError> {
    match config_from_js(preset, fields)? {
        Ok(c) => Ok(c.memory_bytes() as f64),
        Err(_) => Ok(f64::NAN),
    }
}

/// A Private FedRep sweep, driven step by step from the worker.
#[wasm_bindgen]
pub struct Runner {
    inner: FedRepSweep,
}

#[wasm_bindgen]
impl Runner {
    /// Validates and prepares a sweep; a bad config throws an error whose
    /// `message` lists `field: message` lines.
    #[wasm_bindgen(constructor)]
    pub fn new(preset: Option<String>, fields: JsValue) -> Result<Runner, JsError> {
        let config = config_from_js(preset, fields)?.map_err(|errors| {
            JsError::new(
                &errors
                    .iter()
                    .map(|e| e.to_string())
                    .collect::<Vec<_>>()
                    .join("\n"),
            )
        })?;
        let inner = FedRepSweep::new(config).map_err(|e| JsError::new(&e.to_string()))?;
        Ok(Runner { inner })
    }

    /// One unit of work; true when the sweep is finished.
    pub fn step(&mut self) -> Result<bool, JsError> {
        self.inner.step().map_err(|e| JsError::new(&e.to_string()))
    }

    /// Steps until `budget_ms` milliseconds have passed (or the end): the
    /// worker calls this and then yields so that a "cancel" can arrive.
    pub fn run_for(&mut self, budget_ms: f64) -> Result<bool, JsError> {
        let start = js_sys::Date::now();
        loop {
            if self.step()? {
                return Ok(true);
            }
            if js_sys::Date::now() - start >= budget_ms {
                return Ok(false);
            }
        }
    }

    /// [units done, units total].
    pub fn progress(&self) -> Vec<f64> {
        let (d, t) = self.inner.progress();
        vec![d as f64, t as f64]
    }

    /// Progress, phase, finished rows, angle curves and the chart specs.
    pub fn snapshot(&self) -> Result<JsValue, JsError> {
        #[derive(Serialize)]
        struct Snapshot {
            #[serde(flatten)]
            sweep: crate::experiment::fedrep_sweep::SweepSnapshot,
            charts: Vec<ChartSpec>,
            config: Vec<(&'static str, String)>,
        }
        to_js(&Snapshot {
            sweep: self.inner.snapshot(),
            charts: self.inner.charts(),
            config: self.inner.config().to_fields(),
        })
    }

    /// The results as CSV (header + one row per method and ε).
    pub fn csv(&self) -> String {
        csv_string(self.inner.rows())
    }
}

fn spec_from_js(spec: JsValue) -> Result<ChartSpec, JsError> {
    serde_wasm_bindgen::from_value(spec)
        .map_err(|e| JsError::new(&format!("not a chart spec: {e}")))
}

/// Draws a chart spec on a canvas (main thread only: plotters measures text
/// through `window`). `scale` multiplies fonts and line widths (device pixel
/// ratio × the page's text size).
#[wasm_bindgen]
pub fn draw_chart(
    canvas: web_sys::HtmlCanvasElement,
    spec: JsValue,
    scale: f64,
) -> Result<(), JsError> {
    let spec = spec_from_js(spec)?;
    let backend = CanvasBackend::with_canvas_object(canvas)
        .ok_or_else(|| JsError::new("canvas has no 2D context"))?;
    let root = backend.into_drawing_area();
    plot::draw_chart(&root, &spec, scale).map_err(|e| JsError::new(&e.to_string()))
}

/// The same chart as an SVG document (for export).
#[wasm_bindgen]
pub fn chart_svg(spec: JsValue, width: u32, height: u32) -> Result<String, JsError> {
    let spec = spec_from_js(spec)?;
    plot::chart_svg(&spec, width, height).map_err(|e| JsError::new(&e.to_string()))
}

/// The colour of a series index as CSS, so HTML legends match the canvas.
#[wasm_bindgen]
pub fn series_color(index: usize) -> String {
    plot::css_color(index)
}

/// Runs a shared benchmark to the end (timed by the caller) and returns its
/// one-line summary; see `experiment::bench`.
#[wasm_bindgen]
pub fn run_bench(name: &str) -> Result<String, JsError> {
    crate::experiment::bench::run_bench(name).map_err(|e| JsError::new(&e))
}

/// The benchmark names.
#[wasm_bindgen]
pub fn bench_names() -> Vec<String> {
    crate::experiment::bench::BENCHES
        .iter()
        .map(|b| b.0.to_string())
        .collect()
}
