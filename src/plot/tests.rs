//! Tests of the drawing: legend layout, tick labels, text sizes, pins.

use super::draw::*;
use super::legend::*;
use super::spec::*;
use super::style::*;
use plotters::prelude::*;

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

/// (width, height, scale) of the charts the page draws: a phone's at 2
/// device pixels per CSS px, a laptop's, a projector's with large text, and a
/// narrow chart with large text.
const SIZES: [(u32, u32, f64); 4] = [
    (742, 720, 2.0),
    (886, 323, 1.0),
    (1828, 756, 2.19),
    (700, 670, 2.19),
];

#[test]
fn no_two_texts_overlap_on_a_phone_a_laptop_or_a_projector() {
    for (w, h, scale) in SIZES {
        let (_, out) = drawn(&busy_spec(), (w, h), scale);
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
    let live_colours: Vec<RGBColor> = (0..METHOD_COLORS.len() + RAMP.len()).map(color).collect();
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

/// A log ε axis of these values, one private curve and one level.
fn eps_spec(eps: &[f64]) -> ChartSpec {
    let points = eps.iter().map(|&e| (e, 0.1 / e)).collect();
    ChartSpec::new(
        "risk",
        "target ε",
        "excess risk",
        vec![
            Series::line("private", points, LineStyle::Solid, 0),
            Series {
                horizontal: true,
                ..Series::line("non-private", vec![(100.0, 0.001)], LineStyle::Dashed, 1)
            },
        ],
    )
    .log_x()
    .log_y()
    .x_range_of(eps.iter().copied())
}

fn drawn(spec: &ChartSpec, (w, h): (u32, u32), scale: f64) -> (ChartLayout, String) {
    let mut out = String::new();
    let layout = {
        let root = SVGBackend::with_string(&mut out, (w, h)).into_drawing_area();
        draw_chart(&root, spec, scale).unwrap()
    };
    (layout, out)
}

#[test]
fn a_log_axis_of_a_few_values_is_labelled_at_them() {
    let (layout, svg) = drawn(&eps_spec(&[0.5, 1.0, 2.0, 4.0, 8.0]), (640, 400), 1.0);
    assert_eq!(layout.x_ticks, [0.5, 1.0, 2.0, 4.0, 8.0]);
    let texts: Vec<String> = text_boxes(&svg).into_iter().map(|t| t.0).collect();
    for label in ["0.5", "1", "2", "4", "8"] {
        assert!(texts.iter().any(|t| t == label), "{label} not in {texts:?}");
    }
    assert!(
        !texts.iter().any(|t| t == "0.63" || t == "1.6"),
        "{texts:?}"
    );
    let (layout, _) = drawn(&eps_spec(&[1.0, 2.0, 4.0]), (640, 400), 1.0);
    assert_eq!(layout.x_ticks, [1.0, 2.0, 4.0]);
    // The level's x (100) is no data value, nor a guide's many x.
    let mut spec = eps_spec(&[0.125, 1.5, 3.0]);
    let guide = (0..40).map(|i| (0.125 + 0.07 * i as f64, 0.1)).collect();
    spec.series
        .push(Series::line("guide", guide, LineStyle::Dotted, 2));
    let (layout, _) = drawn(&spec, (640, 400), 1.0);
    assert_eq!(layout.x_ticks, [0.125, 1.5, 3.0]);
}

#[test]
fn crowded_data_labels_drop_between_the_first_and_the_last() {
    let eps = [1.0, 1.2, 1.4, 1.6, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0];
    let (layout, svg) = drawn(&eps_spec(&eps), (360, 300), 2.0);
    let t = &layout.x_ticks;
    assert!(t.len() >= 3 && t.len() < eps.len(), "{t:?}");
    assert_eq!((t[0], t[t.len() - 1]), (1.0, 8.0), "{t:?}");
    assert!(t.iter().all(|x| eps.contains(x)), "{t:?}");
    // The x labels drawn (the row of the last one, "8") do not overlap.
    let boxes = text_boxes(&svg);
    let row = boxes.iter().find(|b| b.0 == "8").expect("the label 8").1[1];
    let boxes: Vec<_> = boxes.into_iter().filter(|b| b.1[1] == row).collect();
    assert_eq!(boxes.len(), t.len(), "{boxes:?}");
    for (i, (a, p)) in boxes.iter().enumerate() {
        for (b, q) in &boxes[i + 1..] {
            let apart = p[2] <= q[0] || q[2] <= p[0] || p[3] <= q[1] || q[3] <= p[1];
            assert!(apart, "{a:?} {p:?} overlaps {b:?} {q:?}");
        }
    }
}

#[test]
fn many_values_or_a_linear_axis_keep_round_ticks() {
    // Thirteen values: more than a reader could tell apart.
    let eps: Vec<f64> = (1..=13).map(|i| i as f64).collect();
    let (layout, _) = drawn(&eps_spec(&eps), (640, 400), 1.0);
    assert!(!layout.x_ticks.is_empty());
    assert!(
        layout.x_ticks.iter().any(|x| !eps.contains(x)),
        "{:?}",
        layout.x_ticks
    );
    // A linear axis from 1 to 8: round steps, not the data's 1, 2, 8.
    let (layout, _) = drawn(&spec(), (640, 400), 1.0);
    let t = &layout.x_ticks;
    assert!(t.len() >= 3, "{t:?}");
    let step = t[1] - t[0];
    assert!(
        t.windows(2).all(|w| ((w[1] - w[0]) - step).abs() < 1e-9),
        "{t:?}"
    );
    assert!(
        t.iter()
            .all(|x| (x / step - (x / step).round()).abs() < 1e-9),
        "{t:?}"
    );
    // The y ticks are said too, increasing.
    assert!(layout.y_ticks.len() >= 2, "{:?}", layout.y_ticks);
    assert!(layout.y_ticks.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn a_data_value_is_labelled_in_as_few_digits_as_say_it() {
    assert_eq!(value_label(0.5), "0.5");
    assert_eq!(value_label(0.125), "0.125");
    assert_eq!(value_label(1.5), "1.5");
    assert_eq!(value_label(8.0), "8");
    assert_eq!(value_label(250.0), "250");
    assert_eq!(value_label(1.0 / 3.0), "0.33");
    assert_eq!(value_label(1e-5), "1e-5");
}

#[test]
fn spaced_labels_keep_the_ends_and_what_fits_between() {
    // Centres 0, 10, 20, 100 with labels 8 wide and a gap of 4: 10 is too
    // close to 0, 20 keeps clear of both ends.
    assert_eq!(
        spaced_labels(&[0.0, 10.0, 20.0, 100.0], &[8.0; 4], 4.0),
        [0, 2, 3]
    );
    assert_eq!(spaced_labels(&[0.0, 5.0], &[8.0; 2], 4.0), [0]);
    assert_eq!(spaced_labels(&[3.0], &[8.0], 4.0), [0]);
}

/// A chart with `n` curves, each with a long name: a legend that would fill a short chart.
fn many_curves(n: usize) -> ChartSpec {
    let mut s = busy_spec();
    for i in 0..n {
        s.series.push(Series::line(
            format!("DP-GD, ε = {i} (spent {i}.98 by the accountant)"),
            vec![(0.001, 0.1), (0.004, 0.01 + i as f64 * 0.001)],
            LineStyle::Solid,
            4 + i,
        ));
    }
    s
}

#[test]
fn the_plot_keeps_55_percent_of_the_height_at_every_size() {
    // The page's sizes, a large window's and a small phone's.
    for (w, h, scale) in SIZES
        .into_iter()
        .chain([(1300, 900, 2.19), (420, 360, 1.0)])
    {
        for spec in [busy_spec(), many_curves(8)] {
            let (layout, svg) = drawn(&spec, (w, h), scale);
            let share = (layout.bottom - layout.top) as f64 / h as f64;
            assert!(
                share >= PLOT_SHARE,
                "{w}×{h} at {scale}: plot {share:.2} of the height"
            );
            // A legend that did not fit below or beside says how many it left out (a name
            // beside the plot may be cut, never below its first ten characters).
            let named = |name: &str| {
                let head: String = name.chars().take(10).collect();
                svg.contains(&format!(">\n{head}"))
            };
            let listed = spec.series.iter().filter(|s| named(&s.name)).count();
            assert!(
                listed == spec.series.len() || svg.contains(" more: see the table"),
                "{w}×{h} at {scale}: {listed} of {} named, none said left out",
                spec.series.len()
            );
        }
    }
}

#[test]
fn a_wide_chart_puts_a_legend_that_does_not_fit_below_beside_the_plot() {
    // Sixteen entries need four rows below, more than the plot leaves; beside they fit whole.
    let mut s = busy_spec();
    s.series = (0..16)
        .map(|i| {
            Series::line(
                format!("curve number {i:02}"),
                vec![(0.001, 0.1), (0.004, 0.02 + i as f64 * 0.001)],
                LineStyle::Solid,
                i,
            )
        })
        .collect();
    let (layout, svg) = drawn(&s, (1800, 800), 2.19);
    assert!(layout.right < 1800 - 300, "{layout:?}");
    assert!(
        (layout.bottom - layout.top) as f64 >= PLOT_SHARE * 800.0,
        "{layout:?}"
    );
    assert!(!svg.contains("more: see the table"));
    assert!(svg.contains(">\ncurve number 15\n<"));
}

/// Like DP-GD's width chart: θ* (dashed) spikes to 4624 where the private curves stay in 0.38–0.87.
fn spike_spec() -> ChartSpec {
    let xs = [100.0, 200.0, 400.0, 800.0, 1600.0];
    let mut series = vec![Series::line(
        "θ* = Φ⁺Y (non-private)",
        xs.iter()
            .zip([0.5, 3.0, 4624.0, 2.0, 0.3])
            .map(|(&x, y)| (x, y))
            .collect(),
        LineStyle::Dashed,
        5,
    )];
    for (k, base) in [0.38, 0.5, 0.6].into_iter().enumerate() {
        series.push(Series::line(
            format!("DP-GD, ε = {k}"),
            xs.iter()
                .enumerate()
                .map(|(i, &x)| (x, base + 0.05 * i as f64))
                .collect(),
            LineStyle::Solid,
            k,
        ));
    }
    ChartSpec::new("Test loss vs width p", "p", "test MSE", series)
        .log_x()
        .log_y()
}

#[test]
fn a_reference_that_dwarfs_the_measured_curves_is_cut_at_the_top_with_its_peak_written() {
    let (layout, svg) = drawn(&spike_spec(), (900, 560), 1.0);
    // The private curves (up to 0.58, log10 −0.24) take most of the axis, the spike is cut.
    assert!(layout.y_max < 0.3, "{layout:?}");
    assert!(
        layout.y_ticks.iter().all(|&t| t < 2.0),
        "{:?}",
        layout.y_ticks
    );
    assert!(svg.contains("↑ 4624"), "the peak's value is written");
    // The reader lands on the peak at the top edge, not above the plot.
    let points = readable_points(&spike_spec(), &layout, &[]);
    assert!(points.iter().all(|p| p.py >= layout.top as f64 - 1e-9));
    // Curves of comparable heights, or a chart of references only, keep the whole range.
    let mut calm = spike_spec();
    calm.series[0].points[2].1 = 0.9;
    assert_eq!(subject_top(&calm, (-0.5, 0.0)), None);
    let mut refs = spike_spec();
    refs.series.truncate(1);
    assert_eq!(subject_top(&refs, (-0.5, 3.7)), None);
}

#[test]
fn a_line_cut_at_the_top_ends_where_it_crosses_it() {
    let pieces = below_top(&[(0.0, 0.0), (1.0, 2.0), (2.0, 0.0), (3.0, 0.5)], 1.0);
    assert_eq!(
        pieces,
        vec![
            vec![(0.0, 0.0), (0.5, 1.0)],
            vec![(1.5, 1.0), (2.0, 0.0), (3.0, 0.5)]
        ]
    );
    assert_eq!(
        below_top(&[(0.0, 2.0), (1.0, 3.0)], 1.0),
        Vec::<Vec<(f64, f64)>>::new()
    );
}

#[test]
fn an_axis_name_too_long_for_its_side_is_shortened_not_clipped() {
    let (_, svg) = drawn(&busy_spec(), (700, 330), 2.19);
    assert!(
        !svg.contains("excess risk (mean over users"),
        "the long name is not drawn whole"
    );
    assert!(
        svg.contains(">\nexcess risk\n<") || svg.contains("…"),
        "shortened"
    );
}

/// The `points` of every element `tag` in an SVG document, as pixel pairs.
fn svg_points(svg: &str, tag: &str) -> Vec<Vec<(f64, f64)>> {
    svg.split(&format!("<{tag} "))
        .skip(1)
        .filter_map(|e| {
            let rest = &e[e.find("points=\"")? + 8..];
            let list = &rest[..rest.find('"')?];
            Some(
                list.split_whitespace()
                    .filter_map(|p| {
                        let (x, y) = p.split_once(',')?;
                        Some((x.parse().ok()?, y.parse().ok()?))
                    })
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn markers_draw_no_line_and_their_band_as_an_outlined_box_reaching_a_log_axis_edge() {
    // An attack's point with its box, whose FPR interval starts at 0, over a curve drawn as a line.
    let mut attack = Series::line("attack", vec![(0.01, 0.5)], LineStyle::Markers, 4);
    attack.band = vec![(0.0, 0.4, 0.6), (0.02, 0.4, 0.6)];
    let curve: Vec<(f64, f64)> = (1..=100)
        .map(|i| (i as f64 / 100.0, (i as f64 / 100.0).sqrt()))
        .collect();
    let line = Series::line("curve", curve, LineStyle::Line, 0);
    for log_x in [false, true] {
        let mut spec = ChartSpec::new("t", "x", "y", vec![line.clone(), attack.clone()]);
        spec.log_x = log_x;
        let mut out = String::new();
        let layout = {
            let root = SVGBackend::with_string(&mut out, (640, 400)).into_drawing_area();
            draw_chart(&root, &spec, 1.0).unwrap()
        };
        // One marker in the plot and one in the legend: the line has none.
        assert_eq!(out.matches("<circle").count(), 2, "log x: {log_x}");
        // The box: a filled rectangle and its closed outline, over the same four corners.
        let boxes: Vec<Vec<(f64, f64)>> = svg_points(&out, "polygon")
            .into_iter()
            .filter(|p| p.len() == 4)
            .collect();
        assert_eq!(boxes.len(), 1, "log x: {log_x}");
        let corners = &boxes[0];
        let outline = svg_points(&out, "polyline")
            .into_iter()
            .find(|p| p.len() == 5 && p[..4] == corners[..] && p[4] == p[0]);
        assert!(
            outline.is_some(),
            "log x: {log_x}: no outline of {corners:?}"
        );
        let left = corners.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
        let (px0, _) = layout.to_pixel(0.02, 0.5).unwrap();
        assert!(left < px0, "log x: {log_x}");
        if log_x {
            // FPR 0 has no place on a log axis: the box reaches the plot's left edge.
            assert!(
                (left - layout.left as f64).abs() <= 1.0,
                "{left} vs {}",
                layout.left
            );
        } else {
            let (zero, _) = layout.to_pixel(0.0, 0.5).unwrap();
            assert!((left - zero).abs() <= 1.0, "{left} vs {zero}");
        }
    }
}
