//! Draws a [`ChartSpec`] on any plotters backend. The browser passes a
//! `CanvasBackend`, the CLI and the tests an `SVGBackend`: one chart code.
//!
//! Log axes are drawn by plotting log10 of the values on a linear axis and
//! labelling ticks as powers of ten; this keeps one code path for every
//! combination of linear and log axes.

use super::spec::{ChartLayout, ChartSpec, LineStyle, Series, PIN_COLOR_BASE};
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

/// The pinned runs' colours (this project's extension: the page's pins), by pin:
/// none is a method's or a ramp's colour, all are dark on white (contrast
/// ≥ 4.5:1) and apart in lightness as well as hue; each pin also has its own
/// marker shape ([`Marker::of`]), so pins stay apart for colour-blind readers.
const PIN_COLORS: [RGBColor; 3] = [
    RGBColor(0, 0, 0),     // black
    RGBColor(136, 34, 85), // wine
    RGBColor(119, 119, 0), // olive
];

pub fn color(index: usize) -> RGBColor {
    if index >= PIN_COLOR_BASE {
        PIN_COLORS[(index - PIN_COLOR_BASE) % PIN_COLORS.len()]
    } else if index < METHOD_COLORS.len() {
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

/// Font sizes at scale 1 (CSS pixels on the page): the title, the axes'
/// names, the tick labels and the legend. The smallest, 13, is what a laptop
/// shows; the page's large text multiplies them all (`draw_chart`'s `scale`).
const TITLE_FONT: f64 = 18.0;
const AXIS_FONT: f64 = 14.0;
const TICK_FONT: f64 = 13.0;
const LEGEND_FONT: f64 = 13.0;

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

/// `text` cut with "…" to at most `max` pixels wide in `font` (whole if it fits).
fn fit_text<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    text: &str,
    font: &FontDesc<'static>,
    max: i32,
) -> Result<(String, i32), PlotError> {
    let style = TextStyle::from(font.clone());
    let width = |t: &str| -> Result<i32, PlotError> {
        Ok(root.estimate_text_size(t, &style).map_err(err)?.0 as i32)
    };
    let w = width(text)?;
    if w <= max {
        return Ok((text.to_string(), w));
    }
    let chars: Vec<char> = text.chars().collect();
    // The longest prefix that fits with its "…" (binary search on the count).
    let (mut lo, mut hi) = (0, chars.len());
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        let t: String = chars[..mid].iter().collect::<String>() + "…";
        if width(&t)? <= max {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let t: String = chars[..lo]
        .iter()
        .collect::<String>()
        .trim_end()
        .to_string()
        + "…";
    let w = width(&t)?;
    Ok((t, w))
}

/// The shape of a series' point markers: circles for the results shown, and
/// for each pinned run its own shape (this project's extension), so that a
/// pin stays apart from the live curves and from other pins without colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Marker {
    Circle,
    Square,
    Triangle,
    Diamond,
}

impl Marker {
    fn of(s: &Series) -> Marker {
        match pin_of(s) {
            None => Marker::Circle,
            Some(k) => [Marker::Square, Marker::Triangle, Marker::Diamond][k % 3],
        }
    }

    /// Draws the marker centred at pixel `at` of `area`, `r` pixels in radius.
    fn draw<DB: DrawingBackend>(
        self,
        area: &DrawingArea<DB, Shift>,
        at: (i32, i32),
        r: i32,
        c: &RGBColor,
    ) -> Result<(), PlotError> {
        let fill = c.filled();
        let e = EmptyElement::at(at);
        match self {
            Marker::Circle => area.draw(&(e + Circle::new((0, 0), r, fill))),
            Marker::Square => {
                let h = (r as f64 * 0.9).round() as i32;
                area.draw(&(e + Rectangle::new([(-h, -h), (h, h)], fill)))
            }
            Marker::Triangle => {
                let (w, t) = (
                    (r as f64 * 1.15).round() as i32,
                    (r as f64 * 1.25).round() as i32,
                );
                area.draw(&(e + Polygon::new(vec![(0, -t), (w, t * 3 / 4), (-w, t * 3 / 4)], fill)))
            }
            Marker::Diamond => {
                let d = (r as f64 * 1.3).round() as i32;
                area.draw(&(e + Polygon::new(vec![(0, -d), (d, 0), (0, d), (-d, 0)], fill)))
            }
        }
        .map_err(err)
    }
}

/// The pin a series belongs to (its colour index past [`PIN_COLOR_BASE`]), if any.
fn pin_of(s: &Series) -> Option<usize> {
    s.color.checked_sub(PIN_COLOR_BASE)
}

/// A series' colour as drawn (a faded series lighter).
fn series_color(s: &Series) -> RGBColor {
    if s.faded {
        faded(color(s.color))
    } else {
        color(s.color)
    }
}

/// Line widths at scale 1: measured curves thicker than references and guides.
fn line_width(s: &Series) -> f64 {
    if s.style == LineStyle::Solid {
        2.2
    } else {
        1.8
    }
}

/// The radius of a solid series' markers at scale 1.
const MARKER_RADIUS: f64 = 3.5;

/// A pinned run's entry in the legend: "pinned" and what follows it in its
/// series' name ("Private FedRep (pinned): n = 4000" gives "pinned: n = 4000"),
/// the same for every series of the pin.
fn pin_label(name: &str) -> String {
    match name.find("(pinned)") {
        Some(i) => format!("pinned{}", &name[i + "(pinned)".len()..]),
        None => "pinned run".to_string(),
    }
}

/// The legend's entries: each series shown (in the legend, with points), then
/// each pinned run once, drawn like its first solid curve and named by
/// [`pin_label`] (its curves share its colour and marker: one entry says it).
fn legend_entries(spec: &ChartSpec) -> Vec<(&Series, String)> {
    let listed = |s: &&Series| s.in_legend && !s.points.is_empty();
    let mut out: Vec<(&Series, String)> = spec
        .series
        .iter()
        .filter(|s| pin_of(s).is_none())
        .filter(listed)
        .map(|s| (s, s.name.clone()))
        .collect();
    let mut pins: Vec<usize> = Vec::new();
    for s in spec.series.iter().filter(listed) {
        if let Some(k) = pin_of(s) {
            if !pins.contains(&k) {
                pins.push(k);
            }
        }
    }
    for k in pins {
        let of_pin = || {
            spec.series
                .iter()
                .filter(listed)
                .filter(move |s| pin_of(s) == Some(k))
        };
        let sample = of_pin()
            .find(|s| s.style == LineStyle::Solid)
            .or_else(|| of_pin().next());
        if let Some(s) = sample {
            out.push((s, pin_label(&s.name)));
        }
    }
    out
}

/// The legend below the plot area: its entries (a series to draw the sample
/// like, and a text cut to the width), where each sits (row, x), its height,
/// and the sizes of its pieces.
struct Legend<'a> {
    entries: Vec<(&'a Series, String)>,
    places: Vec<(usize, i32)>,
    height: i32,
    sample: i32,
    gap: i32,
    row_h: i32,
    pad: i32,
}

impl<'a> Legend<'a> {
    /// Lays out the legend of `spec` on `root`, in as many rows as it needs but
    /// never more than half the height; a name wider than the chart is cut.
    fn new<DB: DrawingBackend>(
        root: &DrawingArea<DB, Shift>,
        spec: &'a ChartSpec,
        scale: Scale,
    ) -> Result<Self, PlotError> {
        let px = |v: f64| scale.px(v);
        let (width, height) = root.dim_in_pixel();
        let (sample, gap, row_h) = (2 * px(12.0) as i32, px(18.0) as i32, px(20.0) as i32);
        let pad = px(12.0) as i32;
        let available = width as i32 - 2 * pad;
        let font = scale.font(LEGEND_FONT);
        let mut entries = Vec::new();
        let mut text_widths = Vec::new();
        for (s, name) in legend_entries(spec) {
            let (t, w) = fit_text(root, &name, &font, available - sample - gap / 2)?;
            entries.push((s, t));
            text_widths.push(w);
        }
        let (places, rows) = legend_rows(&text_widths, sample, gap, available);
        // Never more than half the height: a legend that long is cut, not the plot.
        let height = if rows == 0 {
            0
        } else {
            (rows as i32 * row_h + pad).min(height as i32 / 2)
        };
        Ok(Legend {
            entries,
            places,
            height,
            sample,
            gap,
            row_h,
            pad,
        })
    }

    /// Each entry: a sample of its line, in its own style and with its
    /// marker, and its name.
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        scale: Scale,
    ) -> Result<(), PlotError> {
        let (sample, gap, row_h, pad) = (self.sample, self.gap, self.row_h, self.pad);
        for ((s, text), &(row, x)) in self.entries.iter().zip(&self.places) {
            let y = row as i32 * row_h + row_h / 2;
            if y + row_h / 2 > self.height {
                break;
            }
            let c = series_color(s);
            let style = ShapeStyle::from(&c).stroke_width(scale.px(line_width(s)));
            // Each sample in its line's own style, so a dashed reference or a
            // dotted guide is not mistaken for a solid curve of the same colour.
            for (a, b) in legend_pieces(s.style, sample) {
                root.draw(&PathElement::new(
                    vec![(pad + x + a, y), (pad + x + b, y)],
                    style,
                ))
                .map_err(err)?;
            }
            if s.style == LineStyle::Solid {
                let r = scale.px(MARKER_RADIUS) as i32;
                Marker::of(s).draw(root, (pad + x + sample / 2, y), r, &c)?;
            }
            root.draw(&Text::new(
                text.clone(),
                (pad + x + sample + gap / 2, y),
                scale
                    .font(LEGEND_FONT)
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
    root: &DrawingArea<DB, Shift>,
    chart: &mut Chart<'_, DB>,
    spec: &ChartSpec,
    (x_lo, x_hi): (f64, f64),
    scale: Scale,
) -> Result<(), PlotError> {
    let px = |v: f64| scale.px(v);
    for s in &spec.series {
        let c = series_color(s);
        let style = ShapeStyle::from(&c).stroke_width(px(line_width(s)));
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
                let marker = Marker::of(s);
                if marker == Marker::Circle {
                    chart
                        .draw_series(
                            pts.iter()
                                .map(|&p| Circle::new(p, px(MARKER_RADIUS), c.filled())),
                        )
                        .map_err(err)?;
                } else {
                    // A pin's own shape, at the pixel of each point.
                    let area = chart.plotting_area();
                    for p in &pts {
                        let at = area.map_coordinate(p);
                        marker.draw(root, at, px(MARKER_RADIUS) as i32, &c)?;
                    }
                }
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

    // The title at its size if it fits the width, else smaller down to the
    // tick labels' size, else cut with "…" (the caption and the alt text
    // under the chart say it whole).
    let margin = px(12.0) as i32;
    let (width, _) = root.dim_in_pixel();
    let available = width as i32 - 2 * margin;
    let title_size = {
        let (w, _) = root
            .estimate_text_size(&spec.title, &TextStyle::from(font(TITLE_FONT)))
            .map_err(err)?;
        if w as i32 <= available || w == 0 {
            TITLE_FONT
        } else {
            (TITLE_FONT * available as f64 / w as f64).max(TICK_FONT)
        }
    };
    let (title, _) = fit_text(root, &spec.title, &font(title_size), available)?;

    let mut chart = ChartBuilder::on(root)
        .caption(&title, font(title_size))
        .margin(margin as u32)
        .x_label_area_size(px(48.0))
        .y_label_area_size(px(72.0))
        .build_cartesian_2d(x_lo..x_hi, y_lo..y_hi)
        .map_err(err)?;
    let (log_x, log_y) = (spec.log_x, spec.log_y);
    let (px_x, px_y) = chart.plotting_area().get_pixel_range();
    // The smallest text drawn, in backend pixels: what a reader's eye has to
    // resolve (the page checks it against its minimum for large text).
    let mut sizes = vec![title_size, AXIS_FONT, TICK_FONT];
    if !legend.entries.is_empty() {
        sizes.push(LEGEND_FONT);
    }
    let min_font_px = sizes
        .into_iter()
        .map(|size| font(size).get_size())
        .fold(f64::INFINITY, f64::min);
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
        min_font_px,
    };
    // As many tick labels as fit without touching: a label as wide as a
    // long one ("0.0032") plus an em apart on x, two lines apart
    // on y; at most X_LABELS and Y_LABELS, at least two.
    let tick_font = font(TICK_FONT);
    let (label_w, _) = root
        .estimate_text_size("0.0032", &TextStyle::from(tick_font.clone()))
        .map_err(err)?;
    let per_x = label_w as f64 + tick_font.get_size() * 1.2;
    let per_y = tick_font.get_size() * 2.0;
    let fit = |pixels: i32, per: f64, most: usize| {
        ((pixels.max(0) as f64 / per.max(1.0)).floor() as usize).clamp(2, most)
    };
    let x_labels = fit(px_x.end - px_x.start, per_x, X_LABELS);
    let y_labels = fit(px_y.end - px_y.start, per_y, Y_LABELS);
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
        step(x_lo, x_hi, log_x, x_labels),
        step(y_lo, y_hi, log_y, y_labels),
    );
    chart
        .configure_mesh()
        .x_desc(&spec.x_label)
        .y_desc(&spec.y_label)
        .axis_desc_style(font(AXIS_FONT))
        .label_style(tick_font)
        .x_labels(x_labels)
        .y_labels(y_labels)
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
    draw_lines(root, &mut chart, spec, (x_lo, x_hi), scale)?;
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

    /// The texts of an SVG chart that are not rotated, each as its content and
    /// its box (x0, y0, x1, y1) as the page's canvas draws it, from the
    /// position, anchor and font size plotters writes (an average glyph 0.55
    /// em wide).
    fn text_boxes(svg: &str) -> Vec<(String, [f64; 4])> {
        let attr = |tag: &str, name: &str| -> Option<String> {
            let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
            Some(tag[at..].split('"').next()?.to_string())
        };
        let mut out = Vec::new();
        for piece in svg.split("<text ").skip(1) {
            let (tag, rest) = piece.split_once('>').unwrap();
            let tag = &format!(" {tag}");
            if tag.contains("transform=") {
                continue;
            }
            let text = rest.split("</text>").next().unwrap().trim().to_string();
            let num = |n: &str| attr(tag, n).unwrap().parse::<f64>().unwrap();
            // plotters writes an SVG font 1.24 times smaller than the canvas
            // draws it: the boxes are the canvas's.
            let (x, y, size) = (num("x"), num("y"), num("font-size") * 1.24);
            let w = 0.55 * size * text.chars().count() as f64;
            let x0 = match attr(tag, "text-anchor").as_deref() {
                Some("middle") => x - w / 2.0,
                Some("end") => x - w,
                _ => x,
            };
            let y0 = match attr(tag, "dy").as_deref() {
                Some("0.76em") => y,
                Some("0.5ex") => y - size / 2.0,
                _ => y - size,
            };
            out.push((text, [x0, y0, x0 + w, y0 + size]));
        }
        out
    }

    /// A chart like the page's risk chart: a log y axis of small values, long
    /// x tick labels and a legend of six entries.
    fn busy_spec() -> ChartSpec {
        let mut s = spec();
        for (i, name) in [
            "Priv-AltMin",
            "local GD",
            "theory guide: A/(nε)² + floor (fitted)",
            "non-private",
        ]
        .iter()
        .enumerate()
        {
            s.series.push(Series::line(
                *name,
                vec![(1.0, 0.3 / (i + 1) as f64), (4.0, 0.003), (8.0, 0.0004)],
                LineStyle::Solid,
                i + 2,
            ));
        }
        // x in thousandths: tick labels as long as "0.0035".
        s.x_hint = None;
        for series in &mut s.series {
            for p in &mut series.points {
                p.0 *= 0.000988;
            }
        }
        s.x_label = "user-level ε".into();
        s.y_label = "excess risk (mean over users)".into();
        s.title = "Excess population risk versus ε".into();
        s
    }

    #[test]
    fn no_two_texts_overlap_on_a_phone_a_laptop_or_a_projector() {
        // (width, height, scale): a phone's chart at 2 device pixels per CSS
        // px, a laptop's, a projector's with large text, and a narrow chart
        // with large text.
        for (w, h, scale) in [
            (742, 720, 2.0),
            (886, 323, 1.0),
            (1828, 756, 2.19),
            (700, 670, 2.19),
        ] {
            let mut out = String::new();
            {
                let root = SVGBackend::with_string(&mut out, (w, h)).into_drawing_area();
                draw_chart(&root, &busy_spec(), scale).unwrap();
            }
            let boxes = text_boxes(&out);
            assert!(boxes.len() > 10, "{w}×{h}: {} texts", boxes.len());
            for (i, (a, p)) in boxes.iter().enumerate() {
                for (b, q) in &boxes[i + 1..] {
                    let apart = p[2] <= q[0] || q[2] <= p[0] || p[3] <= q[1] || q[3] <= p[1];
                    assert!(
                        apart,
                        "{w}×{h} at {scale}: {a:?} {p:?} overlaps {b:?} {q:?}"
                    );
                }
                assert!(
                    p[0] >= 0.0 && p[2] <= w as f64,
                    "{w}×{h}: {a:?} {p:?} leaves the chart"
                );
            }
        }
    }

    #[test]
    fn the_smallest_text_grows_with_the_scale() {
        let layout = |scale: f64| {
            let mut out = String::new();
            let root = SVGBackend::with_string(&mut out, (1800, 750)).into_drawing_area();
            draw_chart(&root, &busy_spec(), scale).unwrap()
        };
        assert_eq!(layout(1.0).min_font_px, TICK_FONT);
        // The page's large text on a projector: 13 × 2.19 ≥ 28.
        assert!((layout(2.19).min_font_px - 13.0 * 2.19).abs() < 1e-9);
        // A title too wide for a narrow chart shrinks, but never below the ticks.
        let mut out = String::new();
        let root = SVGBackend::with_string(&mut out, (260, 300)).into_drawing_area();
        assert_eq!(
            draw_chart(&root, &busy_spec(), 1.0).unwrap().min_font_px,
            TICK_FONT
        );
    }

    #[test]
    fn a_pinned_run_is_solid_in_its_own_colour_and_listed_once_after_the_live_series() {
        let mut s = spec();
        let live = s.series.clone();
        for (k, n) in [(0, 4000), (1, 8000)] {
            for l in &live {
                let mut p = l.clone();
                p.name = format!("{} (pinned): n = {n}", l.name);
                p.color = PIN_COLOR_BASE + k;
                p.points = p.points.iter().map(|&(x, y)| (x, y * 2.0)).collect();
                s.series.insert(0, p);
            }
        }
        let svg = chart_svg(&s, 900, 500).unwrap();
        // One legend entry per pin, after the live series.
        assert_eq!(svg.matches("\npinned: n = 4000\n").count(), 1);
        assert_eq!(svg.matches("\npinned: n = 8000\n").count(), 1);
        assert!(!svg.contains("\nprivate (pinned)"));
        assert!(svg.find("\nprivate\n").unwrap() < svg.find("\npinned: n = 4000\n").unwrap());
        // Solid lines in the pins' colours (black, wine), never a pale tint,
        // with square and triangle markers; the reference keeps its dashes.
        for c in ["#000000", "#882255"] {
            assert!(
                svg.contains(&format!(
                    "<polyline fill=\"none\" opacity=\"1\" stroke=\"{c}\""
                )),
                "{c}"
            );
        }
        assert!(svg.contains("<rect") && svg.contains("fill=\"#000000\""));
        assert!(
            svg.matches("<polygon").count() >= 3,
            "triangles of the second pin"
        );
        let live_colours: Vec<RGBColor> =
            (0..METHOD_COLORS.len() + RAMP.len()).map(color).collect();
        for k in 0..PIN_COLORS.len() {
            assert!(
                !live_colours.contains(&color(PIN_COLOR_BASE + k)),
                "pin {k}"
            );
        }
        assert_eq!(
            pin_label("private ε = 8 (pinned): n = 4000, clip = 5"),
            "pinned: n = 4000, clip = 5"
        );
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
