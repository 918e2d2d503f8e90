//! The legend of a chart: its entries (each series shown, then each pinned
//! run once), below the plot in rows that wrap, beside it, or folded so that
//! the plot keeps its share of the height; drawn with samples like their lines.

use super::spec::{ChartSpec, LineStyle, Series};
use super::style::*;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Three segments (start, end) across a legend sample `width` pixels long
/// that draw `style`: touching for solid (and a line without markers), two
/// dashes, three dots; none for markers alone.
pub(crate) fn legend_pieces(style: LineStyle, width: i32) -> [(i32, i32); 3] {
    let at = |f: f64| (f * width as f64).round() as i32;
    match style {
        LineStyle::Solid | LineStyle::Line => {
            [(0, at(0.34)), (at(0.33), at(0.67)), (at(0.66), width)]
        }
        // No line: three empty pieces (the sample is its marker alone).
        LineStyle::Markers => [(0, 0), (0, 0), (0, 0)],
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

/// Where the legend sits: below the plot (in rows that wrap) or beside it, on
/// the right (one entry a line), when below it would take the plot's room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    Below,
    Beside,
}

/// The least share of a chart's height its plot area keeps: a legend that
/// would take more goes beside the plot, or is folded to the rows that fit
/// with a last entry that says how many more (the table lists every curve).
pub(crate) const PLOT_SHARE: f64 = 0.55;

/// The widest share of a chart's width a legend beside the plot takes, and
/// the least of a name (in ems of its font) it shows there when it cuts names.
const BESIDE_SHARE: f64 = 0.4;
const BESIDE_CHARS: f64 = 12.0;

/// The legend of a chart: its entries (a series to draw the sample like, and
/// a text cut to the width; a folded legend's last entry has no series and
/// says how many were left out), where each sits (row, x), its place, height
/// and width, and the sizes of its pieces.
pub(crate) struct Legend<'a> {
    pub(crate) entries: Vec<(Option<&'a Series>, String)>,
    places: Vec<(usize, i32)>,
    pub(crate) place: Place,
    pub(crate) height: i32,
    pub(crate) width: i32,
    /// Beside the plot: how far down its first entry starts (the title's height).
    top: i32,
    sample: i32,
    gap: i32,
    row_h: i32,
    pad: i32,
}

impl<'a> Legend<'a> {
    /// Lays out the legend of `spec` on `root`, whose title, margins and x
    /// axis take `fixed` pixels of its height (`title`: the title's): below
    /// the plot in the rows that leave it [`PLOT_SHARE`] of the height; else
    /// beside it if every entry fits in [`BESIDE_SHARE`] of the width (whole, or
    /// cut to no less than [`BESIDE_CHARS`] ems)
    /// and the plot's height; else below, folded to the rows that fit (at
    /// least one). A name wider than its room is cut.
    pub(crate) fn new<DB: DrawingBackend>(
        root: &DrawingArea<DB, Shift>,
        spec: &'a ChartSpec,
        scale: Scale,
        fixed: i32,
        title: i32,
    ) -> Result<Self, PlotError> {
        let px = |v: f64| scale.px(v);
        let (width, height) = root.dim_in_pixel();
        let (width, height) = (width as i32, height as i32);
        let (sample, gap, row_h) = (2 * px(12.0) as i32, px(18.0) as i32, px(20.0) as i32);
        let pad = px(10.0) as i32;
        let available = width - 2 * pad;
        let font = scale.font(LEGEND_FONT);
        let all = legend_entries(spec);
        let mut legend = Legend {
            entries: Vec::new(),
            places: Vec::new(),
            place: Place::Below,
            height: 0,
            width: 0,
            top: 0,
            sample,
            gap,
            row_h,
            pad,
        };
        if all.is_empty() {
            return Ok(legend);
        }
        let budget = height - fixed - (PLOT_SHARE * height as f64).ceil() as i32;
        let fits = |rows: usize| rows as i32 * row_h + pad <= budget;
        let mut texts = Vec::new();
        let mut widths = Vec::new();
        for (_, name) in &all {
            let (t, w) = fit_text(root, name, &font, available - sample - gap / 2)?;
            texts.push(t);
            widths.push(w);
        }
        let (places, rows) = legend_rows(&widths, sample, gap, available);
        if fits(rows) {
            legend.entries = all.iter().map(|(s, _)| Some(*s)).zip(texts).collect();
            legend.places = places;
            legend.height = rows as i32 * row_h + pad;
            return Ok(legend);
        }
        // Beside: every entry within the plot's height, in a column of at most BESIDE_SHARE of
        // the width that holds each name whole or at least BESIDE_CHARS ems of it (cut with "…").
        let (_, whole) = widths_of(root, &all, &font)?;
        let frame = sample + gap / 2 + 2 * pad;
        let room = (BESIDE_SHARE * width as f64) as i32 - frame;
        let text_w = whole.min(room);
        let lines = ((height - fixed + px(42.0) as i32) / row_h).max(0) as usize;
        let readable = text_w == whole || text_w as f64 >= BESIDE_CHARS * font.get_size();
        if readable && all.len() <= lines {
            let mut entries = Vec::with_capacity(all.len());
            for (s, name) in &all {
                entries.push((Some(*s), fit_text(root, name, &font, text_w)?.0));
            }
            legend.entries = entries;
            legend.places = (0..all.len()).map(|i| (i, 0)).collect();
            legend.place = Place::Beside;
            legend.width = text_w + frame;
            legend.height = height;
            legend.top = title;
            return Ok(legend);
        }
        // Folded: the first entries that fit in the rows the plot leaves, then "+N more";
        // the names whole, or cut to a third of the row where that keeps more of them.
        let most = (((budget - pad) / row_h).max(1)) as usize;
        let third = available / 3 - sample - gap;
        let mut short_texts = Vec::new();
        let mut short_widths = Vec::new();
        for (_, name) in &all {
            let (t, w) = fit_text(root, name, &font, third.max(sample))?;
            short_texts.push(t);
            short_widths.push(w);
        }
        // (entries kept, their places, rows, names cut, the "+N more" text)
        let mut best: Option<Folded> = None;
        for cut in [false, true] {
            let w_all = if cut { &short_widths } else { &widths };
            for keep in (0..all.len()).rev() {
                let more = format!("+{} more: see the table", all.len() - keep);
                let (more, more_w) = fit_text(root, &more, &font, available)?;
                let mut w: Vec<i32> = w_all[..keep].to_vec();
                // With some slack: the last item of its row, it must not leave the chart.
                w.push(more_w + more_w / 8 - sample - gap / 2);
                let (places, rows) = legend_rows(&w, sample, gap, available);
                if rows <= most || keep == 0 {
                    if best.as_ref().is_none_or(|b| keep > b.0) {
                        best = Some((keep, places, rows, cut, more));
                    }
                    break;
                }
            }
        }
        if let Some((keep, places, rows, cut, more)) = best {
            let names = if cut { &short_texts } else { &texts };
            legend.entries = all[..keep]
                .iter()
                .map(|(s, _)| Some(*s))
                .zip(names[..keep].iter().cloned())
                .chain(std::iter::once((None, more)))
                .collect();
            legend.places = places;
            legend.height = rows as i32 * row_h + pad;
        }
        Ok(legend)
    }

    /// Each entry: a sample of its line, in its own style and with its
    /// marker, and its name (a folded legend's last entry: its text alone).
    pub(crate) fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        scale: Scale,
    ) -> Result<(), PlotError> {
        let (sample, gap, row_h, pad) = (self.sample, self.gap, self.row_h, self.pad);
        for ((s, text), &(row, x)) in self.entries.iter().zip(&self.places) {
            let y = self.top + row as i32 * row_h + row_h / 2;
            if y + row_h / 2 > self.height {
                break;
            }
            let at = match s {
                Some(s) => {
                    let c = series_color(s);
                    let style = ShapeStyle::from(&c).stroke_width(scale.px(line_width(s)));
                    // Each sample in its line's own style, so a dashed reference or a
                    // dotted guide is not mistaken for a solid curve of the same colour.
                    for (a, b) in legend_pieces(s.style, sample)
                        .into_iter()
                        .filter(|(a, b)| a < b)
                    {
                        root.draw(&PathElement::new(
                            vec![(pad + x + a, y), (pad + x + b, y)],
                            style,
                        ))
                        .map_err(err)?;
                    }
                    if matches!(s.style, LineStyle::Solid | LineStyle::Markers) {
                        let r = scale.px(MARKER_RADIUS) as i32;
                        Marker::of(s).draw(root, (pad + x + sample / 2, y), r, &c)?;
                    }
                    pad + x + sample + gap / 2
                }
                None => pad + x,
            };
            root.draw(&Text::new(
                text.clone(),
                (at, y),
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

/// A folded legend: the entries kept, their places, its rows, whether the names
/// are cut to a third of the row, and its "+N more" text.
type Folded = (usize, Vec<(usize, i32)>, usize, bool, String);

/// The names' widths in `font`, and the widest.
fn widths_of<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    entries: &[(&Series, String)],
    font: &FontDesc<'static>,
) -> Result<(Vec<i32>, i32), PlotError> {
    let style = TextStyle::from(font.clone());
    let mut out = Vec::with_capacity(entries.len());
    for (_, name) in entries {
        out.push(root.estimate_text_size(name, &style).map_err(err)?.0 as i32);
    }
    let widest = out.iter().copied().max().unwrap_or(0);
    Ok((out, widest))
}
