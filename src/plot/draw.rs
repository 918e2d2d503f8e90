//! Draws a [`ChartSpec`] on any plotters backend. The browser passes a
//! `CanvasBackend`, the CLI and the tests an `SVGBackend`: one chart code.
//!
//! Log axes are drawn by plotting log10 of the values on a linear axis; this
//! keeps one code path for every combination of linear and log axes. A log x
//! axis of a few distinct values (a sweep's ε) is labelled at those values
//! where they fit ([`data_ticks`]); other axes at plotters' round ticks.

use super::legend::{Legend, Place};
use super::spec::{ChartLayout, ChartSpec, LineStyle};
pub use super::style::PlotError;
use super::style::*;
use plotters::coord::ranged1d::{BoldPoints, DefaultFormatting, KeyPointHint, LightPoints, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

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
pub(crate) const X_LABELS: usize = 8;
pub(crate) const Y_LABELS: usize = 7;

/// A tick label in plain numbers where they are short (0.1, 0.032, 250),
/// powers of ten past them (1e-5, 3.2e6). `step`: about the distance between
/// two ticks of a linear axis (0 for a log axis), so that neighbours never
/// print the same (1.05 and 1.1 on an axis from 0.9 to 1.1, not "1.1" twice).
pub(crate) fn tick_label(v: f64, log: bool, step: f64) -> String {
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

/// At most this many distinct x values are labelled at the data on a log axis.
pub(crate) const DATA_TICKS: usize = 12;

/// A data value as a tick label: as few significant digits as say it (0.5,
/// 0.125, 1.5), two past that; the same forms as [`tick_label`].
pub(crate) fn value_label(x: f64) -> String {
    let a = x.abs();
    if x != 0.0 && (1e-3..1e5).contains(&a) {
        let lead = (1 - a.log10().floor() as i32).max(0);
        for extra in 0..=2 {
            let digits = (lead + extra) as usize;
            let s = format!("{x:.digits$}");
            if s.parse::<f64>().is_ok_and(|v| (v - x).abs() <= 1e-9 * a) {
                return if s.contains('.') {
                    s.trim_end_matches('0').trim_end_matches('.').to_string()
                } else {
                    s
                };
            }
        }
    }
    tick_label(x.log10(), true, 0.0)
}

/// The distinct x values of the spec's measured lines (solid, with a marker
/// at each point; every line where none is) and its hint's ends that a log
/// axis can show, in plotting coordinates (log10), increasing; None past
/// [`DATA_TICKS`] of them. A horizontal line's x is no data, nor a guide's
/// (a fitted curve drawn through many x).
pub(crate) fn data_xs(spec: &ChartSpec) -> Option<Vec<f64>> {
    let lines = || spec.series.iter().filter(|s| !s.horizontal);
    let measured = lines().any(|s| s.style == LineStyle::Solid);
    let mut xs: Vec<f64> = lines()
        .filter(|s| !measured || s.style == LineStyle::Solid)
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .chain(spec.x_hint.into_iter().flat_map(|(a, b)| [a, b]))
        .filter_map(|x| transform(x, true))
        .collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup_by(|a, b| (*a - *b).abs() < 1e-9);
    (xs.len() <= DATA_TICKS).then_some(xs)
}

/// Which of the labels at pixels `at` (centres, increasing) with widths
/// `widths` to draw so that no two are closer than `gap`: the first and the
/// last, then each between them that keeps clear of the ones kept before it
/// and of the last. Indices, increasing.
pub(crate) fn spaced_labels(at: &[f64], widths: &[f64], gap: f64) -> Vec<usize> {
    let n = at.len();
    if n <= 1 {
        return (0..n).collect();
    }
    let clear = |i: usize, j: usize| at[j] - at[i] >= (widths[i] + widths[j]) / 2.0 + gap;
    if !clear(0, n - 1) {
        return vec![0];
    }
    let mut kept = vec![0];
    for i in 1..n - 1 {
        if clear(*kept.last().unwrap(), i) && clear(i, n - 1) {
            kept.push(i);
        }
    }
    kept.push(n - 1);
    kept
}

/// The x ticks of a log axis at the data (plotting coordinates), those that
/// fit the plot's pixels `px_x` apart: None where fewer than three (or than
/// the data's distinct values, if two) would show, or the data has more than
/// [`DATA_TICKS`] values; the axis keeps its round ticks then.
fn data_ticks<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    (x_lo, x_hi): (f64, f64),
    px_x: &std::ops::Range<i32>,
    tick_font: &FontDesc,
) -> Result<Option<Vec<f64>>, PlotError> {
    if !spec.log_x {
        return Ok(None);
    }
    let Some(xs) = data_xs(spec) else {
        return Ok(None);
    };
    if xs.len() < 2 || x_hi <= x_lo {
        return Ok(None);
    }
    let style = TextStyle::from(tick_font.clone());
    let mut widths = Vec::with_capacity(xs.len());
    for &x in &xs {
        let (w, _) = root
            .estimate_text_size(&value_label(10f64.powf(x)), &style)
            .map_err(err)?;
        widths.push(w as f64);
    }
    let span = (px_x.end - px_x.start) as f64;
    let at: Vec<f64> = xs
        .iter()
        .map(|x| px_x.start as f64 + (x - x_lo) / (x_hi - x_lo) * span)
        .collect();
    let kept = spaced_labels(&at, &widths, tick_font.get_size());
    Ok((kept.len() >= xs.len().min(3)).then(|| kept.into_iter().map(|i| xs[i]).collect()))
}

/// A tick label as a number, as a reader reads it ("0.63", "1e-5").
fn as_read(label: &str, v: f64) -> f64 {
    label.parse().unwrap_or(v)
}

/// A linear axis whose ticks (bold) and grid lines between them (light) are
/// chosen beforehand: plotters' `WithKeyPoints` without its formatting rule,
/// so that the mesh can be configured with label formatters.
struct Ticked {
    inner: RangedCoordf64,
    bold: Vec<f64>,
    light: Vec<f64>,
}

impl Ranged for Ticked {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.light.clone()
        } else {
            self.bold.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.inner.range()
    }
}

