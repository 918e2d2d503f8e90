//! What a chart shows, independent of where it is drawn: every scenario turns
//! its results into `ChartSpec`s, and one drawing routine renders any spec on
//! any plotters backend (canvas in the browser, SVG natively).

use serde::{Deserialize, Serialize};

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum LineStyle {
    /// Solid line with point markers (a measured curve).
    #[default]
    Solid,
    /// Dashed line, no markers (a reference level, e.g. a non-private method).
    Dashed,
    /// Dotted line (a theory guide).
    Dotted,
}

/// One named curve: (x, y) points in increasing x.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    pub style: LineStyle,
    /// Index into the shared palette, so a method keeps its colour across charts.
    pub color: usize,
    /// A horizontal reference line across the whole x range (uses the first point's y).
    pub horizontal: bool,
}

/// A whole chart: axes, scales and series.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChartSpec {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub log_x: bool,
    pub log_y: bool,
    /// The x range to show before any data has arrived (and to include after).
    pub x_hint: Option<(f64, f64)>,
    pub series: Vec<Series>,
}
