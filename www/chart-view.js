// One chart of a scenario (Rust `ChartInfo`: id, name, alt, caption, toggle):
// its canvas, the tools under it (log/linear per axis, an optional series
// toggle, PNG and SVG export), a readout of the point nearest the pointer or
// the keyboard focus, its caption and the table of its numbers. Drawing and
// the pixel of every readable point come from Rust (`draw_chart`); this class
// keeps what was drawn and answers the reader.
import { draw_chart, chart_svg } from './pkg/dp_explorer.js';
import { describeDrawn } from './chart-contract.js';
import { fmt, shortLabel } from './format.js';
import { fillTable, collapseLong } from './tables.js';
import { download, downloadBlob } from './download.js';
import { pngWithFooter, svgFooter } from './export-statement.js'; // risk change: the statement's footer line
import { claimsList, showClaims } from './claims.js';

const READOUT_PROMPT = 'Point at the chart, or focus it and use the arrow keys, to read the nearest value.';

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

// ---------- pinned runs ----------
// A pinned run's curves are drawn behind the live ones, solid, in a colour no
// live series has (src/plot/spec.rs PIN_COLOR_BASE + its slot: black squares,
// wine triangles, olive diamonds), named with the settings in which it differs
// from the results shown.
export const PIN_COLOR_BASE = 100;
const PIN_LOOKS = ['black, with squares', 'wine red, with triangles', 'olive, with diamonds'];
const MAX_PINS = PIN_LOOKS.length;

/**
 * The settings in which run `a` ({ preset, fields }) differs from `b`, as "users n = 4000, clip ψ = 5"
 * ('' when none); `label(key)` gives a setting's label (the key itself without one).
 */
export function differences(a, b, label = (k) => k) {
  const short = (v) => { const t = String(v); return t.length > 24 ? `${t.slice(0, 23)}…` : t; };
  const out = [];
  if (b && a.preset !== b.preset) out.push(`preset = ${short(a.preset)}`);
  const keys = [...new Set([...Object.keys(a.fields || {}), ...Object.keys((b && b.fields) || {})])];
  for (const k of keys) {
    const [x, y] = [a.fields[k], b && b.fields ? b.fields[k] : undefined];
    if (x !== undefined && String(x) !== String(y)) out.push(`${label(k)} = ${short(x)}`);
  }
  const SHOWN = 3;
  return out.length > SHOWN ? `${out.slice(0, SHOWN).join(', ')} +${out.length - SHOWN} more` : out.join(', ');
}

export class Pins {
  constructor() { this.list = []; }

  get size() { return this.list.length; }

  /** Keeps a finished run ({ preset, fields }) and its curves per chart id; past MAX_PINS the oldest goes. */
  add(scenario, run, series) {
    if (this.list.length >= MAX_PINS) this.list.shift();
    const used = new Set(this.list.map((p) => p.slot));
    const slot = [...PIN_LOOKS.keys()].find((k) => !used.has(k));
    const pin = { scenario, run: { preset: run.preset, fields: { ...run.fields } }, series, slot };
    this.list.push(pin);
    return pin;
  }

  clear() { this.list = []; }

  /** How pin `pin` is drawn, in words. */
  static looks(pin) { return PIN_LOOKS[pin.slot]; }

  /**
   * `spec` of chart `chartId` with the pinned runs of `scenario` behind its
   * curves, each named with what differs from `current` (the run shown, the settings by their
   * labels: `label(key)`); series whose name starts with `skip` are left out.
   */
  decorate(scenario, chartId, spec, current, skip, label) {
    const old = [];
    for (const p of this.list) {
      if (p.scenario !== scenario || !p.series[chartId]) continue;
      const diff = current ? differences(p.run, current, label) : '';
      const tag = ` (pinned): ${diff || 'same settings'}`;
      for (const s of p.series[chartId]) {
        if (skip && s.name.startsWith(skip)) continue;
        old.push({ ...s, name: `${s.name}${tag}`, color: PIN_COLOR_BASE + p.slot, faded: false, band: [] });
      }
    }
    return old.length ? { ...spec, series: [...old, ...(spec.series || [])] } : spec;
  }
}