type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<Ticked, RangedCoordf64>>;

/// What the series' passes (bands, lines, peaks) draw into: the plot's
/// ranges in plotting coordinates (log10 on a log axis), the top of y being
/// where a cut reference stops, and the scale of widths.
#[derive(Clone, Copy)]
struct Frame {
    x: (f64, f64),
    y: (f64, f64),
    scale: Scale,
}

/// The series' bands, each a tinted polygon between its low and high edges;
/// a band of markers (a confidence box) outlined too, and its ends at 0 on a
/// log axis drawn at the axis's edge (`(x_lo, y_lo)`: a rate whose interval
/// reaches 0 has its box reach the edge, where a curve's band would lose them).
fn draw_bands<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    spec: &ChartSpec,
    frame: Frame,
) -> Result<(), PlotError> {
    let ((x_lo, _), (y_lo, top)) = (frame.x, frame.y);
    for s in &spec.series {
        let boxed = s.style == LineStyle::Markers;
        let at = |v: f64, log: bool, edge: f64| match transform(v, log) {
            None if boxed && log && v == 0.0 => Some(edge),
            t => t,
        };
        let band: Vec<(f64, f64, f64)> = s
            .band
            .iter()
            .filter_map(|&(x, lo, hi)| {
                let (lo, hi) = (at(lo, spec.log_y, y_lo)?, at(hi, spec.log_y, y_lo)?);
                Some((at(x, spec.log_x, x_lo)?, lo.min(top), hi.min(top)))
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
        let mut closed = outline.clone();
        closed.push(outline[0]);
        chart
            .draw_series(std::iter::once(Polygon::new(outline, tint.filled())))
            .map_err(err)?;
        if boxed {
            let edge = ShapeStyle::from(&series_color(s)).stroke_width(frame.scale.px(1.2));
            chart
                .draw_series(std::iter::once(PathElement::new(closed, edge)))
                .map_err(err)?;
        }
    }
    Ok(())
}

/// The series' lines: solid with a marker at each point, dashed, or dotted; a
/// horizontal series across the x range (x_lo, x_hi).
fn draw_lines<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &mut Chart<'_, DB>,
    spec: &ChartSpec,
    frame: Frame,
) -> Result<(), PlotError> {
    let ((x_lo, x_hi), (_, top)) = (frame.x, frame.y);
    let px = |v: f64| frame.scale.px(v);
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
        if pts.is_empty() || (s.horizontal && pts[0].1 > top) {
            continue;
        }
        // Cut at the top of a range that leaves a reference's peak out.
        let pieces = below_top(&pts, top);
        let pts: Vec<(f64, f64)> = pts.into_iter().filter(|p| p.1 <= top).collect();
        // Markers first (a solid curve's and markers alone), then the line over them.
        if matches!(s.style, LineStyle::Solid | LineStyle::Markers) {
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
        }
        // (dash, gap) of a dashed or dotted line; none for a solid one.
        let dashes = match s.style {
            LineStyle::Markers => continue,
            LineStyle::Solid | LineStyle::Line => None,
            LineStyle::Dashed => Some((8.0, 5.0)),
            LineStyle::Dotted => Some((2.0, 4.0)),
        };
        for piece in &pieces {
            match dashes {
                None => chart.draw_series(LineSeries::new(piece.clone(), style)),
                Some((dash, gap)) => chart.draw_series(DashedLineSeries::new(
                    piece.clone(),
                    px(dash),
                    px(gap),
                    style,
                )),
            }
            .map_err(err)?;
        }
    }
    Ok(())
}

