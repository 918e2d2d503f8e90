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
    /// Solid line without markers: a curve computed at many points (the
    /// accountant's trade-off curve), not measured at each.
    Line,
    /// A marker at each point and no line: points that are not one curve (an
    /// attack's rates). Its band, if any, is drawn as the box it spans,
    /// outlined (a confidence box: `(x_lo, y_lo, y_hi)` and `(x_hi, y_lo, y_hi)`).
    Markers,
}

/// The first colour index of the pinned runs (this project's extension: the
/// page draws an earlier run it keeps, solid in a colour no live series has).
/// The page (`www/chart-view.js`) writes the same number.
pub const PIN_COLOR_BASE: usize = 100;

/// One named curve: (x, y) points in increasing x.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    pub style: LineStyle,
    /// Index into the shared palette, so a method keeps its colour across charts.
    /// From [`PIN_COLOR_BASE`] on: the colours of the page's pinned runs
    /// (`PIN_COLOR_BASE + k` for pin k), drawn with their own marker shapes.
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

/// The points of a curve from result rows: for each distinct x of the rows
/// that `keep` picks, the mean of their y (over seeds, say), sorted by x.
pub fn mean_points<R>(
    rows: &[R],
    keep: impl Fn(&R) -> bool,
    x: impl Fn(&R) -> f64,
    y: impl Fn(&R) -> f64,
) -> Vec<(f64, f64)> {
    // (x, sum of y, count), in order of first appearance.
    let mut groups: Vec<(f64, f64, usize)> = Vec::new();
    for r in rows.iter().filter(|r| keep(r)) {
        let (x, y) = (x(r), y(r));
        match groups.iter_mut().find(|g| g.0 == x) {
            Some(g) => {
                g.1 += y;
                g.2 += 1;
            }
            None => groups.push((x, y, 1)),
        }
    }
    groups.sort_by(|a, b| a.0.total_cmp(&b.0));
    groups
        .into_iter()
        .map(|(x, sum, count)| (x, sum / count as f64))
        .collect()
}

