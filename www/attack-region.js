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

const TICKS = [0, 0.25, 0.5, 0.75, 1];
const tickText = (v) => (v === 0 || v === 1 ? String(v) : String(v).replace(/^0/, ''));

/**
 * An <svg> for one reading { region, gaussian_curve, epsilon, delta }; `attacks`
 * is a list of { fpr, tpr, label } drawn as points (the audit's attack). Both
 * axes carry ticks at 0, .25, .5, .75 and 1.
 */
export function attackRegion(reading, attacks = []) {
  const left = 22;
  const below = 20;
  const svg = el('svg', {
    viewBox: `${-left} ${-5} ${SIZE + left + 8} ${SIZE + below + 5}`,
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
  const ticks = el('g', { class: 'ticks' });
  for (const v of TICKS) {
    const at = v * SIZE;
    ticks.appendChild(el('line', { x1: at, y1: SIZE, x2: at, y2: SIZE + 2, stroke: '#555', 'stroke-width': 0.5 }));
    ticks.appendChild(el('text', { x: at, y: SIZE + 8, 'text-anchor': 'middle', 'font-size': 6 }, tickText(v)));
    ticks.appendChild(el('line', { x1: -2, y1: SIZE - at, x2: 0, y2: SIZE - at, stroke: '#555', 'stroke-width': 0.5 }));
    ticks.appendChild(el('text', { x: -3, y: SIZE - at + 2, 'text-anchor': 'end', 'font-size': 6 }, tickText(v)));
  }
  svg.appendChild(ticks);
  svg.appendChild(el('text', { x: SIZE / 2, y: SIZE + 17, 'text-anchor': 'middle' }, 'false-positive rate (FPR)'));
  svg.appendChild(el('text', {
    x: -15, y: SIZE / 2, 'text-anchor': 'middle', transform: `rotate(-90 -15 ${SIZE / 2})`,
  }, 'true-positive rate (TPR)'));
  return svg;
}

/** A short line (or a dot) in the picture's style, for the legend. */
function swatch(kind) {
  const s = el('svg', { viewBox: '0 0 20 8', width: '2em', height: '0.8em', 'aria-hidden': 'true', class: 'swatch' });
  const styles = {
    region: { fill: '#d9822b', 'fill-opacity': 0.35 },
    edge: { stroke: '#b35900', 'stroke-width': 2 },
    gaussian: { stroke: '#1f4e9c', 'stroke-width': 2, 'stroke-dasharray': '4 2' },
    diagonal: { stroke: '#555', 'stroke-width': 1, 'stroke-dasharray': '2 2' },
    attack: { fill: '#111' },
  };
  if (kind === 'region') s.appendChild(el('rect', { x: 0, y: 0, width: 20, height: 8, ...styles.region }));
  else if (kind === 'attack') s.appendChild(el('circle', { cx: 10, cy: 4, r: 3, ...styles.attack }));
  else s.appendChild(el('line', { x1: 0, y1: 4, x2: 20, y2: 4, ...styles[kind] }));
  return s;
}

/**
 * The legend under the picture: each mark with its swatch and its name, as a
 * <figcaption> (its text alone says what each mark is).
 */
export function attackLegend(reading, hasAttacks) {
  const items = [
    ['region', 'shaded: where every possible membership test lies, by (ε, δ)'],
    ['edge', 'solid orange line: its edge, TPR ≤ e^ε × FPR + δ'],
  ];
  if (reading.gaussian_curve.length) {
    items.push(['gaussian', 'dashed blue line: the exact bound of this run\'s Gaussian noise (tighter)']);
  }
  items.push(['diagonal', 'dotted diagonal: a coin flip']);
  if (hasAttacks) items.push(['attack', 'dots: the audit\'s attack']);
  const cap = document.createElement('figcaption');
  const ul = document.createElement('ul');
  ul.className = 'attack-legend';
  ul.style.listStyle = 'none';
  ul.style.padding = '0';
  ul.style.margin = '0';
  items.forEach(([kind, text], i) => {
    const li = document.createElement('li');
    li.append(swatch(kind), ` ${text}${i === items.length - 1 ? '.' : ';'}`);
    ul.appendChild(li);
  });
  cap.appendChild(ul);
  return cap;
}