/// The title at its size if it fits `available` pixels, else smaller down to
/// the tick labels' size, else cut with "…" (the caption and the alt text
/// under the chart say it whole): the text drawn and its size at scale 1.
fn fitted_title<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    scale: Scale,
    available: i32,
) -> Result<(String, f64), PlotError> {
    let (w, _) = root
        .estimate_text_size(title, &TextStyle::from(scale.font(TITLE_FONT)))
        .map_err(err)?;
    let size = if w as i32 <= available || w == 0 {
        TITLE_FONT
    } else {
        (TITLE_FONT * available as f64 / w as f64).max(TICK_FONT)
    };
    let (text, _) = fit_text(root, title, &scale.font(size), available)?;
    Ok((text, size))
}

/// As many y tick labels as fit a plot `height` pixels tall without
/// touching (two lines apart): at most Y_LABELS, at least two.
fn y_tick_count(scale: Scale, height: i32) -> usize {
    let per_y = scale.font(TICK_FONT).get_size() * 2.0;
    ((height.max(0) as f64 / per_y.max(1.0)).floor() as usize).clamp(2, Y_LABELS)
}

/// The most round x ticks (at most X_LABELS, at least two) whose own labels,
/// the widest an em and a fifth apart, fit a plot `width` pixels across:
/// measured on the labels themselves ("2", "4" on an ε axis from 1 to 8), not
/// on a long one, so that large text keeps several ticks on a short axis.
fn x_tick_count<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    scale: Scale,
    width: i32,
    (lo, hi): (f64, f64),
    log: bool,
) -> Result<usize, PlotError> {
    let tick_font = scale.font(TICK_FONT);
    let style = TextStyle::from(tick_font.clone());
    let range = RangedCoordf64::from(lo..hi);
    for n in (3..=X_LABELS).rev() {
        let points = range.key_points(BoldPoints(n));
        let step = if log { 0.0 } else { (hi - lo) / n as f64 };
        let mut widest = 0u32;
        for &v in &points {
            let (w, _) = root
                .estimate_text_size(&tick_label(v, log, step), &style)
                .map_err(err)?;
            widest = widest.max(w);
        }
        let per = widest as f64 + tick_font.get_size() * 1.2;
        if points.len() as f64 * per <= width.max(0) as f64 {
            return Ok(n);
        }
    }
    Ok(2)
}

/// How much of the y axis the measured curves must fill before a reference
/// is cut: a reference whose top leaves them less than this share of the
/// axis is cut at the top, so that the curves the chart is about fill
/// [`SUBJECT_FILL`] of it.
pub(crate) const SUBJECT_SHARE: f64 = 1.0 / 3.0;
pub(crate) const SUBJECT_FILL: f64 = 0.75;

/// The top of the y range (plotting coordinates) that keeps the measured
/// curves readable, or None when the whole range does: a chart whose
/// reference curves (dashed, dotted or horizontal) rise so far above its
/// measured ones (solid: the subject, pinned runs included) that those would
/// take less than [`SUBJECT_SHARE`] of the axis `(lo, hi)` is cut above them.
/// The rule reads only the lines' styles, so any chart gets it.
pub(crate) fn subject_top(spec: &ChartSpec, (lo, hi): (f64, f64)) -> Option<f64> {
    let solid = |s: &&super::spec::Series| s.style == LineStyle::Solid && !s.horizontal;
    let mut top = f64::NEG_INFINITY;
    for s in spec.series.iter().filter(solid) {
        let band = s.band.iter().map(|b| b.2);
        for y in s.points.iter().map(|p| p.1).chain(band) {
            if let Some(t) = transform(y, spec.log_y) {
                top = top.max(t);
            }
        }
    }
    if !top.is_finite() || spec.series.iter().all(|s| solid(&s)) {
        return None;
    }
    let span = top - lo;
    if span <= 0.0 || span.is_nan() || span >= SUBJECT_SHARE * (hi - lo) {
        return None;
    }
    Some(lo + span / SUBJECT_FILL)
}

