//! Draws a [`ChartSpec`] on any plotters backend. The browser passes a
//! `CanvasBackend`, the CLI and the tests an `SVGBackend`: one chart code.
//!
//! Log axes are drawn by plotting log10 of the values on a linear axis and
//! labelling ticks as powers of ten; this keeps one code path for every
//! combination of linear and log axes.

use super::spec::{ChartLayout, ChartSpec, LineStyle, Series};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Colour-blind-safe palette (Okabe–Ito) for the methods, then a ramp for
/// the ε lines (smallest ε first) whose neighbours differ in both hue and
/// lightness, so that every ε stays apart for colour-blind readers and in
/// print; every colour is dark enough to read on white.
const METHOD_COLORS: [RGBColor; 4] = [
    RGBColor(0, 114, 178), // blue: Private FedRep
    RGBColor(80, 80, 80),  // grey: non-private FedRep
    RGBColor(0, 158, 115), // green: local GD
    RGBColor(213, 94, 0),  // vermillion: Priv-AltMin
];
const RAMP: [RGBColor; 8] = [
    RGBColor(68, 1, 84),    // deep purple
    RGBColor(49, 104, 142), // blue
    RGBColor(31, 158, 137), // teal
    RGBColor(92, 170, 40),  // green
    RGBColor(181, 140, 0),  // mustard
    RGBColor(230, 97, 1),   // orange
    RGBColor(166, 54, 3),   // brown
    RGBColor(204, 68, 153), // magenta
];

pub fn color(index: usize) -> RGBColor {
    if index < METHOD_COLORS.len() {
        METHOD_COLORS[index]
    } else {
        RAMP[(index - METHOD_COLORS.len()) % RAMP.len()]
    }
}

#[derive(Debug, thiserror::Error)]
#[error("drawing failed: {0}")]
pub struct PlotError(pub String);

fn err<E: std::fmt::Debug>(e: E) -> PlotError {
    PlotError(format!("{e:?}"))
}

fn transform(v: f64, log: bool) -> Option<f64> {
    if !v.is_finite() {
        return None;
    }
    if log {
        (v > 0.0).then(|| v.log10())
    } else {
        Some(v)
    }
}

fn padded(lo: f64, hi: f64, log: bool) -> (f64, f64) {
    if !(lo.is_finite() && hi.is_finite()) {
        return (0.0, 1.0);
    }
    if hi - lo < 1e-12 {
        let w = if log { 0.5 } else { lo.abs().max(1.0) * 0.1 };
        return (lo - w, hi + w);
    }
    let pad = (hi - lo) * 0.06;
    (lo - pad, hi + pad)
}

/// At most this many tick labels on the x and y axes.
const X_LABELS: usize = 8;
const Y_LABELS: usize = 7;

