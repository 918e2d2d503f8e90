//! Draws a [`ChartSpec`] on any plotters backend. The browser passes a
//! `CanvasBackend`, the CLI and the tests an `SVGBackend`: one chart code.
//!
//! Log axes are drawn by plotting log10 of the values on a linear axis and
//! labelling ticks as powers of ten; this keeps one code path for every
//! combination of linear and log axes.

use super::spec::{ChartLayout, ChartSpec, LineStyle};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Colour-blind-safe palette (Okabe–Ito) for the methods, then a sequential
/// ramp (dark → light) for the ε lines so that their order reads at a glance.
const METHOD_COLORS: [RGBColor; 4] = [
    RGBColor(0, 114, 178), // blue: Private FedRep
    RGBColor(80, 80, 80),  // grey: non-private FedRep
    RGBColor(0, 158, 115), // green: local GD
    RGBColor(213, 94, 0),  // vermillion: Priv-AltMin
];
const RAMP: [RGBColor; 8] = [
    RGBColor(68, 1, 84),
    RGBColor(70, 51, 127),
    RGBColor(54, 92, 141),
    RGBColor(39, 127, 142),
    RGBColor(31, 161, 135),
    RGBColor(74, 193, 109),
    RGBColor(160, 218, 57),
    RGBColor(200, 170, 20),
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

fn tick_label(v: f64, log: bool) -> String {
    if log {
        let x = 10f64.powf(v);
        if (v - v.round()).abs() < 1e-9 {
            format!("1e{}", v.round() as i32)
        } else {
            format!("{x:.1e}")
        }
    } else if v.abs() >= 1e4 || (v != 0.0 && v.abs() < 1e-2) {
        format!("{v:.1e}")
    } else {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
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

/// The corner of the plot where the legend hides the fewest data points:
/// each corner box (45 % of the width, 40 % of the height) counts the points
/// (a horizontal reference line counts as crossing the box) and band edges
/// inside it; ties keep the usual upper right.
fn legend_corner(
    spec: &ChartSpec,
    (x_lo, x_hi): (f64, f64),
    (y_lo, y_hi): (f64, f64),
) -> SeriesLabelPosition {
    let (w, h) = (x_hi - x_lo, y_hi - y_lo);
    let corners = [
        (SeriesLabelPosition::UpperRight, true, true),
        (SeriesLabelPosition::UpperLeft, false, true),
        (SeriesLabelPosition::LowerLeft, false, false),
        (SeriesLabelPosition::LowerRight, true, false),
    ];
    let in_x = |x: f64, right: bool| {
        if right {
            x >= x_hi - 0.45 * w
        } else {
            x <= x_lo + 0.45 * w
        }
    };
    let in_y = |y: f64, upper: bool| {
        if upper {
            y >= y_hi - 0.4 * h
        } else {
            y <= y_lo + 0.4 * h
        }
    };
    let mut best = (usize::MAX, 0);
    for (i, &(_, right, upper)) in corners.iter().enumerate() {
        let mut count = 0;
        for s in &spec.series {
            for &(x, y) in &s.points {
                let Some(ty) = transform(y, spec.log_y) else {
                    continue;
                };
                if s.horizontal {
                    count += 4 * usize::from(in_y(ty, upper));
                } else if let Some(tx) = transform(x, spec.log_x) {
                    count += usize::from(in_x(tx, right) && in_y(ty, upper));
                }
            }
            for &(x, lo, hi) in &s.band {
                let Some(tx) = transform(x, spec.log_x) else {
                    continue;
                };
                for v in [lo, hi] {
                    if let Some(ty) = transform(v, spec.log_y) {
                        count += usize::from(in_x(tx, right) && in_y(ty, upper));
                    }
                }
            }
        }
        if count < best.0 {
            best = (count, i);
        }
    }
    match best.1 {
        0 => SeriesLabelPosition::UpperRight,
        1 => SeriesLabelPosition::UpperLeft,
        2 => SeriesLabelPosition::LowerLeft,
        _ => SeriesLabelPosition::LowerRight,
    }
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
    let px = |v: f64| (v * scale).round().max(1.0) as u32;
    let font = |size: f64| ("sans-serif", size * scale).into_font();

    // Data ranges in plotting coordinates.
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
    let (x_lo, x_hi) = padded(x_lo, x_hi, spec.log_x);
    let (y_lo, y_hi) = if y_lo.is_finite() {
        padded(y_lo, y_hi, spec.log_y)
    } else {
        (0.0, 1.0)
    };

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
    chart
        .configure_mesh()
        .x_desc(&spec.x_label)
        .y_desc(&spec.y_label)
        .axis_desc_style(font(13.0))
        .label_style(font(12.0))
        .x_labels(8)
        .y_labels(7)
        .x_label_formatter(&|v| tick_label(*v, log_x))
        .y_label_formatter(&|v| tick_label(*v, log_y))
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
    for s in &spec.series {
        let band: Vec<(f64, f64, f64)> = s
            .band
            .iter()
            .filter_map(|&(x, lo, hi)| {
                Some((
                    transform(x, log_x)?,
                    transform(lo, log_y)?,
                    transform(hi, log_y)?,
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
            match s.points.first().and_then(|p| transform(p.1, log_y)) {
                Some(y) => vec![(x_lo, y), (x_hi, y)],
                None => continue,
            }
        } else {
            s.points
                .iter()
                .filter_map(|&(x, y)| Some((transform(x, log_x)?, transform(y, log_y)?)))
                .collect()
        };
        if pts.is_empty() {
            continue;
        }
        let legend_style = style;
        let anno = match s.style {
            LineStyle::Solid => {
                chart
                    .draw_series(pts.iter().map(|&p| Circle::new(p, px(3.5), c.filled())))
                    .map_err(err)?;
                chart
                    .draw_series(LineSeries::new(pts.clone(), style))
                    .map_err(err)?
            }
            LineStyle::Dashed => chart
                .draw_series(DashedLineSeries::new(pts.clone(), px(8.0), px(5.0), style))
                .map_err(err)?,
            LineStyle::Dotted => chart
                .draw_series(DashedLineSeries::new(pts.clone(), px(2.0), px(4.0), style))
                .map_err(err)?,
        };
        if s.in_legend {
            let width = 2 * px(10.0) as i32;
            let pieces = legend_pieces(s.style, width);
            // The legend shows each line in its own style, so a dashed reference
            // or a dotted guide is not mistaken for a solid curve of the same colour.
            anno.label(&s.name).legend(move |(x, y)| {
                let seg = |(a, b): (i32, i32)| PathElement::new(vec![(a, 0), (b, 0)], legend_style);
                EmptyElement::at((x, y)) + seg(pieces[0]) + seg(pieces[1]) + seg(pieces[2])
            });
        }
    }
    if spec.series.iter().any(|s| s.in_legend) {
        chart
            .configure_series_labels()
            .position(legend_corner(spec, (x_lo, x_hi), (y_lo, y_hi)))
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(200, 200, 200))
            .label_font(font(12.0))
            .draw()
            .map_err(err)?;
    }
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
    fn the_legend_goes_to_the_emptiest_corner() {
        // Points crowd the upper right and upper left: the lower left is free.
        let mut s = spec();
        s.log_y = false;
        s.series[0].points = vec![(1.0, 9.0), (2.0, 9.5), (7.0, 9.0), (8.0, 10.0), (8.0, 1.0)];
        s.series[1].points = vec![(f64::NAN, 9.8)];
        assert!(matches!(
            legend_corner(&s, (1.0, 8.0), (0.0, 10.0)),
            SeriesLabelPosition::LowerLeft
        ));
        // Nothing anywhere: the usual upper right.
        s.series.clear();
        assert!(matches!(
            legend_corner(&s, (1.0, 8.0), (0.0, 10.0)),
            SeriesLabelPosition::UpperRight
        ));
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
        assert!(svg.contains("1e-3"));
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