/// `pts` (plotting coordinates, in order) cut at y = `top`: the pieces of
/// the line below it, each ending where the line crosses it.
pub(crate) fn below_top(pts: &[(f64, f64)], top: f64) -> Vec<Vec<(f64, f64)>> {
    let mut pieces = Vec::new();
    let mut cur: Vec<(f64, f64)> = Vec::new();
    let cross = |a: (f64, f64), b: (f64, f64)| {
        let f = (top - a.1) / (b.1 - a.1);
        (a.0 + f * (b.0 - a.0), top)
    };
    for (i, &p) in pts.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| pts[j]);
        match (prev, p.1 <= top) {
            (Some(a), true) if a.1 > top => cur.push(cross(a, p)),
            (Some(a), false) if a.1 <= top => {
                cur.push(cross(a, p));
                pieces.push(std::mem::take(&mut cur));
            }
            _ => {}
        }
        if p.1 <= top {
            cur.push(p);
        }
    }
    if !cur.is_empty() {
        pieces.push(cur);
    }
    pieces
}

/// Each series cut at the top: "↑ 4624" (its peak) written under the top
/// edge above its highest point, in its colour.
fn draw_peaks<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &Chart<'_, DB>,
    spec: &ChartSpec,
    frame: Frame,
) -> Result<(), PlotError> {
    let (top, scale) = (frame.y.1, frame.scale);
    let area = chart.plotting_area();
    let (px_x, px_y) = area.get_pixel_range();
    let style = TextStyle::from(scale.font(TICK_FONT));
    for s in &spec.series {
        let peak = s
            .points
            .iter()
            .filter_map(|&(x, y)| Some((transform(x, spec.log_x)?, transform(y, spec.log_y)?, y)))
            .filter(|p| p.1 > top)
            .max_by(|a, b| a.1.total_cmp(&b.1));
        let Some((x, _, y)) = peak else { continue };
        let text = format!("↑ {}", value_label(y));
        let (w, _) = root.estimate_text_size(&text, &style).map_err(err)?;
        let at = area.map_coordinate(&(x, top)).0;
        let left =
            (at - w as i32 / 2).clamp(px_x.start + 2, (px_x.end - w as i32 - 2).max(px_x.start));
        root.draw(&Text::new(
            text,
            (left, px_y.start + scale.px(3.0) as i32),
            style.color(&series_color(s)),
        ))
        .map_err(err)?;
    }
    Ok(())
}