/// A tick label in plain numbers where they are short (0.1, 0.032, 250),
/// powers of ten past them (1e-5, 3.2e6). `step`: about the distance between
/// two ticks of a linear axis (0 for a log axis), so that neighbours never
/// print the same (1.05 and 1.1 on an axis from 0.9 to 1.1, not "1.1" twice).
fn tick_label(v: f64, log: bool, step: f64) -> String {
    let x = if log { 10f64.powf(v) } else { v };
    if x == 0.0 || (!log && v.abs() < step.abs().max(1e-12) * 1e-6) {
        return "0".into();
    }
    let a = x.abs();
    if !(1e-3..1e5).contains(&a) {
        let s = format!("{x:.1e}");
        return match s.split_once('e') {
            Some((m, e)) => format!("{}e{e}", m.trim_end_matches('0').trim_end_matches('.')),
            None => s,
        };
    }
    // Two significant digits, and as many decimals as the step needs; no
    // trailing zeros.
    let mut digits = (1 - a.log10().floor() as i32).max(0);
    if !log && step > 0.0 && step.is_finite() {
        digits = digits.max((-step.log10().floor() as i32).clamp(0, 12));
    }
    let digits = digits as usize;
    let s = format!("{x:.digits$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Three segments (start, end) across a legend sample `width` pixels long
/// that draw `style`: touching for solid, two dashes, three dots.
fn legend_pieces(style: LineStyle, width: i32) -> [(i32, i32); 3] {
    let at = |f: f64| (f * width as f64).round() as i32;
    match style {
        LineStyle::Solid => [(0, at(0.34)), (at(0.33), at(0.67)), (at(0.66), width)],
        LineStyle::Dashed => [(0, at(0.4)), (at(0.6), width), (at(0.6), width)],
        LineStyle::Dotted => [(0, at(0.1)), (at(0.45), at(0.55)), (at(0.9), width)],
    }
}

/// The legend's items laid out in rows below the plot: (row, x offset) of
/// each, and the rows' count. Items flow left to right and wrap, so the
/// legend never covers a curve and fits a phone.
fn legend_rows(
    widths: &[i32],
    sample: i32,
    gap: i32,
    available: i32,
) -> (Vec<(usize, i32)>, usize) {
    let mut places = Vec::with_capacity(widths.len());
    let (mut row, mut x) = (0, 0);
    for &w in widths {
        let item = sample + gap / 2 + w;
        if x > 0 && x + item > available {
            row += 1;
            x = 0;
        }
        places.push((row, x));
        x += item + gap;
    }
    (places, if widths.is_empty() { 0 } else { row + 1 })
}

/// Sizes in pixels and fonts at a drawing's `scale`.
#[derive(Clone, Copy)]
struct Scale(f64);

impl Scale {
    fn px(self, v: f64) -> u32 {
        (v * self.0).round().max(1.0) as u32
    }

    fn font(self, size: f64) -> FontDesc<'static> {
        ("sans-serif", size * self.0).into_font()
    }
}

/// The legend below the plot area: its series, where each sits (row, x), its
/// text widths and its height, and the sizes of its pieces.
struct Legend<'a> {
    series: Vec<&'a Series>,
    places: Vec<(usize, i32)>,
    text_widths: Vec<i32>,
    height: i32,
    sample: i32,
    gap: i32,
    row_h: i32,
    pad: i32,
}

impl<'a> Legend<'a> {
    /// Lays out the legend of `spec` on `root`, in as many rows as it needs but
    /// never more than half the height.
    fn new<DB: DrawingBackend>(
        root: &DrawingArea<DB, Shift>,
        spec: &'a ChartSpec,
        scale: Scale,
    ) -> Result<Self, PlotError> {
        let px = |v: f64| scale.px(v);
        let series: Vec<&Series> = spec
            .series
            .iter()
            .filter(|s| s.in_legend && !s.points.is_empty())
            .collect();
        let (width, height) = root.dim_in_pixel();
        let (sample, gap, row_h) = (2 * px(10.0) as i32, px(18.0) as i32, px(19.0) as i32);
        let pad = px(12.0) as i32;
        let mut text_widths = Vec::with_capacity(series.len());
        for s in &series {
            let (w, _) = root
                .estimate_text_size(&s.name, &TextStyle::from(scale.font(12.0)))
                .map_err(err)?;
            text_widths.push(w as i32);
        }
        let (places, rows) = legend_rows(&text_widths, sample, gap, width as i32 - 2 * pad);
        // Never more than half the height: a legend that long is cut, not the plot.
        let height = if rows == 0 {
            0
        } else {
            (rows as i32 * row_h + pad).min(height as i32 / 2)
        };
        Ok(Legend {
            series,
            places,
            text_widths,
            height,
            sample,
            gap,
            row_h,
            pad,
        })
    }

    /// Each entry: a sample of its line, in its own style, and its name.
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        scale: Scale,
    ) -> Result<(), PlotError> {
        let (sample, gap, row_h, pad) = (self.sample, self.gap, self.row_h, self.pad);
        for ((s, &(row, x)), _) in self.series.iter().zip(&self.places).zip(&self.text_widths) {
            let y = row as i32 * row_h + row_h / 2;
            if y + row_h / 2 > self.height {
                break;
            }
            let c = if s.faded {
                faded(color(s.color))
            } else {
                color(s.color)
            };
            let style =
                ShapeStyle::from(&c).stroke_width(scale.px(if s.style == LineStyle::Solid {
                    2.2
                } else {
                    1.8
                }));
            // Each sample in its line's own style, so a dashed reference or a
            // dotted guide is not mistaken for a solid curve of the same colour.
            for (a, b) in legend_pieces(s.style, sample) {
                root.draw(&PathElement::new(
                    vec![(pad + x + a, y), (pad + x + b, y)],
                    style,
                ))
                .map_err(err)?;
            }
            root.draw(&Text::new(
                s.name.clone(),
                (pad + x + sample + gap / 2, y),
                scale
                    .font(12.0)
                    .color(&RGBColor(30, 30, 30))
                    .pos(Pos::new(HPos::Left, VPos::Center)),
            ))
            .map_err(err)?;
        }
        Ok(())
    }
}

