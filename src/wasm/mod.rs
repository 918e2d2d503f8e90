//! The only `#[wasm_bindgen]` code: thin wrappers that delegate 1:1 to the pure
//! core (as rapier.js does), convert values with serde-wasm-bindgen, and turn
//! every error into a `JsError` at the boundary. Nothing here panics on user
//! input; a panic elsewhere is reported by `console_error_panic_hook`.

use crate::experiment::scenario::{self, Sweep};
use crate::experiment::{ConfigError, FedRepConfig};
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

/// Trims the preset name the page sends (None stays None: FedRep's defaults).
fn preset_name(preset: &Option<String>) -> Option<&str> {
    preset.as_deref().map(str::trim)
}

/// The scenario of a preset: "fedrep" or "dpgd" (throws for an unknown preset).
#[wasm_bindgen]
pub fn preset_scenario(name: &str) -> Result<String, JsError> {
    scenario::scenario_of(Some(name.trim()))
        .map(|s| s.id().to_string())
        .map_err(|e| JsError::new(&e.to_string()))
}

/// A preset's fields as `[[key, text], …]` in the page's order; the preset
/// decides the scenario (and so which fields there are).
#[wasm_bindgen]
pub fn preset_fields(name: &str) -> Result<JsValue, JsError> {
    let fields = scenario::fields(name.trim()).map_err(|e| JsError::new(&e.to_string()))?;
    to_js(&fields)
}

/// Every problem with these fields, as `[{ field, message }]` (empty: valid);
/// the preset decides the scenario (none: Private FedRep's defaults).
#[wasm_bindgen]
pub fn validate_fields(preset: Option<String>, fields: JsValue) -> Result<JsValue, JsError> {
    let fields = fields_from_js(fields)?;
    let errors = scenario::validate(
        preset_name(&preset),
        fields.iter().map(|(k, v)| (k.as_str(), v.as_str())),
    );
    to_js(&field_errors(&errors))
}

/// A sweep of the preset's scenario (Private FedRep or DP-GD on random
/// features), driven step by step from the worker.
#[wasm_bindgen]
pub struct Runner {
    inner: Sweep,
}

#[wasm_bindgen]
impl Runner {
    /// Validates and prepares a sweep; a bad config throws an error whose
    /// `message` lists `field: message` lines.
    #[wasm_bindgen(constructor)]
    pub fn new(preset: Option<String>, fields: JsValue) -> Result<Runner, JsError> {
        Runner::shard(preset, fields, 0, 1)
    }

    /// Shard `shard` of `shards` of the sweep (one per worker of a pool);
    /// the shards' results merge with [`merge_fedrep_results`].
    pub fn shard(
        preset: Option<String>,
        fields: JsValue,
        shard: usize,
        shards: usize,
    ) -> Result<Runner, JsError> {
        let fields = fields_from_js(fields)?;
        let inner = Sweep::shard_from_preset_and_fields(
            preset_name(&preset),
            fields.iter().map(|(k, v)| (k.as_str(), v.as_str())),
            shard,
            shards,
        )
        .map_err(|errors| errors_to_js(&errors))?;
        Ok(Runner { inner })
    }

    /// One unit of work; true when the sweep is finished.
    pub fn step(&mut self) -> Result<bool, JsError> {
        self.inner.step().map_err(|e| JsError::new(&e))
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

    /// Progress, phase, finished rows and the chart specs. Private FedRep:
    /// `{ scenario, done, total, phase, finished, rows, curves, charts, config }`;
    /// DP-GD: `{ scenario, done, total, phase, finished, rows, trace, charts,
    /// tables, config }` (rows carry `privacy` reports when private).
    pub fn snapshot(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.snapshot())
    }

    /// The results as CSV (header + one row per run).
    pub fn csv(&self) -> String {
        self.inner.csv()
    }
}

fn spec_from_js(spec: JsValue) -> Result<ChartSpec, JsError> {
    serde_wasm_bindgen::from_value(spec)
        .map_err(|e| JsError::new(&format!("not a chart spec: {e}")))
}

/// Draws a chart spec on a canvas (main thread only: plotters measures text
/// through `window`). `scale` multiplies fonts and line widths (device pixel
/// ratio × the page's text size). Returns the layout
/// `{ left, right, top, bottom, x_min, x_max, y_min, y_max, log_x, log_y }`:
/// the plot area in canvas pixels and the axis ranges in plotting
/// coordinates (log10 on a log axis), so the page can map a pointer to data.
#[wasm_bindgen]
pub fn draw_chart(
    canvas: web_sys::HtmlCanvasElement,
    spec: JsValue,
    scale: f64,
) -> Result<JsValue, JsError> {
    let spec = spec_from_js(spec)?;
    let backend = CanvasBackend::with_canvas_object(canvas)
        .ok_or_else(|| JsError::new("canvas has no 2D context"))?;
    let root = backend.into_drawing_area();
    let layout = plot::draw_chart(&root, &spec, scale).map_err(|e| JsError::new(&e.to_string()))?;
    to_js(&layout)
}

/// The same chart as an SVG document (for export).
#[wasm_bindgen]
pub fn chart_svg(spec: JsValue, width: u32, height: u32) -> Result<String, JsError> {
    let spec = spec_from_js(spec)?;
    plot::chart_svg(&spec, width, height).map_err(|e| JsError::new(&e.to_string()))
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

/// Merges the `{ rows, curves }` of a Private FedRep sweep computed by several
/// workers (shards) into what one worker would have produced: rows and curves
/// in sweep order, the charts drawn from all of them, and the CSV.
#[wasm_bindgen]
pub fn merge_fedrep_results(
    preset: Option<String>,
    fields: JsValue,
    parts: JsValue,
) -> Result<JsValue, JsError> {
    use crate::experiment::fedrep_sweep::charts_for_config;
    use crate::experiment::results::{AngleCurve, ResultRow};
    #[derive(serde::Deserialize)]
    struct Part {
        #[serde(default)]
        rows: Vec<ResultRow>,
        #[serde(default)]
        curves: Vec<AngleCurve>,
    }
    #[derive(Serialize)]
    struct Merged {
        rows: Vec<ResultRow>,
        curves: Vec<AngleCurve>,
        charts: Vec<ChartSpec>,
        csv: String,
    }
    let fields = fields_from_js(fields)?;
    let config = FedRepConfig::from_pairs(
        preset_name(&preset),
        fields.iter().map(|(k, v)| (k.as_str(), v.as_str())),
    )
    .map_err(|errors| errors_to_js(&errors))?;
    let parts: Vec<Part> = serde_wasm_bindgen::from_value(parts)
        .map_err(|e| JsError::new(&format!("not sweep results: {e}")))?;
    let (rows, curves) = crate::experiment::fedrep_sweep::merge_shards(
        parts.into_iter().map(|p| (p.rows, p.curves)),
    );
    let charts = charts_for_config(&config, &rows, &curves);
    let csv = crate::experiment::results::csv_string(&rows);
    to_js(&Merged {
        rows,
        curves,
        charts,
        csv,
    })
}