/// An axis's name that fits `available` pixels in `font`: whole, else
/// without its last parenthesis ("excess risk (mean over users)" gives
/// "excess risk"), else cut with "…".
fn fitted_label<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    label: &str,
    font: &FontDesc<'static>,
    available: i32,
) -> Result<String, PlotError> {
    let fits = |t: &str| -> Result<bool, PlotError> {
        let (w, _) = root
            .estimate_text_size(t, &TextStyle::from(font.clone()))
            .map_err(err)?;
        Ok(w as i32 <= available)
    };
    if fits(label)? {
        return Ok(label.to_string());
    }
    if let (Some(open), true) = (label.rfind(" ("), label.ends_with(')')) {
        let short = &label[..open];
        if !short.is_empty() && fits(short)? {
            return Ok(short.to_string());
        }
    }
    Ok(fit_text(root, label, font, available)?.0)
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

    // The legend below the plot, beside it or folded, so that the plot keeps
    // its share of the height (legend.rs); the title, margins and x axis take
    // `fixed` pixels of it.
    let margin = px(10.0) as i32;
    let x_area = px(42.0);
    let (_, title_h) = root
        .estimate_text_size("Ty", &TextStyle::from(font(TITLE_FONT)))
        .map_err(err)?;
    let title_block = title_h as i32 + 2 * (title_h as i32 / 2).min(5);
    let fixed = 2 * margin + title_block + x_area as i32;
    let legend = Legend::new(root, spec, scale, fixed, margin + title_block)?;
    let (width, height) = root.dim_in_pixel();
    let (plot_root, legend_root) = match legend.place {
        Place::Below => root.split_vertically(height as i32 - legend.height),
        Place::Beside => root.split_horizontally(width as i32 - legend.width),
    };
    let root = &plot_root;

    // Data ranges in plotting coordinates; a reference that dwarfs the
    // measured curves is cut at the top (`cut`: the new top).
    let ((x_lo, x_hi), (y_lo, y_full)) = data_ranges(spec);
    let cut = subject_top(spec, (y_lo, y_full));
    let y_hi = cut.unwrap_or(y_full);

    let (width, _) = root.dim_in_pixel();
    let (title, title_size) = fitted_title(root, &spec.title, scale, width as i32 - 2 * margin)?;

    // The plot area's pixels across (the title changes only its height):
    // where the x ticks go, chosen before the axes are built.
    let tick_font = font(TICK_FONT);
    let build = |builder: &mut ChartBuilder<'_, '_, DB>| {
        builder
            .margin(margin as u32)
            .x_label_area_size(x_area)
            .y_label_area_size(px(72.0));
    };
    let across = {
        let mut probe = ChartBuilder::on(root);
        build(&mut probe);
        let probe = probe
            .build_cartesian_2d(x_lo..x_hi, y_lo..y_hi)
            .map_err(err)?;
        probe.plotting_area().get_pixel_range().0
    };
    let x_labels = x_tick_count(
        root,
        scale,
        across.end - across.start,
        (x_lo, x_hi),
        spec.log_x,
    )?;
    let round_x = RangedCoordf64::from(x_lo..x_hi);
    let at_data = data_ticks(root, spec, (x_lo, x_hi), &across, &tick_font)?;
    let (x_bold, x_light) = match &at_data {
        // No light lines between a sweep's values: they would be at no value.
        Some(ticks) => (ticks.clone(), Vec::new()),
        None => (
            round_x.key_points(BoldPoints(x_labels)),
            round_x.key_points(LightPoints::new(x_labels, x_labels)),
        ),
    };

    let mut builder = ChartBuilder::on(root);
    builder.caption(&title, font(title_size));
    build(&mut builder);
    let mut chart = builder
        .build_cartesian_2d(
            Ticked {
                inner: round_x,
                bold: x_bold.clone(),
                light: x_light,
            },
            y_lo..y_hi,
        )
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
    let y_labels = y_tick_count(scale, px_y.end - px_y.start);
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
    let x_text = |v: f64| {
        if at_data.is_some() {
            value_label(10f64.powf(v))
        } else {
            tick_label(v, log_x, x_step)
        }
    };
    let y_text = |v: f64| tick_label(v, log_y, y_step);
    // The labels drawn, as numbers (plotters draws one at each bold point).
    let read = |points: &[f64], text: &dyn Fn(f64) -> String| -> Vec<f64> {
        points.iter().map(|&v| as_read(&text(v), v)).collect()
    };
    let y_bold = RangedCoordf64::from(y_lo..y_hi).key_points(BoldPoints(y_labels));
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
        x_ticks: read(&x_bold, &x_text),
        y_ticks: read(&y_bold, &y_text),
    };
    // The axes' names fitted to the plot's sides (shortened, never clipped:
    // the table's header says them whole).
    let axis_font = font(AXIS_FONT);
    let x_desc = fitted_label(root, &spec.x_label, &axis_font, px_x.end - px_x.start)?;
    let y_desc = fitted_label(root, &spec.y_label, &axis_font, px_y.end - px_y.start)?;
    chart
        .configure_mesh()
        .x_desc(&x_desc)
        .y_desc(&y_desc)
        .axis_desc_style(font(AXIS_FONT))
        .label_style(tick_font)
        .x_labels(x_labels)
        .y_labels(y_labels)
        .x_label_formatter(&|v| x_text(*v))
        .y_label_formatter(&|v| y_text(*v))
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
    let frame = Frame {
        x: (x_lo, x_hi),
        y: (y_lo, y_hi),
        scale,
    };
    draw_bands(&mut chart, spec, frame)?;
    draw_lines(root, &mut chart, spec, frame)?;
    if cut.is_some() {
        draw_peaks(root, &chart, spec, frame)?;
    }
    legend.draw(&legend_root, scale)?;
    root.present().map_err(err)?;
    Ok(layout)
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