/// The lowest and highest `y` of the rows that `keep`, grouped by `x` (in
/// increasing x), for the groups of two rows or more: the band of a mean over
/// seeds ([`mean_points`]); empty with one seed.
pub fn spread_points<R>(
    rows: &[R],
    keep: impl Fn(&R) -> bool,
    x: impl Fn(&R) -> f64,
    y: impl Fn(&R) -> f64,
) -> Vec<(f64, f64, f64)> {
    // (x, lowest, highest, count), in order of first appearance.
    let mut groups: Vec<(f64, f64, f64, usize)> = Vec::new();
    for r in rows.iter().filter(|r| keep(r)) {
        let (x, y) = (x(r), y(r));
        match groups.iter_mut().find(|g| g.0 == x) {
            Some(g) => {
                g.1 = g.1.min(y);
                g.2 = g.2.max(y);
                g.3 += 1;
            }
            None => groups.push((x, y, y, 1)),
        }
    }
    groups.sort_by(|a, b| a.0.total_cmp(&b.0));
    groups
        .into_iter()
        .filter(|g| g.3 > 1 && g.1.is_finite() && g.2.is_finite())
        .map(|(x, lo, hi, _)| (x, lo, hi))
        .collect()
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

impl ChartSpec {
    /// Every line's points (and band) in increasing x, as [`Series`] promises,
    /// whatever order the settings listed them in (a list setting typed
    /// "4,1,2", or one whose slider appended a value): the order is stable, so
    /// points at the same x keep theirs. A horizontal line is left as it is.
    pub fn in_x_order(mut self) -> Self {
        for s in self.series.iter_mut().filter(|s| !s.horizontal) {
            s.points.sort_by(|a, b| a.0.total_cmp(&b.0));
            s.band.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        self
    }

    /// A chart of `series` on linear axes with no x range hint: the
    /// scenarios' charts start here and name what differs ([`ChartSpec::log_x`],
    /// [`ChartSpec::log_y`], [`ChartSpec::x_hint`], [`ChartSpec::x_range_of`]),
    /// instead of spelling out every field, two of them bare booleans.
    pub fn new(
        title: impl Into<String>,
        x_label: impl Into<String>,
        y_label: impl Into<String>,
        series: Vec<Series>,
    ) -> Self {
        ChartSpec {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            log_x: false,
            log_y: false,
            x_hint: None,
            series,
        }
    }

    /// The x axis on a log scale.
    pub fn log_x(self) -> Self {
        ChartSpec {
            log_x: true,
            ..self
        }
    }

    /// The y axis on a log scale.
    pub fn log_y(self) -> Self {
        ChartSpec {
            log_y: true,
            ..self
        }
    }

    /// The x range to show before any data has arrived.
    pub fn x_hint(self, x_hint: Option<(f64, f64)>) -> Self {
        ChartSpec { x_hint, ..self }
    }

    /// The x range from the least to the largest of `values` (none when
    /// they hold no finite value): the grid a sweep will fill.
    pub fn x_range_of(self, values: impl IntoIterator<Item = f64>) -> Self {
        let (lo, hi) = values
            .into_iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                (lo.min(x), hi.max(x))
            });
        self.x_hint((lo.is_finite() && hi.is_finite()).then_some((lo, hi)))
    }

    /// Gives every horizontal series (a level across the chart, drawn from
    /// its one point) the x of `x`: a point on the chart's x axis, where a
    /// level made before the axis was known had none.
    pub fn levels_at(mut self, x: f64) -> Self {
        for s in self.series.iter_mut().filter(|s| s.horizontal) {
            for pt in s.points.iter_mut() {
                pt.0 = x;
            }
        }
        self
    }
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
    /// The smallest font drawn (backend pixels: device pixels on a HiDPI
    /// canvas), so that a page can check what a reader has to read.
    #[serde(default)]
    pub min_font_px: f64,
    /// The x axis's tick labels as drawn, as numbers (data units: "0.5" on a
    /// log axis is 0.5), left to right.
    #[serde(default)]
    pub x_ticks: Vec<f64>,
    /// The y axis's tick labels as drawn, as numbers, bottom to top.
    #[serde(default)]
    pub y_ticks: Vec<f64>,
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
                // A point above a range cut at the top (draw.rs `subject_top`) is read at the top edge.
                let py = py.max(layout.top as f64);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_chart_is_linear_without_a_hint_until_told() {
        let s = Series::line("a", vec![(1.0, 2.0)], LineStyle::Solid, 0);
        let c = ChartSpec::new("t", "x", "y", vec![s.clone()]);
        assert_eq!((c.log_x, c.log_y, c.x_hint), (false, false, None));
        assert_eq!((c.title.as_str(), c.x_label.as_str()), ("t", "x"));
        let c = c.log_y().x_hint(Some((0.0, 5.0)));
        assert_eq!(
            (c.log_x, c.log_y, c.x_hint),
            (false, true, Some((0.0, 5.0)))
        );
        assert_eq!(c.series, [s]);
    }

    #[test]
    fn the_x_range_skips_what_is_not_a_number() {
        let c = ChartSpec::new("t", "x", "y", Vec::new());
        let range = |v: &[f64]| c.clone().x_range_of(v.iter().copied()).x_hint;
        assert_eq!(range(&[3.0, f64::NAN, 0.5, 10.0]), Some((0.5, 10.0)));
        assert_eq!(range(&[2.0]), Some((2.0, 2.0)));
        assert_eq!(range(&[]), None);
        assert_eq!(range(&[f64::NAN]), None);
        assert_eq!(
            range(&[1.0, f64::INFINITY]),
            None,
            "an infinite end is no range"
        );
    }

    #[test]
    fn levels_at_moves_only_the_horizontal_series() {
        let curve = Series::line("c", vec![(1.0, 2.0), (3.0, 4.0)], LineStyle::Solid, 0);
        let level = Series {
            horizontal: true,
            ..Series::line("l", vec![(f64::NAN, 0.5)], LineStyle::Dashed, 1)
        };
        let c = ChartSpec::new("t", "x", "y", vec![curve.clone(), level]).levels_at(7.0);
        assert_eq!(c.series[0], curve);
        assert_eq!(c.series[1].points, [(7.0, 0.5)]);
    }

    #[test]
    fn mean_points_average_each_x_of_the_kept_rows_in_x_order() {
        // (x, y, kept)
        let rows = [
            (2.0, 1.0, true),
            (1.0, 5.0, true),
            (2.0, 3.0, true),
            (1.0, 100.0, false),
            (3.0, 4.0, true),
        ];
        let points = mean_points(&rows, |r| r.2, |r| r.0, |r| r.1);
        assert_eq!(points, [(1.0, 5.0), (2.0, 2.0), (3.0, 4.0)]);
        assert!(mean_points(&rows, |_| false, |r| r.0, |r| r.1).is_empty());
    }
}
