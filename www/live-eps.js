// The selected ε on the charts whose x axis is ε: a vertical marker through
// the plot area at the ε the slider selected (form.js), the points at it
// ringed, and the values at it in words. Which charts: those whose drawn x
// label names ε (no scenario is named here). Drawn over the chart by
// ChartView's `afterDraw`, from the plot area and points Rust reported.
// When risks drive the run, Rust (scenarios/risk_axis.rs) draws those charts
// against the attacker's success instead, and the slider is the risks' list:
// the marker and readout are then in risk units, with the ε named beside it
// (the snapshot's `risk_axis`: each risk with the target ε it stands for).
import { fmt, shortLabel } from './format.js';

/** How Rust labels an ε chart's x axis when risks drive the run. */
const RISK_AXIS = /^attacker's success/;

/** Whether a drawn chart's x axis is ε, or the attacker's success that stands for it. */
export function plotsEpsilon(view) {
  return !!(view.shown && (/ε/.test(view.shown.x_label) || RISK_AXIS.test(view.shown.x_label)));
}

/** Whether a drawn chart's x axis is the attacker's success. */
function plotsRisk(view) {
  return RISK_AXIS.test(view.shown.x_label);
}

/**
 * The selected x in the chart's units: "ε = 4", or "attacker's success 0.2 (ε = 7.71)" on the risk
 * axis (`riskAxis`: [risk, ε] pairs of the run shown; the ε left out for a risk not run yet).
 */
export function selectedLabel(view, x, riskAxis = []) {
  if (!plotsRisk(view)) return `ε = ${fmt(x, 3)}`;
  const pair = (riskAxis || []).find(([r]) => same(r, x));
  return `attacker's success ${fmt(x, 3)}${pair ? ` (ε = ${fmt(pair[1], 3)})` : ''}`;
}

/** Whether the slider of list setting `name` selects the x of this chart (the risks' on the risk axis). */
export function marksSelected(view, name) {
  return plotsEpsilon(view) && (name === 'risks') === plotsRisk(view);
}

/** Equal as list values (the list's text and the points' x went through the same parse). */
function same(a, b) {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** The pixel column of data x on the drawn chart, or null outside its plot area. */
function column(layout, x) {
  const t = layout.log_x ? (x > 0 ? Math.log10(x) : NaN) : x;
  const f = (t - layout.x_min) / (layout.x_max - layout.x_min);
  if (!(f >= -1e-9 && f <= 1 + 1e-9)) return null;
  return layout.left + f * (layout.right - layout.left);
}

/**
 * Draws the marker of ε = `x` (named `label`) over a drawn chart (device pixels; `scale`: the
 * device pixel ratio times the text scale). Nothing when the chart is not
 * against ε or `x` is off its axis.
 */
export function drawMarker(view, ctx, x, scale, label = `ε = ${fmt(x, 3)}`) {
  if (x === null || !view.layout || !plotsEpsilon(view)) return;
  const L = view.layout;
  const px = column(L, x);
  if (px === null) return;
  ctx.save();
  // A soft band with a dark line: visible over any series colour.
  ctx.fillStyle = 'rgba(245, 166, 35, 0.22)';
  ctx.fillRect(px - 7 * scale, L.top, 14 * scale, L.bottom - L.top);
  ctx.strokeStyle = '#1a1a1a';
  ctx.lineWidth = 1.5 * scale;
  ctx.setLineDash([6 * scale, 4 * scale]);
  ctx.beginPath();
  ctx.moveTo(px, L.top);
  ctx.lineTo(px, L.bottom);
  ctx.stroke();
  ctx.setLineDash([]);
  // The points at the selected ε, ringed (black with a white halo, like the reader's ring).
  for (const p of view.points) {
    if (p.horizontal || !same(p.x, x)) continue;
    ctx.strokeStyle = '#fff';
    ctx.lineWidth = 4 * scale;
    ctx.beginPath();
    ctx.arc(p.px, p.py, 7 * scale, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.strokeStyle = '#1a1a1a';
    ctx.lineWidth = 2 * scale;
    ctx.stroke();
  }
  // Its value, at the top of the line, on the side with room.
  ctx.font = `600 ${Math.round(13 * scale)}px sans-serif`;
  const w = ctx.measureText(label).width;
  const right = px + 10 * scale + w <= L.right;
  const tx = right ? px + 10 * scale : px - 10 * scale - w;
  ctx.fillStyle = 'rgba(255, 255, 255, 0.85)';
  ctx.fillRect(tx - 3 * scale, L.top + 3 * scale, w + 6 * scale, 17 * scale);
  ctx.fillStyle = '#1a1a1a';
  ctx.textBaseline = 'top';
  ctx.fillText(label, tx, L.top + 5 * scale);
  ctx.restore();
}

/**
 * Fills `el` with the values a drawn ε chart shows at ε = `x` (named `eps`), in words: each curve's point at
 * it and each reference line (each value kept on one line); or why there are none yet.
 */
export function showValuesAt(el, view, x, running, eps = `ε = ${fmt(x, 3)}`) {
  if (!view || !view.shown) {
    el.textContent = '';
    return;
  }
  const what = shortLabel(view.shown.y_label);
  const at = view.points.filter((p) => p.horizontal || same(p.x, x));
  if (!at.some((p) => !p.horizontal)) {
    el.textContent = running
      ? `${eps}: being computed (the curves keep their other points meanwhile).`
      : `${eps} has no point on the ${view.info.name} yet: it is added to the list when the slider is released; run to compute it.`;
    return;
  }
  // A run replacing earlier results draws those faded, named "… (previous run)" (main.js).
  const PREVIOUS = ' (previous run)';
  const allOld = at.every((p) => p.name.endsWith(PREVIOUS));
  const items = at.map((p) => {
    const old = p.name.endsWith(PREVIOUS);
    const name = old ? p.name.slice(0, -PREVIOUS.length) : p.name;
    // The number on one line (1.04e-4 must not break at its minus).
    const value = document.createElement('span');
    value.className = 'value-at';
    value.textContent = fmt(p.y, 3);
    return [`${name} `, value, old && !allOld ? ' (previous run)' : ''];
  });
  const lead = allOld ? `At ${eps}, ${what} of the previous run (being recomputed): ` : `At ${eps}, ${what}: `;
  el.replaceChildren(lead, ...items.flatMap((item, i) => (i ? ['; ', ...item] : item)), '.');
}
