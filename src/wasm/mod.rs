//! The only `#[wasm_bindgen]` code: thin wrappers that delegate 1:1 to the
//! pure core (as rapier.js does), convert values with serde-wasm-bindgen, and
//! turn every error into a `JsError` at the boundary. Nothing here knows a
//! scenario by name: everything goes through the registry
//! (`crate::scenarios`). Nothing here panics on user input; a panic elsewhere
//! is reported by `console_error_panic_hook`.

use crate::plot::{self, ChartLayout, ChartSpec, ReadablePoint};
use crate::scenarios::{self, ConfigError, Run, Shard};
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

/// Config errors as one JS error whose message has a `field: message` line each.
fn errors_to_js(errors: &[ConfigError]) -> JsError {
    JsError::new(
        &errors
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// A field-tagged error for the page: `{ field, message }`.
#[derive(Serialize)]
struct FieldError {
    field: String,
    message: String,
}

/// Reads `{ key: "text", … }` from JS; every value is taken as text.
fn fields_from_js(fields: JsValue) -> Result<Vec<(String, String)>, JsError> {
    if fields.is_undefined() || fields.is_null() {
        return Ok(Vec::new());
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

fn pairs(fields: &[(String, String)]) -> Vec<(&str, &str)> {
    fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

/// The preset the page sends, or the default one.
fn preset_or_default(preset: Option<String>) -> String {
    preset.unwrap_or_else(|| scenarios::default_preset().to_string())
}

/// Every scenario: `[{ id, title, lede, source, unit, presets, fields, charts, splits }]`.
#[wasm_bindgen]
pub fn scenarios() -> Result<JsValue, JsError> {
    let infos: Vec<_> = scenarios::SCENARIOS.iter().map(|s| s.info()).collect();
    to_js(&infos)
}

/// The default preset's name.
#[wasm_bindgen]
pub fn default_preset() -> String {
    scenarios::default_preset().to_string()
}

/// The scenario id and canonical name of a preset (names match in any case):
/// `{ scenario, preset }`; throws for an unknown preset.
#[wasm_bindgen]
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

/// A preset's settings as `[[key, text], …]` in the page's order.
#[wasm_bindgen]
pub fn preset_fields(name: &str) -> Result<JsValue, JsError> {
    let (s, preset) = scenarios::by_preset(name).map_err(|e| JsError::new(&e.to_string()))?;
    let fields = s
        .preset_fields(preset)
        .map_err(|e| JsError::new(&e.to_string()))?;
    to_js(&fields)
}

/// Every problem with these settings, as `[{ field, message }]` (empty: valid).
#[wasm_bindgen]
pub fn validate_fields(preset: Option<String>, fields: JsValue) -> Result<JsValue, JsError> {
    let fields = fields_from_js(fields)?;
    let errors = scenarios::validate(&preset_or_default(preset), &pairs(&fields));
    let out: Vec<FieldError> = errors
        .iter()
        .map(|e| FieldError {
            field: e.field().to_string(),
            message: e.to_string(),
        })
        .collect();
    to_js(&out)
}

/// A sweep of any scenario, driven step by step (in a worker).
#[wasm_bindgen]
pub struct Runner {
    scenario: &'static str,
    inner: Box<dyn Run>,
}

#[wasm_bindgen]
impl Runner {
    /// Validates and prepares the whole sweep; a bad config throws an error
    /// whose `message` lists `field: message` lines.
    #[wasm_bindgen(constructor)]
    pub fn new(preset: Option<String>, fields: JsValue) -> Result<Runner, JsError> {
        Runner::shard(preset, fields, 0, 1)
    }

    /// Shard `shard` of `shards` of the sweep (one per worker of a pool); the
    /// shards' `part()`s merge with [`merge`].
    pub fn shard(
        preset: Option<String>,
        fields: JsValue,
        shard: usize,
        shards: usize,
    ) -> Result<Runner, JsError> {
        let fields = fields_from_js(fields)?;
        let shard = Shard {
            index: shard,
            count: shards,
        };
        let (s, inner) = scenarios::start(&preset_or_default(preset), &pairs(&fields), shard)
            .map_err(|errors| errors_to_js(&errors))?;
        Ok(Runner {
            scenario: s.info().id,
            inner,
        })
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

    /// `{ scenario, done, total, phase, finished, charts, tables, privacy, files }`.
    pub fn snapshot(&self) -> Result<JsValue, JsError> {
        to_js(&scenarios::snapshot(self.scenario, self.inner.as_ref()))
    }

    /// This shard's results, compact and exact, for [`merge`].
    pub fn part(&self) -> Vec<u8> {
        self.inner.part()
    }

    /// The results as CSV (header + one row per run).
    pub fn csv(&self) -> String {
        self.inner
            .view()
            .files
            .into_iter()
            .next()
            .map(|f| f.text)
            .unwrap_or_default()
    }
}

/// The view (`{ charts, tables, privacy, files }`) of a sweep computed by
/// several workers, from their `part()`s: exactly what one worker gives.
#[wasm_bindgen]
pub fn merge(
    preset: Option<String>,
    fields: JsValue,
    parts: Vec<js_sys::Uint8Array>,
) -> Result<JsValue, JsError> {
    let fields = fields_from_js(fields)?;
    let preset = preset_or_default(preset);
    let (s, name) = scenarios::by_preset(&preset).map_err(|e| JsError::new(&e.to_string()))?;
    let parts: Vec<Vec<u8>> = parts.iter().map(|p| p.to_vec()).collect();
    let view = s
        .merge(name, &pairs(&fields), &parts)
        .map_err(|e| JsError::new(&e.to_string()))?;
    to_js(&view)
}

fn spec_from_js(spec: JsValue) -> Result<ChartSpec, JsError> {
    serde_wasm_bindgen::from_value(spec)
        .map_err(|e| JsError::new(&format!("not a chart spec: {e}")))
}

/// What [`draw_chart`] returns: where the plot area is and the points a
/// reader can land on.
#[derive(Serialize)]
struct Drawn {
    layout: ChartLayout,
    points: Vec<ReadablePoint>,
}

/// Draws a chart spec on a canvas (main thread only: plotters measures text
/// through `window`). `scale` multiplies fonts and line widths (device pixel
/// ratio × the page's text size). Returns `{ layout, points }`: the plot area
/// in canvas pixels with the axis ranges, and every point a reader can land
/// on with its pixel (series whose name starts with one of `skip` left out).
#[wasm_bindgen]
pub fn draw_chart(
    canvas: web_sys::HtmlCanvasElement,
    spec: JsValue,
    scale: f64,
    skip: Vec<String>,
) -> Result<JsValue, JsError> {
    let spec = spec_from_js(spec)?;
    let backend = CanvasBackend::with_canvas_object(canvas)
        .ok_or_else(|| JsError::new("canvas has no 2D context"))?;
    let root = backend.into_drawing_area();
    let layout = plot::draw_chart(&root, &spec, scale).map_err(|e| JsError::new(&e.to_string()))?;
    let points = plot::readable_points(&spec, &layout, &skip);
    to_js(&Drawn { layout, points })
}

/// The same chart as an SVG document (for export).
#[wasm_bindgen]
pub fn chart_svg(spec: JsValue, width: u32, height: u32) -> Result<String, JsError> {
    let spec = spec_from_js(spec)?;
    plot::chart_svg(&spec, width, height).map_err(|e| JsError::new(&e.to_string()))
}

/// Runs a shared benchmark to the end (timed by the caller) and returns its
/// one-line summary; see `crate::bench`.
#[wasm_bindgen]
pub fn run_bench(name: &str) -> Result<String, JsError> {
    crate::bench::run_bench(name).map_err(|e| JsError::new(&e))
}

/// The benchmark names.
#[wasm_bindgen]
pub fn bench_names() -> Vec<String> {
    crate::bench::BENCHES
        .iter()
        .map(|b| b.0.to_string())
        .collect()
}
