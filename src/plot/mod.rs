//! Charts written once, generic over a plotters `DrawingBackend`: the canvas in
//! the browser, SVG natively. Scenarios describe charts as [`ChartSpec`]s and
//! [`draw_chart`] renders any of them.

pub mod draw;
mod footer;
mod legend;
pub mod spec;
mod style;
#[cfg(test)]
mod tests;

pub use draw::{chart_svg, draw_chart, PlotError};
pub use footer::chart_svg_with_footer;
pub use spec::{
    mean_points, readable_points, spread_points, ChartLayout, ChartSpec, LineStyle, ReadablePoint,
    Series, PIN_COLOR_BASE,
};
pub use style::Hue;
