//! Charts written once, generic over a plotters `DrawingBackend`: the canvas in
//! the browser, SVG natively.
