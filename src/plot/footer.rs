//! A chart with a footer line under it: the run's privacy statement in one
//! line (mechanism, relation, ε spent at δ, accountant), so that an exported
//! picture carries its guarantee wherever it goes. The chart itself is drawn
//! exactly as without the footer ([`draw_chart`] on the area above); the
//! footer adds its own strip below, its words wrapped to the width.

use super::draw::draw_chart;
use super::style::{err, Scale, LEGEND_FONT};
use super::ChartSpec;
use super::PlotError;
use plotters::coord::Shift;
use plotters::prelude::*;

/// At most this many lines of footer; the last is cut with "…" if more is left.
const MAX_LINES: usize = 3;

/// The footer's text colour: a dark grey that reads on white (contrast > 7:1).
const FOOTER_COLOR: RGBColor = RGBColor(70, 70, 70);

/// `text`'s words in lines of at most `max` pixels in `style` (a word longer
/// than a line stands alone), at most [`MAX_LINES`].
fn wrap<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    text: &str,
    style: &TextStyle,
    max: i32,
) -> Result<Vec<String>, PlotError> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split_whitespace() {
        let trial = if current.is_empty() {
            word.to_string()
        } else {
            format!("{current} {word}")
        };
        if current.is_empty()
            || root.estimate_text_size(&trial, style).map_err(err)?.0 as i32 <= max
        {
            current = trial;
        } else {
            lines.push(std::mem::replace(&mut current, word.to_string()));
        }
    }
    if !current.is_empty() {
        lines.push(current);
    }
    if lines.len() > MAX_LINES {
        lines.truncate(MAX_LINES);
        if let Some(last) = lines.last_mut() {
            last.push('…');
        }
    }
    Ok(lines)
}

/// The height in pixels the footer `text` takes at `scale` across `width`.
fn footer_lines<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    text: &str,
    scale: Scale,
) -> Result<(Vec<String>, i32), PlotError> {
    let style = TextStyle::from(scale.font(LEGEND_FONT - 1.0));
    let (width, _) = root.dim_in_pixel();
    let margin = scale.px(10.0) as i32;
    let lines = wrap(root, text, &style, width as i32 - 2 * margin)?;
    let (_, line_h) = root.estimate_text_size("Ty", &style).map_err(err)?;
    let line_h = (line_h as f64 * 1.25).ceil() as i32;
    Ok((lines, line_h))
}

/// The chart as an SVG document `width` wide, with `footer` under a chart of
/// `width`×`height` (the document grows by the footer's strip); no footer:
/// [`super::chart_svg`]'s document.
pub fn chart_svg_with_footer(
    spec: &ChartSpec,
    width: u32,
    height: u32,
    footer: Option<&str>,
) -> Result<String, PlotError> {
    let Some(text) = footer.filter(|t| !t.trim().is_empty()) else {
        return super::chart_svg(spec, width, height);
    };
    let scale = Scale(1.0);
    // Measure on a scratch document of the same width.
    let (lines, line_h) = {
        let mut scratch = String::new();
        let root = SVGBackend::with_string(&mut scratch, (width, height)).into_drawing_area();
        footer_lines(&root, text, scale)?
    };
    let pad = scale.px(6.0) as i32;
    let strip = lines.len() as i32 * line_h + 2 * pad;
    let mut out = String::new();
    {
        let root =
            SVGBackend::with_string(&mut out, (width, height + strip as u32)).into_drawing_area();
        let (chart, below) = root.split_vertically(height as i32);
        // The footer first: draw_chart presents the whole document when done.
        below.fill(&WHITE).map_err(err)?;
        let style = TextStyle::from(scale.font(LEGEND_FONT - 1.0)).color(&FOOTER_COLOR);
        let margin = scale.px(10.0) as i32;
        for (i, line) in lines.iter().enumerate() {
            below
                .draw_text(line, &style, (margin, pad + i as i32 * line_h))
                .map_err(err)?;
        }
        draw_chart(&chart, spec, scale.0)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::{LineStyle, Series};

    fn spec() -> ChartSpec {
        ChartSpec::new(
            "risk against ε",
            "target ε",
            "risk",
            vec![Series::line(
                "Private FedRep",
                vec![(1.0, 2.0), (2.0, 1.0)],
                LineStyle::Solid,
                0,
            )],
        )
    }

    #[test]
    fn the_footer_is_under_the_same_chart_and_every_word_is_kept() {
        let plain = crate::plot::chart_svg(&spec(), 800, 500).unwrap();
        let line = "Privacy: Private FedRep — Gaussian mechanism, replace-one, ε = 3.175 to 7.714 at δ = 1e-6, exact GDP accountant; the words of a long line wrap onto the next one and none is lost on the way down";
        let footed = chart_svg_with_footer(&spec(), 800, 500, Some(line)).unwrap();
        let height = |svg: &str| -> u32 {
            let at = svg.find("height=\"").unwrap() + 8;
            svg[at..].split('"').next().unwrap().parse().unwrap()
        };
        assert_eq!(height(&plain), 500);
        assert!(
            height(&footed) > 500,
            "the document grows by the footer's strip"
        );
        assert_eq!(footed.matches("<svg").count(), 1, "one document");
        for word in ["Privacy:", "replace-one,", "accountant;", "down"] {
            assert!(footed.contains(word), "{word} missing");
        }
        assert_eq!(
            chart_svg_with_footer(&spec(), 800, 500, None).unwrap(),
            plain
        );
    }
}
