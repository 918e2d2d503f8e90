// The (FPR, TPR) picture of an ε spent: the region every membership test on a
// run's output must stay in (its upper edge computed in Rust,
// privacy::attacker), the exact Gaussian curve when the run has one, the
// coin-flip diagonal, and the audit's attack points when an audit ran. Inline
// SVG sized in em, so large text scales it too.
const NS = 'http://www.w3.org/2000/svg';
const SIZE = 100; // view-box units; the plot is the unit square scaled to it

function el(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

const xy = ([f, t]) => `${(f * SIZE).toFixed(2)},${((1 - t) * SIZE).toFixed(2)}`;

/**
 * An <svg> for one reading { region, gaussian_curve, epsilon, delta }; `attacks`
 * is a list of { fpr, tpr, label } drawn as points (the audit's attack).
 */
export function attackRegion(reading, attacks = []) {
  const pad = 14;
  const svg = el('svg', {
    viewBox: `${-pad} ${-4} ${SIZE + pad + 6} ${SIZE + pad + 6}`,
    class: 'attack-region',
    role: 'img',
    'aria-label': `Every membership test stays in the shaded region: true-positive rate at most `
      + `e^ε times the false-positive rate plus δ (ε = ${reading.epsilon.toPrecision(3)}).`,
  });
  svg.appendChild(el('rect', { x: 0, y: 0, width: SIZE, height: SIZE, class: 'frame' }));
  // The region between the coin-flip diagonal and the bound's upper edge.
  const edge = reading.region.map(xy).join(' ');
  svg.appendChild(el('polygon', { points: `${edge} ${xy([1, 1])} ${xy([0, 0])}`, class: 'region' }));
  svg.appendChild(el('polyline', { points: edge, class: 'edge' }));
  if (reading.gaussian_curve.length) {
    svg.appendChild(el('polyline', { points: reading.gaussian_curve.map(xy).join(' '), class: 'gaussian' }));
  }
  svg.appendChild(el('line', { x1: 0, y1: SIZE, x2: SIZE, y2: 0, class: 'diagonal' }));
  for (const a of attacks) {
    const [cx, cy] = xy([a.fpr, a.tpr]).split(',');
    const dot = el('circle', { cx, cy, r: 2.6, class: 'attack' });
    dot.appendChild(el('title', {}, a.label));
    svg.appendChild(dot);
  }
  svg.appendChild(el('text', { x: SIZE / 2, y: SIZE + 11, 'text-anchor': 'middle' }, 'false-positive rate'));
  svg.appendChild(el('text', {
    x: -5, y: SIZE / 2, 'text-anchor': 'middle', transform: `rotate(-90 -5 ${SIZE / 2})`,
  }, 'true-positive rate'));
  return svg;
}

/** The legend under the picture, as text (what each mark is). */
export function attackLegend(reading, hasAttacks) {
  const parts = ['shaded: every possible membership test (bound by ε, δ)', 'diagonal: a coin flip'];
  if (reading.gaussian_curve.length) parts.splice(1, 0, 'line: the exact bound of this run\'s Gaussian noise');
  if (hasAttacks) parts.push('dots: the audit\'s attack');
  return parts.join('; ') + '.';
}
