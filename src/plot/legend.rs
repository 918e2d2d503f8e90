//! The legend below a chart's plot area: its entries (each series shown, then
//! each pinned run once), laid out in rows that wrap, drawn with samples like
//! their lines.

use super::spec::{ChartSpec, LineStyle, Series};
use super::style::*;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Three segments (start, end) across a legend sample `width` pixels long
/// that draw `style`: touching for solid, two dashes, three dots.
pub(crate) fn legend_pieces(style: LineStyle, width: i32) -> [(i32, i32); 3] {
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
pub(crate) fn legend_rows(
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

/// A pinned run's entry in the legend: "pinned" and what follows it in its
/// series' name ("Private FedRep (pinned): n = 4000" gives "pinned: n = 4000"),
/// the same for every series of the pin.
pub(crate) fn pin_label(name: &str) -> String {
    match name.find("(pinned)") {
        Some(i) => format!("pinned{}", &name[i + "(pinned)".len()..]),
        None => "pinned run".to_string(),
    }
}

/// The legend's entries: each series shown (in the legend, with points), then
/// each pinned run once, drawn like its first solid curve and named by
/// [`pin_label`] (its curves share its colour and marker: one entry says it).
pub(crate) fn legend_entries(spec: &ChartSpec) -> Vec<(&Series, String)> {
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
pub(crate) struct Legend<'a> {
    pub(crate) entries: Vec<(&'a Series, String)>,
    places: Vec<(usize, i32)>,
    pub(crate) height: i32,
    sample: i32,
    gap: i32,
    row_h: i32,
    pad: i32,
}

impl<'a> Legend<'a> {
    /// Lays out the legend of `spec` on `root`, in as many rows as it needs but
    /// never more than half the height; a name wider than the chart is cut.
    pub(crate) fn new<DB: DrawingBackend>(
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
    pub(crate) fn draw<DB: DrawingBackend>(
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