export class ChartView {
  /**
   * @param {object} info ChartInfo
   * @param {object} o
   * @param {() => number} o.textScale multiplier of fonts and lines (large text)
   * @param {(id: string, spec: object) => object} o.decorate the spec as shown (pinned runs)
   * @param {(view: ChartView, ctx: CanvasRenderingContext2D) => void} [o.afterDraw] draws over each drawn chart
   */
  constructor(info, o) {
    this.info = info;
    this.id = info.id;
    this.o = o;
    this.spec = null; // the spec last given (before the axis choices, toggle, pins)
    this.shown = null; // the spec as drawn
    this.points = [];
    this.image = null;
    this.focus = null;
    this.axis = {}; // the reader's log/linear choice per axis (undefined: the spec's)
    this.reveal = null; // playing rounds: the last x shown (null: every point)
    this.timer = null;
    this.figure = this.build();
  }

  build() {
    const { id, name, alt, caption } = this.info;
    const figure = document.createElement('figure');
    figure.className = 'chart';
    const canvas = document.createElement('canvas');
    canvas.id = id;
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', alt);
    canvas.tabIndex = 0;
    canvas.setAttribute('aria-describedby', `${id}-readout`);
    // Created before plotters asks, so that the readout's pixel copies stay cheap.
    canvas.getContext('2d', { willReadFrequently: true });
    this.canvas = canvas;

    const tools = document.createElement('div');
    tools.className = 'chart-tools';
    tools.setAttribute('role', 'group');
    tools.setAttribute('aria-label', `${name}: axes and export`);
    const box = (suffix, text, onChange, checked = false) => {
      const label = document.createElement('label');
      label.className = 'inline';
      const input = document.createElement('input');
      input.type = 'checkbox';
      input.id = `${id}-${suffix}`;
      input.checked = checked;
      input.addEventListener('change', () => onChange(input.checked));
      label.append(input, ` ${text}`);
      tools.append(label);
      return input;
    };
    this.logx = box('logx', 'log x axis', (on) => { this.axis.log_x = on; this.redraw(); });
    this.logy = box('logy', 'log y axis', (on) => { this.axis.log_y = on; this.redraw(); });
    if (this.info.toggle) {
      this.toggle = box('toggle', this.info.toggle[1], () => this.redraw(), true);
    }
    const button = (suffix, text, onClick) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.id = `${id}-${suffix}`;
      b.className = 'chart-export';
      b.textContent = text;
      b.disabled = true;
      b.addEventListener('click', onClick);
      tools.append(b);
      return b;
    };
    if (this.info.animate) {
      this.play = button('play', 'Play rounds', () => this.togglePlay());
      this.stepButton = button('step', 'Next round', () => this.stepRound());
      this.play.disabled = false;
      this.stepButton.disabled = false;
    }
    this.exports = [
      button('png', `Save ${name} as PNG`, () => this.exportPng()),
      button('svg', `Save ${name} as SVG`, () => this.exportSvg()),
    ];
    const readout = document.createElement('p');
    readout.className = 'readout';
    readout.id = `${id}-readout`;
    readout.setAttribute('aria-live', 'polite');
    readout.textContent = READOUT_PROMPT;
    this.readout = readout;

    const cap = document.createElement('figcaption');
    cap.textContent = caption;
    // The caption's claims, marked after each finished run.
    this.claims = claimsList(this.info.claims || []);
    cap.append(this.claims);

