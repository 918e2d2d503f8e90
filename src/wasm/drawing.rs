//! Charts drawn on a canvas or written as SVG.

use super::to_js;
use crate::plot::{self, ChartLayout, ChartSpec, ReadablePoint};
use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use serde::Serialize;
use wasm_bindgen::prelude::*;

pub(super) fn spec_from_js(spec: JsValue) -> Result<ChartSpec, JsError> {
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
#[wasm_bindgen(unchecked_return_type = "Drawn")]
pub fn draw_chart(
    canvas: web_sys::HtmlCanvasElement,
    #[wasm_bindgen(unchecked_param_type = "ChartSpec")] spec: JsValue,
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
pub fn chart_svg(
    #[wasm_bindgen(unchecked_param_type = "ChartSpec")] spec: JsValue,
    width: u32,
    height: u32,
    footer: Option<String>,
) -> Result<String, JsError> {
    let spec = spec_from_js(spec)?;
    plot::chart_svg_with_footer(&spec, width, height, footer.as_deref())
        .map_err(|e| JsError::new(&e.to_string()))
}
