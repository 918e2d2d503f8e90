//! How a chart looks, shared by the plot and its legend: the palette (methods,
//! the ε ramp, the pins), the font sizes and their scale, markers, line widths,
//! and text cut to a width.

use super::spec::{LineStyle, Series, PIN_COLOR_BASE};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Colour-blind-safe palette (Okabe–Ito) for the methods, then a ramp for
/// the ε lines (smallest ε first) whose neighbours differ in both hue and
/// lightness, so that every ε stays apart for colour-blind readers and in
/// print; every colour is dark enough to read on white.
pub(crate) const METHOD_COLORS: [RGBColor; 4] = [
    RGBColor(0, 114, 178), // blue: Private FedRep
    RGBColor(80, 80, 80),  // grey: non-private FedRep
    RGBColor(0, 158, 115), // green: local GD
    RGBColor(213, 94, 0),  // vermillion: Priv-AltMin
];
pub(crate) const RAMP: [RGBColor; 8] = [
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
pub(crate) const PIN_COLORS: [RGBColor; 3] = [
    RGBColor(0, 0, 0),     // black
    RGBColor(136, 34, 85), // wine
    RGBColor(119, 119, 0), // olive
];

/// Colours named by what they look like, for a chart that picks its colours
/// by meaning rather than by method or ε (the trade-off chart): each is its
/// index in the palette above, the number [`color`] takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hue {
    Blue = 0,
    Grey = 1,
    Green = 2,
    Vermillion = 3,
    /// The ramp's first.
    DeepPurple = 4,
    /// The ramp's last.
    Magenta = 11,
}

impl From<Hue> for usize {
    fn from(hue: Hue) -> usize {
        hue as usize
    }
}

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

pub(crate) fn err<E: std::fmt::Debug>(e: E) -> PlotError {
    PlotError(format!("{e:?}"))
}

/// Font sizes at scale 1 (CSS pixels on the page): the title, the axes'
/// names, the tick labels and the legend. The smallest, 13, is what a laptop
/// shows; the page's large text multiplies them all (`draw_chart`'s `scale`).
pub(crate) const TITLE_FONT: f64 = 18.0;
pub(crate) const AXIS_FONT: f64 = 14.0;
pub(crate) const TICK_FONT: f64 = 13.0;
pub(crate) const LEGEND_FONT: f64 = 13.0;

/// Sizes in pixels and fonts at a drawing's `scale`.
#[derive(Clone, Copy)]
pub(crate) struct Scale(pub(crate) f64);

impl Scale {
    pub(crate) fn px(self, v: f64) -> u32 {
        (v * self.0).round().max(1.0) as u32
    }

    pub(crate) fn font(self, size: f64) -> FontDesc<'static> {
        ("sans-serif", size * self.0).into_font()
    }
}

/// `text` cut with "…" to at most `max` pixels wide in `font` (whole if it fits).
pub(crate) fn fit_text<DB: DrawingBackend>(
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
pub(crate) enum Marker {
    Circle,
    Square,
    Triangle,
    Diamond,
}

impl Marker {
    pub(crate) fn of(s: &Series) -> Marker {
        match pin_of(s) {
            None => Marker::Circle,
            Some(k) => [Marker::Square, Marker::Triangle, Marker::Diamond][k % 3],
        }
    }

    /// Draws the marker centred at pixel `at` of `area`, `r` pixels in radius.
    pub(crate) fn draw<DB: DrawingBackend>(
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
pub(crate) fn pin_of(s: &Series) -> Option<usize> {
    s.color.checked_sub(PIN_COLOR_BASE)
}

/// A series' colour as drawn (a faded series lighter).
pub(crate) fn series_color(s: &Series) -> RGBColor {
    if s.faded {
        faded(color(s.color))
    } else {
        color(s.color)
    }
}

/// Line widths at scale 1: measured curves thicker than references and guides.
pub(crate) fn line_width(s: &Series) -> f64 {
    if matches!(s.style, LineStyle::Solid | LineStyle::Line) {
        2.2
    } else {
        1.8
    }
}

/// The radius of a solid series' markers at scale 1.
pub(crate) const MARKER_RADIUS: f64 = 3.5;

/// A lighter tint of `c` (mixed 55 % towards white), opaque so that SVG and
/// canvas look the same.
pub(crate) fn faded(c: RGBColor) -> RGBColor {
    let f = |v: u8| (v as f64 + (255.0 - v as f64) * 0.55).round() as u8;
    RGBColor(f(c.0), f(c.1), f(c.2))
}