/// The ranges of the data in plotting coordinates (log10 on a log axis), padded:
/// ((x_lo, x_hi), (y_lo, y_hi)). A horizontal line does not widen x; bands widen y.
fn data_ranges(spec: &ChartSpec) -> ((f64, f64), (f64, f64)) {
    let (mut x_lo, mut x_hi) = spec
        .x_hint
        .map_or((f64::INFINITY, f64::NEG_INFINITY), |(a, b)| {
            (
                transform(a, spec.log_x).unwrap_or(f64::INFINITY),
                transform(b, spec.log_x).unwrap_or(f64::NEG_INFINITY),
            )
        });
    let (mut y_lo, mut y_hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for s in &spec.series {
        for &(x, y) in &s.points {
            if !s.horizontal {
                if let Some(tx) = transform(x, spec.log_x) {
                    x_lo = x_lo.min(tx);
                    x_hi = x_hi.max(tx);
                }
            }
            if let Some(ty) = transform(y, spec.log_y) {
                y_lo = y_lo.min(ty);
                y_hi = y_hi.max(ty);
            }
        }
        for &(_, lo, hi) in &s.band {
            for v in [lo, hi] {
                if let Some(ty) = transform(v, spec.log_y) {
                    y_lo = y_lo.min(ty);
                    y_hi = y_hi.max(ty);
                }
            }
        }
    }
    let x = padded(x_lo, x_hi, spec.log_x);
    let y = if y_lo.is_finite() {
        padded(y_lo, y_hi, spec.log_y)
    } else {
        (0.0, 1.0)
    };
    (x, y)
}

type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The series' bands, each a tinted polygon between its low and high edges.
fn draw_bands<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    spec: &ChartSpec,
) -> Result<(), PlotError> {
    for s in &spec.series {
        let band: Vec<(f64, f64, f64)> = s
            .band
            .iter()
            .filter_map(|&(x, lo, hi)| {
                Some((
                    transform(x, spec.log_x)?,
                    transform(lo, spec.log_y)?,
                    transform(hi, spec.log_y)?,
                ))
            })
            .collect();
        if band.len() < 2 {
            continue;
        }
        let outline: Vec<(f64, f64)> = band
            .iter()
            .map(|&(x, lo, _)| (x, lo))
            .chain(band.iter().rev().map(|&(x, _, hi)| (x, hi)))
            .collect();
        let tint = color(s.color).mix(if s.faded { 0.08 } else { 0.18 });
        chart
            .draw_series(std::iter::once(Polygon::new(outline, tint.filled())))
            .map_err(err)?;
    }
    Ok(())
}

/// The series' lines: solid with a marker at each point, dashed, or dotted; a
/// horizontal series across the x range (x_lo, x_hi).
fn draw_lines<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    spec: &ChartSpec,
    (x_lo, x_hi): (f64, f64),
    scale: Scale,
) -> Result<(), PlotError> {
    let px = |v: f64| scale.px(v);
    for s in &spec.series {
        let c = if s.faded {
            faded(color(s.color))
        } else {
            color(s.color)
        };
        let width = px(if s.style == LineStyle::Solid {
            2.2
        } else {
            1.8
        });
        let style = ShapeStyle::from(&c).stroke_width(width);
        let pts: Vec<(f64, f64)> = if s.horizontal {
            match s.points.first().and_then(|p| transform(p.1, spec.log_y)) {
                Some(y) => vec![(x_lo, y), (x_hi, y)],
                None => continue,
            }
        } else {
            s.points
                .iter()
                .filter_map(|&(x, y)| Some((transform(x, spec.log_x)?, transform(y, spec.log_y)?)))
                .collect()
        };
        if pts.is_empty() {
            continue;
        }
        match s.style {
            LineStyle::Solid => {
                chart
                    .draw_series(pts.iter().map(|&p| Circle::new(p, px(3.5), c.filled())))
                    .map_err(err)?;
                chart
                    .draw_series(LineSeries::new(pts.clone(), style))
                    .map_err(err)?;
            }
            LineStyle::Dashed => {
                chart
                    .draw_series(DashedLineSeries::new(pts.clone(), px(8.0), px(5.0), style))
                    .map_err(err)?;
            }
            LineStyle::Dotted => {
                chart
                    .draw_series(DashedLineSeries::new(pts.clone(), px(2.0), px(4.0), style))
                    .map_err(err)?;
            }
        }
    }
    Ok(())
}

