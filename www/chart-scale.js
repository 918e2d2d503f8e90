// The scale a chart is drawn at: the page's text scale, raised on a large canvas in large text.
// Large text is for a projector: the charts' smallest text (13 px at scale 1,
// src/plot/draw.rs TICK_FONT and LEGEND_FONT) is drawn at least LARGE_CHART_PX
// CSS px where the canvas is wide and tall enough (CHART_PX_PER_SCALE CSS px
// across, CHART_HEIGHT_PER_SCALE down, per unit of scale: a short canvas keeps
// room for its plot), and never smaller than the page's own text scale (a phone).
const SMALLEST_CHART_FONT = 13;
const LARGE_CHART_PX = 28.5;
const CHART_PX_PER_SCALE = 300;
const CHART_HEIGHT_PER_SCALE = 280;

/** The scale a chart `cssWidth` × `cssHeight` CSS px is drawn at, for the page's text scale. */
export function chartScale(textScale, cssWidth, cssHeight = Infinity) {
  if (textScale <= 1) return 1;
  const want = LARGE_CHART_PX / SMALLEST_CHART_FONT;
  return Math.max(textScale, Math.min(want, cssWidth / CHART_PX_PER_SCALE, cssHeight / CHART_HEIGHT_PER_SCALE));
}
