//! Charts written once, generic over a plotters `DrawingBackend`: the canvas in
//! the browser, SVG natively. Scenarios describe charts as [`ChartSpec`]s.

pub mod spec;

pub use spec::{ChartSpec, LineStyle, Series};