/// Draws `spec` filling `root` and returns where the plot area landed.
/// `scale` multiplies font sizes and line widths (1 for SVG, the device pixel
/// ratio on a HiDPI canvas, more for a projector).
pub fn draw_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    scale: f64,
) -> Result<ChartLayout, PlotError> {
    root.fill(&WHITE).map_err(err)?;
    let scale = Scale(scale);
    let px = |v: f64| scale.px(v);
    let font = |size: f64| scale.font(size);

    // The legend goes below the plot area, in as many rows as it needs.
    let legend = Legend::new(root, spec, scale)?;
    let (_, height) = root.dim_in_pixel();
    let (plot_root, legend_root) = root.split_vertically(height as i32 - legend.height);
    let root = &plot_root;

    // Data ranges in plotting coordinates.
    let ((x_lo, x_hi), (y_lo, y_hi)) = data_ranges(spec);

    let mut chart = ChartBuilder::on(root)
        .caption(&spec.title, font(17.0))
        .margin(px(12.0))
        .x_label_area_size(px(46.0))
        .y_label_area_size(px(70.0))
        .build_cartesian_2d(x_lo..x_hi, y_lo..y_hi)
        .map_err(err)?;
    let (log_x, log_y) = (spec.log_x, spec.log_y);
    let (px_x, px_y) = chart.plotting_area().get_pixel_range();
    let layout = ChartLayout {
        left: px_x.start,
        right: px_x.end,
        top: px_y.start,
        bottom: px_y.end,
        x_min: x_lo,
        x_max: x_hi,
        y_min: y_lo,
        y_max: y_hi,
        log_x,
        log_y,
    };
    // About the distance between two ticks of a linear axis (plotters picks
    // round steps for at most this many labels).
    let step = |lo: f64, hi: f64, log: bool, labels: usize| {
        if log {
            0.0
        } else {
            (hi - lo) / labels as f64
        }
    };
    let (x_step, y_step) = (
        step(x_lo, x_hi, log_x, X_LABELS),
        step(y_lo, y_hi, log_y, Y_LABELS),
    );
    chart
        .configure_mesh()
        .x_desc(&spec.x_label)
        .y_desc(&spec.y_label)
        .axis_desc_style(font(13.0))
        .label_style(font(12.0))
        .x_labels(X_LABELS)
        .y_labels(Y_LABELS)
        .x_label_formatter(&|v| tick_label(*v, log_x, x_step))
        .y_label_formatter(&|v| tick_label(*v, log_y, y_step))
        .max_light_lines(1)
        .light_line_style(RGBColor(240, 240, 240))
        .bold_line_style(RGBColor(215, 215, 215))
        .draw()
        .map_err(err)?;

    if spec.series.is_empty() {
        root.draw(&Text::new(
            "waiting for results…",
            (px(90.0) as i32, px(60.0) as i32),
            font(14.0).color(&RGBColor(110, 110, 110)),
        ))
        .map_err(err)?;
    }

    // Bands first, so that every line stays visible on top of them.
    draw_bands(&mut chart, spec)?;
    draw_lines(&mut chart, spec, (x_lo, x_hi), scale)?;
    legend.draw(&legend_root, scale)?;
    root.present().map_err(err)?;
    Ok(layout)
}

/// A lighter tint of `c` (mixed 55 % towards white), opaque so that SVG and
/// canvas look the same.
fn faded(c: RGBColor) -> RGBColor {
    let f = |v: u8| (v as f64 + (255.0 - v as f64) * 0.55).round() as u8;
    RGBColor(f(c.0), f(c.1), f(c.2))
}