    const tableId = id.replace(/-chart$/, '') + '-table';
    const wrap = document.createElement('div');
    wrap.className = 'table-wrap';
    wrap.tabIndex = 0;
    wrap.setAttribute('role', 'region');
    wrap.setAttribute('aria-labelledby', `${tableId}-caption`);
    const table = document.createElement('table');
    table.id = tableId;
    const tcap = document.createElement('caption');
    tcap.id = `${tableId}-caption`;
    tcap.textContent = `The numbers of the ${name}`;
    table.append(tcap, document.createElement('thead'), document.createElement('tbody'));
    wrap.append(table);
    this.table = table;
    // The table behind a summary once it is long (a row per round), so the
    // page stays short; open while it is short, or as the reader left it.
    const details = document.createElement('details');
    details.className = 'chart-table';
    details.open = true;
    const summary = document.createElement('summary');
    summary.textContent = `Table: the numbers of the ${name}`;
    summary.addEventListener('click', () => { details.dataset.chosen = '1'; });
    details.append(summary, wrap);
    this.details = details;

    figure.append(canvas, tools, readout, cap, details);

    canvas.addEventListener('pointermove', (e) => this.onPointer(e));
    canvas.addEventListener('pointerdown', (e) => this.onPointer(e));
    canvas.addEventListener('pointerleave', () => this.clearHighlight());
    canvas.addEventListener('keydown', (e) => this.onKey(e));
    canvas.addEventListener('focus', () => { if (this.points.length) this.highlight(this.focus ?? 0); });
    canvas.addEventListener('blur', () => this.clearHighlight());
    return figure;
  }

  /** Marks the caption's claims with a finished run's verdicts (null: none yet). */
  showClaims(verdicts, texts) {
    showClaims(this.claims, verdicts, texts);
  }

  setExportsEnabled(on) {
    for (const b of this.exports) b.disabled = !on;
  }

  /** Fills the table under the chart (a Rust `Table`). */
  showTable(t) {
    if (t) fillTable(this.table, t);
    else {
      this.table.querySelector('thead').replaceChildren();
      this.table.querySelector('tbody').replaceChildren();
    }
    collapseLong(this.details, t ? t.rows.length : 0, `the numbers of the ${this.info.name}`);
  }

  /** The distinct x of the curves (rounds), ascending. */
  rounds() {
    const xs = new Set();
    for (const s of (this.spec && this.spec.series) || []) {
      if (!s.horizontal) for (const [x] of s.points) if (Number.isFinite(x)) xs.add(x);
    }
    return [...xs].sort((a, b) => a - b);
  }

  /** Shows the curves up to the next round (from the first after the last). */
  stepRound() {
    const xs = this.rounds();
    if (!xs.length) return;
    const next = this.reveal === null ? xs[0] : xs.find((x) => x > this.reveal);
    this.reveal = next === undefined || next === xs[xs.length - 1] ? null : next;
    if (this.reveal === null) this.stopPlay();
    this.readout.textContent = this.reveal === null ? 'Every round shown.' : `Rounds up to ${fmt(this.reveal)} shown.`;
    this.redraw();
  }

  togglePlay() {
    if (this.timer) {
      this.stopPlay();
      return;
    }
    this.reveal = null;
    this.play.textContent = 'Pause';
    this.stepRound();
    this.timer = setInterval(() => this.stepRound(), 400);
  }

  stopPlay() {
    clearInterval(this.timer);
    this.timer = null;
    if (this.play) this.play.textContent = 'Play rounds';
  }

  /** The spec as shown: the axis choices, the toggle, the pins and the rounds played applied. */
  shownSpec(spec) {
    let series = spec.series || [];
    if (this.reveal !== null) {
      const last = this.reveal;
      series = series.map((s) => (s.horizontal ? s : {
        ...s,
        points: s.points.filter(([x]) => x <= last),
        band: (s.band || []).filter(([x]) => x <= last),
      }));
    }
    if (this.toggle && !this.toggle.checked) {
      series = series.filter((s) => !s.name.startsWith(this.info.toggle[0]));
    }
    const decorated = this.o.decorate(this.id, { ...spec, series });
    return {
      ...decorated,
      log_x: this.axis.log_x ?? spec.log_x,
      log_y: this.axis.log_y ?? spec.log_y,
    };
  }

  /** Draws `spec`; a chart that would come out exactly as it is on the canvas (the same spec as
   * shown, size and scale: a progress report that changed another chart) is not drawn again. */
  draw(spec) {
    this.spec = spec;
    this.redraw({ unlessUnchanged: true });
  }

  /**
   * Before the wasm module has loaded (which draws every chart): the chart's
   * title and axis names on the canvas, at the size the chart will have, so
   * the page does not move when the module draws it.
   */
  placeholder(spec) {
    this.pending = spec;
    const canvas = this.canvas;
    const rect = canvas.getBoundingClientRect();
    if (rect.width === 0) return;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.max(200, Math.round(rect.width * dpr));
    canvas.height = Math.max(150, Math.round(rect.height * dpr));
    const ctx = canvas.getContext('2d');
    const scale = chartScale(this.o.textScale(), rect.width, rect.height);
    const px = dpr * scale;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = '#333';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.font = `${Math.round(18 * px)}px sans-serif`;
    ctx.fillText(spec.title, canvas.width / 2, 8 * px, canvas.width - 16 * px);
    ctx.font = `${Math.round(14 * px)}px sans-serif`;
    ctx.textBaseline = 'bottom';
    ctx.fillText(spec.x_label, canvas.width / 2, canvas.height - 6 * px, canvas.width - 16 * px);
    ctx.save();
    ctx.translate(6 * px, canvas.height / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textBaseline = 'top';
    ctx.fillText(spec.y_label, 0, 0, canvas.height - 16 * px);
    ctx.restore();
    // The smallest text drawn (the axis names), in CSS px, as a drawn chart says it (chart-contract.js).
    canvas.dataset.scale = scale.toFixed(3);
    canvas.dataset.minFontPx = (Math.round(14 * px) * (rect.width / canvas.width)).toFixed(2);
  }

  /** Draws the chart again (with `unlessUnchanged`: only if it would differ from the drawn one). */
  redraw({ unlessUnchanged = false } = {}) {
    if (!this.spec) {
      if (this.pending) this.placeholder(this.pending);
      return;
    }
    const canvas = this.canvas;
    const dpr = window.devicePixelRatio || 1;
    const rect = canvas.getBoundingClientRect();
    if (rect.width === 0) return; // hidden: drawn when shown
    const w = Math.max(200, Math.round(rect.width * dpr));
    const h = Math.max(150, Math.round(rect.height * dpr));
    if (canvas.width !== w) canvas.width = w;
    if (canvas.height !== h) canvas.height = h;
    const shown = this.shownSpec(this.spec);
    const skip = this.info.toggle ? [this.info.toggle[0]] : [];
    const scale = chartScale(this.o.textScale(), rect.width, rect.height);
    const key = JSON.stringify([w, h, dpr, scale, skip, shown]);
    if (unlessUnchanged && key === this.drawnKey) return;
    this.drawnKey = null;
    try {
      const { points, layout } = draw_chart(canvas, shown, dpr * scale, skip);
      this.drawnKey = key;
      this.shown = shown;
      this.points = points;
      this.dpr = dpr;
      this.layout = layout;
      this.scale = scale;
      // What was drawn, in CSS px: ticks, plot area, smallest text (tests read them).
      canvas.dataset.scale = scale.toFixed(3);
      describeDrawn(canvas, layout, rect);
      // The page's overlay on the drawn chart (main.js: the selected ε), kept under the pointer's ring.
      if (this.o.afterDraw) this.o.afterDraw(this, canvas.getContext('2d'));
      // The drawn chart's pixels, under a ring the pointer draws: copied when a ring is first drawn.
      this.image = null;
      if (this.focus !== null && this.focus >= points.length) this.focus = null;
      this.logx.checked = !!shown.log_x;
      this.logy.checked = !!shown.log_y;
      if (this.focus !== null) this.highlight(this.focus, false);
    } catch (e) {
      console.error(e);
    }
  }

  readoutText(p) {
    const spec = this.shown;
    const y = `${shortLabel(spec.y_label)} ${fmt(p.y, 3)}`;
    if (p.horizontal) return `${p.name}: ${y} (the same at every ${shortLabel(spec.x_label)})`;
    return `${p.name}, ${shortLabel(spec.x_label)} = ${fmt(p.x, 4)}: ${y}`;
  }

  /** Rings point `i` on the canvas and reads it out. */
  highlight(i, announce = true) {
    const p = this.points[i];
    if (!p || !this.shown) return;
    this.focus = i;
    const ctx = this.canvas.getContext('2d');
    // No ring is on the canvas until this copy is taken, so it holds the chart alone.
    if (!this.image) this.image = ctx.getImageData(0, 0, this.canvas.width, this.canvas.height);
    else ctx.putImageData(this.image, 0, 0);
    const r = this.dpr * (this.scale || 1);
    ctx.save();
    ctx.lineWidth = 2.5 * this.dpr;
    ctx.strokeStyle = '#000';
    ctx.beginPath();
    ctx.arc(p.px, p.py, 7 * r, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.strokeStyle = '#fff';
    ctx.lineWidth = this.dpr;
    ctx.beginPath();
    ctx.arc(p.px, p.py, 9 * r, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.restore();
    if (announce) this.readout.textContent = this.readoutText(p);
  }

  clearHighlight() {
    if (this.image) this.canvas.getContext('2d').putImageData(this.image, 0, 0);
  }

  onPointer(e) {
    if (!this.points.length) return;
    const rect = this.canvas.getBoundingClientRect();
    const px = (e.clientX - rect.left) * (this.canvas.width / rect.width);
    const py = (e.clientY - rect.top) * (this.canvas.height / rect.height);
    let best = null;
    let bestD = Infinity;
    this.points.forEach((p, i) => {
      // A horizontal line is as near as its vertical distance.
      const d = p.horizontal ? Math.abs(p.py - py) * 1.5 : Math.hypot(p.px - px, p.py - py);
      if (d < bestD) { bestD = d; best = i; }
    });
    if (best !== null) this.highlight(best);
  }

  // Arrow keys: left/right along a series, up/down to the nearest point of the
  // next/previous series; Home/End: first/last point; Escape: hide the ring.
  onKey(e) {
    const pts = this.points;
    if (!pts.length) return;
    let i = this.focus ?? 0;
    const cur = pts[i];
    const same = (j) => pts[j].series === cur.series;
    switch (e.key) {
      case 'ArrowRight': if (i + 1 < pts.length && same(i + 1)) i += 1; break;
      case 'ArrowLeft': if (i > 0 && same(i - 1)) i -= 1; break;
      case 'ArrowDown':
      case 'ArrowUp': {
        const series = [...new Set(pts.map((p) => p.series))];
        const k = series.indexOf(cur.series) + (e.key === 'ArrowDown' ? 1 : -1);
        const target = series[(k + series.length) % series.length];
        let best = i;
        let bestD = Infinity;
        pts.forEach((p, j) => {
          if (p.series !== target) return;
          const d = Math.abs(p.px - cur.px);
          if (d < bestD) { bestD = d; best = j; }
        });
        i = best;
        break;
      }
      case 'Home': i = 0; break;
      case 'End': i = pts.length - 1; break;
      case 'Escape': this.clearHighlight(); this.focus = null; e.stopPropagation(); return;
      default: return;
    }
    e.preventDefault();
    this.highlight(i);
  }

  /** The canvas as drawn (device pixels), without the ring. */
  exportPng() {
    this.clearHighlight();
    pngWithFooter(this.canvas, (blob) => { // risk change: with the statement's footer line
      if (!blob) return;
      downloadBlob(`${this.id}.png`, blob);
      if (this.focus !== null && document.activeElement === this.canvas) this.highlight(this.focus, false);
    });
  }

  /** The same chart drawn as SVG by the same Rust code. */
  exportSvg() {
    if (!this.spec) return;
    download(`${this.id}.svg`, 'image/svg+xml', chart_svg(this.shownSpec(this.spec), 900, 560, svgFooter())); // risk change: footer line
  }
}
