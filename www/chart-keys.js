// Reading a drawn chart by pointer and keys: which of its points (Rust's, in device pixels) the
// pointer is nearest, and where an arrow key goes from the focused one. ChartView rings and reads it.

/** The index of the point nearest (px, py) (device pixels), or null without points. */
export function nearestPoint(points, px, py) {
  let best = null;
  let bestD = Infinity;
  points.forEach((p, i) => {
    // A horizontal line is as near as its vertical distance.
    const d = p.horizontal ? Math.abs(p.py - py) * 1.5 : Math.hypot(p.px - px, p.py - py);
    if (d < bestD) { bestD = d; best = i; }
  });
  return best;
}

/**
 * The point key `key` moves the focus to from point `i` (null: not a key of the chart's). Arrow keys:
 * left/right along a series, up/down to the nearest point of the next/previous series; Home/End: the
 * first/last point.
 */
export function pointAfterKey(pts, i, key) {
  const cur = pts[i];
  const same = (j) => pts[j].series === cur.series;
  switch (key) {
    case 'ArrowRight': return i + 1 < pts.length && same(i + 1) ? i + 1 : i;
    case 'ArrowLeft': return i > 0 && same(i - 1) ? i - 1 : i;
    case 'ArrowDown':
    case 'ArrowUp': {
      const series = [...new Set(pts.map((p) => p.series))];
      const k = series.indexOf(cur.series) + (key === 'ArrowDown' ? 1 : -1);
      const target = series[(k + series.length) % series.length];
      let best = i;
      let bestD = Infinity;
      pts.forEach((p, j) => {
        if (p.series !== target) return;
        const d = Math.abs(p.px - cur.px);
        if (d < bestD) { bestD = d; best = j; }
      });
      return best;
    }
    case 'Home': return 0;
    case 'End': return pts.length - 1;
    default: return null;
  }
}