/// The chart as an SVG document (CLI, exports, snapshot tests).
pub fn chart_svg(spec: &ChartSpec, width: u32, height: u32) -> Result<String, PlotError> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
        draw_chart(&root, spec, 1.0)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legend_samples_are_solid_dashed_or_dotted_like_their_lines() {
        // Solid: the pieces touch; dashed and dotted: gaps between them.
        let gaps = |style| {
            let p = legend_pieces(style, 20);
            (p[1].0 > p[0].1, p[2].0 > p[1].1 || p[2] == p[1])
        };
        assert_eq!(gaps(LineStyle::Solid), (false, false));
        assert_eq!(gaps(LineStyle::Dashed), (true, true));
        assert_eq!(gaps(LineStyle::Dotted), (true, true));
        assert_eq!(legend_pieces(LineStyle::Dotted, 20)[2].1, 20);
    }

    #[test]
    fn the_legend_wraps_into_rows_below_the_plot() {
        // Three items of 100 px text with 20 px samples and 18 px gaps: two fit
        // in 300 px, the third starts a second row.
        let (places, rows) = legend_rows(&[100, 100, 100], 20, 18, 300);
        assert_eq!(rows, 2);
        assert_eq!(places, vec![(0, 0), (0, 147), (1, 0)]);
        assert_eq!(legend_rows(&[], 20, 18, 300).1, 0);
        // The plot area ends above the legend.
        let mut out = String::new();
        let layout = {
            let root = SVGBackend::with_string(&mut out, (640, 400)).into_drawing_area();
            draw_chart(&root, &spec(), 1.0).unwrap()
        };
        assert!(layout.bottom < 400 - 19, "{layout:?}");
    }

    #[test]
    fn tick_labels_are_plain_numbers_where_short() {
        assert_eq!(tick_label(-1.0, true, 0.0), "0.1");
        assert_eq!(tick_label(0.032f64.log10(), true, 0.0), "0.032");
        assert_eq!(tick_label(0.0, true, 0.0), "1");
        assert_eq!(tick_label(1.3f64.log10(), true, 0.0), "1.3");
        assert_eq!(tick_label(-5.0, true, 0.0), "1e-5");
        assert_eq!(tick_label(250.0, false, 40.0), "250");
        assert_eq!(tick_label(0.5, false, 0.1), "0.5");
        assert_eq!(tick_label(0.0, false, 0.1), "0");
        assert_eq!(tick_label(2e6, false, 3e5), "2e6");
    }

    #[test]
    fn neighbouring_ticks_of_a_narrow_linear_axis_print_differently() {
        // An axis from 0.88 to 1.12 with 7 labels: plotters steps by 0.05.
        let step = (1.12 - 0.88) / Y_LABELS as f64;
        let labels: Vec<String> = [0.9, 0.95, 1.0, 1.05, 1.1]
            .iter()
            .map(|&v| tick_label(v, false, step))
            .collect();
        assert_eq!(labels, ["0.9", "0.95", "1", "1.05", "1.1"]);
        // A wide axis keeps short labels.
        assert_eq!(tick_label(1.0, false, 0.3), "1");
        assert_eq!(tick_label(1.5, false, 0.3), "1.5");
    }

    use crate::plot::Series;

    fn spec() -> ChartSpec {
        ChartSpec {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            log_x: false,
            log_y: true,
            x_hint: Some((1.0, 8.0)),
            series: vec![
                Series {
                    name: "private".into(),
                    points: vec![(1.0, 0.1), (2.0, 0.01), (8.0, 0.001)],
                    style: LineStyle::Solid,
                    color: 0,
                    horizontal: false,
                    band: Vec::new(),
                    faded: false,
                    in_legend: true,
                },
                Series {
                    name: "reference".into(),
                    points: vec![(f64::NAN, 0.0005)],
                    style: LineStyle::Dashed,
                    color: 1,
                    horizontal: true,
                    band: Vec::new(),
                    faded: false,
                    in_legend: true,
                },
            ],
        }
    }

    #[test]
    fn an_svg_chart_contains_its_title_legend_and_lines() {
        let svg = chart_svg(&spec(), 640, 400).unwrap();
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("\nprivate\n") && svg.contains("\nreference\n"));
        assert!(
            svg.matches("<polyline").count() >= 2,
            "{}",
            svg.matches("<polyline").count()
        );
        assert!(
            svg.contains(">0.001<") || svg.contains("\n0.001\n"),
            "plain tick labels"
        );
    }

    #[test]
    fn a_band_is_drawn_as_a_translucent_area_under_its_line() {
        let mut s = spec();
        let plain = chart_svg(&s, 640, 400).unwrap();
        assert!(!plain.contains("<polygon"));
        s.series[0].band = vec![(1.0, 0.05, 0.2), (2.0, 0.005, 0.02), (8.0, 0.0005, 0.002)];
        let svg = chart_svg(&s, 640, 400).unwrap();
        let polygons: Vec<&str> = svg
            .match_indices("<polygon")
            .map(|(i, _)| &svg[i..])
            .collect();
        assert_eq!(polygons.len(), 1, "one band");
        let band = &polygons[0][..polygons[0].find("/>").unwrap()];
        assert!(band.contains("fill=\"#0072B2\""), "{band}");
        assert!(band.contains("opacity=\"0.18"), "{band}");
        // Six corners: three lows there, three highs back.
        let points = band
            .split("points=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        assert_eq!(points.split_whitespace().count(), 6, "{points}");
        // The band comes before the line, so the line is drawn on top.
        let line = svg.find("<polyline fill=\"none\" opacity=\"1\" stroke=\"#0072B2\"");
        assert!(svg.find("<polygon").unwrap() < line.expect("the line"));
        // The band widens the y range: the axis now reaches 2e-1.
        let layout = {
            let mut out = String::new();
            let root = SVGBackend::with_string(&mut out, (640, 400)).into_drawing_area();
            draw_chart(&root, &s, 1.0).unwrap()
        };
        assert!(layout.y_max >= 0.2f64.log10(), "{layout:?}");
    }

    #[test]
    fn the_layout_maps_data_to_the_pixels_where_points_are_drawn() {
        let mut out = String::new();
        let layout = {
            let root = SVGBackend::with_string(&mut out, (640, 400)).into_drawing_area();
            draw_chart(&root, &spec(), 1.0).unwrap()
        };
        assert!(layout.log_y && !layout.log_x);
        assert!(0 < layout.left && layout.left < layout.right && layout.right <= 640);
        assert!(0 < layout.top && layout.top < layout.bottom && layout.bottom <= 400);
        // The marker of (2, 0.01) is a circle centred at the mapped pixel.
        let (x, y) = layout.to_pixel(2.0, 0.01).unwrap();
        let want = format!("cx=\"{}\" cy=\"{}\"", x.round(), y.round());
        let near = out.contains(&want)
            || (-1..=1).any(|dx| {
                (-1..=1).any(|dy| {
                    out.contains(&format!(
                        "cx=\"{}\" cy=\"{}\"",
                        x.round() as i32 + dx,
                        y.round() as i32 + dy
                    ))
                })
            });
        assert!(near, "no marker near {want}");
        assert!(
            layout.to_pixel(2.0, 0.0).is_none(),
            "0 is not on a log axis"
        );
    }

    #[test]
    fn a_faded_series_is_drawn_lighter() {
        let mut s = spec();
        s.series[0].faded = true;
        let svg = chart_svg(&s, 640, 400).unwrap();
        assert!(!svg.contains("stroke=\"#0072B2\""));
        assert!(svg.contains(&format!("stroke=\"#{:02X}{:02X}{:02X}\"", 140, 192, 220)));
    }

    #[test]
    fn an_empty_chart_says_it_is_waiting() {
        let mut s = spec();
        s.series.clear();
        assert!(chart_svg(&s, 300, 200)
            .unwrap()
            .contains("waiting for results"));
    }

    #[test]
    fn non_positive_values_on_a_log_axis_are_skipped_not_fatal() {
        let mut s = spec();
        s.series[0].points.push((9.0, 0.0));
        s.series[0].points.push((9.5, f64::NAN));
        assert!(chart_svg(&s, 300, 200).is_ok());
    }
}
