// What a drawn chart says of itself on its canvas, for tests and tools (the numbers come from
// Rust's drawing, `Drawn.layout`): the tick labels drawn, as numbers (`data-x-ticks`, left to
// right; `data-y-ticks`, bottom to top), the plot area in CSS px from the canvas's top left corner
// (`data-plot`: "x y width height"), and the smallest text drawn in CSS px (`data-min-font-px`).

/** Writes `layout` (canvas pixels, drawn on `canvas` of CSS size `rect`) onto the canvas's data attributes. */
export function describeDrawn(canvas, layout, rect) {
  const kx = rect.width / canvas.width;
  const ky = rect.height / canvas.height;
  const d = canvas.dataset;
  d.xTicks = layout.x_ticks.join(' ');
  d.yTicks = layout.y_ticks.join(' ');
  d.plot = [layout.left * kx, layout.top * ky, (layout.right - layout.left) * kx, (layout.bottom - layout.top) * ky]
    .map((v) => v.toFixed(1)).join(' ');
  d.minFontPx = (layout.min_font_px * kx).toFixed(2);
}
