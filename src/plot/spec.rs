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
    /// An optional spread around the line: (x, lo, hi) in increasing x, drawn
    /// as a translucent area (e.g. the min–max or ±1 sd over several seeds).
    #[serde(default)]
    pub band: Vec<(f64, f64, f64)>,
    /// Drawn in a lighter tint (e.g. a pinned earlier run under the current one).
    #[serde(default)]
    pub faded: bool,
    /// Listed in the legend (a series whose colour and style the caption
    /// already explains can stay out, to keep the legend small).
    #[serde(default = "listed")]
    pub in_legend: bool,
}

impl Series {
    /// A plain series: in the legend, not horizontal, no band, not faded.
    pub fn line(
        name: impl Into<String>,
        points: Vec<(f64, f64)>,
        style: LineStyle,
        color: usize,
    ) -> Self {
        Series {
            name: name.into(),
            points,
            style,
            color,
            horizontal: false,
            band: Vec::new(),
            faded: false,
            in_legend: true,
        }
    }
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

/// Where a chart was drawn, so that a pointer position can be mapped back to
/// data: the plot area's pixel box (backend pixels, i.e. device pixels on a
/// HiDPI canvas) and the axis ranges in plotting coordinates (log10 of the
/// value on a log axis).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChartLayout {
    pub left: i32,
    pub right: i32,
    pub top: i32,
    pub bottom: i32,
    pub x_min: f64,
    pub x_max: f64,
    pub y_min: f64,
    pub y_max: f64,
    pub log_x: bool,
    pub log_y: bool,
}

impl ChartLayout {
    /// The pixel of a data point (None: not drawable on this axis, e.g. ≤ 0 on log).
    pub fn to_pixel(&self, x: f64, y: f64) -> Option<(f64, f64)> {
        let tx = if self.log_x {
            (x > 0.0).then(|| x.log10())?
        } else {
            x
        };
        let ty = if self.log_y {
            (y > 0.0).then(|| y.log10())?
        } else {
            y
        };
        if !(tx.is_finite() && ty.is_finite()) {
            return None;
        }
        let fx = (tx - self.x_min) / (self.x_max - self.x_min);
        let fy = (ty - self.y_min) / (self.y_max - self.y_min);
        Some((
            self.left as f64 + fx * (self.right - self.left) as f64,
            self.bottom as f64 - fy * (self.bottom - self.top) as f64,
        ))
    }
}

/// A point a reader can land on with the pointer or the keyboard, with its
/// pixel on the drawn chart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReadablePoint {
    /// Index of its series in the spec.
    pub series: usize,
    pub name: String,
    /// NaN for a horizontal reference line (the same at every x).
    pub x: f64,
    pub y: f64,
    pub px: f64,
    pub py: f64,
    pub horizontal: bool,
}

/// Every point a reader can land on, in series order: each drawable point,
/// and a horizontal reference once (at the middle of the plot). Series whose
/// name starts with one of `skip` (fitted guides, not measurements) are left out.
pub fn readable_points(
    spec: &ChartSpec,
    layout: &ChartLayout,
    skip: &[String],
) -> Vec<ReadablePoint> {
    let mut out = Vec::new();
    for (si, s) in spec.series.iter().enumerate() {
        if skip
            .iter()
            .any(|p| !p.is_empty() && s.name.starts_with(p.as_str()))
        {
            continue;
        }
        if s.horizontal {
            let Some(&(_, y)) = s.points.first() else {
                continue;
            };
            let mid_x = if layout.log_x {
                10f64.powf(0.5 * (layout.x_min + layout.x_max))
            } else {
                0.5 * (layout.x_min + layout.x_max)
            };
            if let Some((_, py)) = layout.to_pixel(mid_x, y) {
                out.push(ReadablePoint {
                    series: si,
                    name: s.name.clone(),
                    x: f64::NAN,
                    y,
                    px: 0.5 * (layout.left + layout.right) as f64,
                    py,
                    horizontal: true,
                });
            }
            continue;
        }
        for &(x, y) in &s.points {
            if let Some((px, py)) = layout.to_pixel(x, y) {
                out.push(ReadablePoint {
                    series: si,
                    name: s.name.clone(),
                    x,
                    y,
                    px,
                    py,
                    horizontal: false,
                });
            }
        }
    }
    out
}

fn listed() -> bool {
    true
}
