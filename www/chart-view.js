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
import { nearestPoint, pointAfterKey } from './chart-keys.js';
import { chartScale } from './chart-scale.js';

const READOUT_PROMPT = 'Point at the chart, or focus it and use the arrow keys, to read the nearest value.';

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
    // The series toggle's choice is kept here (never read back from its box): on, every series shown.
    this.toggleOn = true;
    if (this.info.toggle) {
      this.toggle = box('toggle', this.info.toggle[1], (on) => { this.toggleOn = on; this.redraw(); }, true);
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
    this.tableRows = t ? t.rows.length : 0; // what the table shows now (main.js keeps a longer one while a run replaces it)
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
    if (this.toggle && !this.toggleOn) {
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
    const rect = this.canvas.getBoundingClientRect();
    const px = (e.clientX - rect.left) * (this.canvas.width / rect.width);
    const py = (e.clientY - rect.top) * (this.canvas.height / rect.height);
    const best = nearestPoint(this.points, px, py);
    if (best !== null) this.highlight(best);
  }

  onKey(e) {
    if (!this.points.length) return;
    if (e.key === 'Escape') {
      this.clearHighlight();
      this.focus = null;
      e.stopPropagation();
      return;
    }
    const i = pointAfterKey(this.points, this.focus ?? 0, e.key);
    if (i === null) return;
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
