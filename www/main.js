// Main thread: the form, the URL state, drawing and tables. All computation runs
// in worker.js; validation and chart drawing call the same Rust code (wasm).
import init, {
  preset_fields, preset_scenario, validate_fields, draw_chart, chart_svg, merge_fedrep_results,
} from './pkg/dp_explorer.js';
import { SweepPool, defaultPoolSize } from './pool.js';

const $ = (id) => document.getElementById(id);
const form = $('config');
const body = document.body;

let fieldNames = [];        // config field names of the current scenario, in the page's order
let scenario = 'fedrep';    // 'fedrep' (Private FedRep) or 'dpgd' (DP-GD on random features)
let lastSnapshot = null;    // the latest snapshot from the worker
let lastCsv = null;
const pool = makePool();
let running = false;

// ---------- status ----------
function setStatus(status, text) {
  body.dataset.status = status;
  $('status').textContent = text;
  $('run').disabled = status === 'running' || status === 'loading';
  $('stop').disabled = status !== 'running';
}

function showError(message) {
  const el = $('error');
  if (message) {
    el.textContent = message;
    el.hidden = false;
  } else {
    el.textContent = '';
    el.hidden = true;
  }
}

// ---------- fields and URL ----------
function currentPreset() { return $('preset').value; }

function readFields() {
  const out = {};
  for (const name of fieldNames) {
    const el = $(name);
    if (el) out[name] = el.value;
  }
  return out;
}

function fillFields(pairs) {
  for (const [name, value] of pairs) {
    const el = $(name);
    if (!el) continue;
    if (el.tagName === 'SELECT' && ![...el.options].some((o) => o.value === value)) {
      // A value the select does not offer (e.g. from a URL): add it so that
      // validation can name it instead of silently dropping it.
      const opt = document.createElement('option');
      opt.value = value; opt.textContent = value;
      el.appendChild(opt);
    }
    el.value = value;
  }
}

// Canvas ids per scenario, in the order of the snapshot's `charts`.
const CHART_IDS = {
  fedrep: ['risk-chart', 'angle-chart'],
  dpgd: ['dpgd-eps-chart', 'dpgd-width-chart', 'dpgd-steps-chart', 'dpgd-rescaled-chart'],
};
const DPGD_TABLE_IDS = ['dpgd-eps-table', 'dpgd-width-table', 'dpgd-steps-table', 'dpgd-rescaled-table'];
// The `calibration` field is shared by name; its choices differ per scenario.
const CALIBRATIONS = {
  fedrep: [['exact', 'exact (GDP composition)'], ['paper', "paper's formula (App. B.4)"], ['authors-code', "authors' code formula"]],
  dpgd: [['prop32', "paper's Prop. 3.2"], ['exact', 'exact (GDP composition)']],
};

// Shows the fields, charts and texts of one scenario and hides the others'
// (hidden elements also leave the tab order).
function applyScenario(next) {
  const changed = next !== scenario;
  scenario = next;
  body.dataset.scenario = next;
  for (const el of document.querySelectorAll('[data-scenario]')) {
    if (el === body) continue;
    el.hidden = el.dataset.scenario !== next;
  }
  for (const el of document.querySelectorAll(`[data-label-${next}]`)) {
    el.textContent = el.getAttribute(`data-label-${next}`);
  }
  const cal = $('calibration');
  if (changed || cal.options.length === 0) {
    cal.replaceChildren(...CALIBRATIONS[next].map(([value, text]) => {
      const opt = document.createElement('option');
      opt.value = value; opt.textContent = text;
      return opt;
    }));
  }
  if (changed) {
    lastSnapshot = null;
    lastCsv = null;
    setExportsEnabled(false);
    $('privacy-content').replaceChildren(cell('p', 'Run a sweep to see its accounting.'));
    $('progress').value = 0;
  }
  return changed;
}

function loadPreset(name) {
  const pairs = preset_fields(name);
  fieldNames = pairs.map(([k]) => k);
  const changed = applyScenario(preset_scenario(name));
  fillFields(pairs);
  // Empty charts with the new scenario's axes (read from the fields just filled).
  if (changed) drawEmptyCharts();
}

function writeUrl() {
  const params = new URLSearchParams();
  params.set('preset', currentPreset());
  const fields = readFields();
  for (const name of fieldNames) params.set(name, fields[name]);
  history.replaceState(null, '', `${location.pathname}?${params}`);
}

function readUrl() {
  const params = new URLSearchParams(location.search);
  const preset = params.get('preset');
  const presetEl = $('preset');
  if (preset !== null) {
    if ([...presetEl.options].some((o) => o.value === preset)) {
      presetEl.value = preset;
    } else {
      loadPreset(currentPreset());
      return { unknownPreset: preset.slice(0, 40) };
    }
  }
  loadPreset(currentPreset());
  const extra = [];
  for (const [key, value] of params) {
    if (key === 'preset') continue;
    if (fieldNames.includes(key)) fillFields([[key, value]]);
    else extra.push(key.slice(0, 40));
  }
  return { extra };
}

// ---------- validation (Rust, the same code the runner uses) ----------
function clearFieldErrors() {
  for (const el of form.querySelectorAll('.error')) el.textContent = '';
  for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
}

function validate() {
  clearFieldErrors();
  let errors;
  try {
    errors = validate_fields(currentPreset(), readFields());
  } catch (e) {
    errors = [{ field: 'preset', message: String(e.message || e) }];
  }
  const unplaced = [];
  for (const { field, message } of errors) {
    const slot = $(`${field}-error`);
    const input = $(field);
    if (slot && input) {
      slot.textContent = slot.textContent ? `${slot.textContent} ${message}` : message;
      input.setAttribute('aria-invalid', 'true');
      // Open "More settings" if the bad field hides there.
      const details = input.closest('details');
      if (details) details.open = true;
    } else {
      unplaced.push(message);
    }
  }
  return { errors, unplaced };
}

let validateTimer = null;
form.addEventListener('input', () => {
  clearTimeout(validateTimer);
  validateTimer = setTimeout(() => {
    const { errors } = validate();
    if (!running) {
      if (errors.length === 0 && body.dataset.status === 'error') {
        showError('');
        setStatus('idle', 'Ready.');
      }
    }
  }, 200);
});

// ---------- drawing ----------
function textScale() { return $('large-text').checked ? 1.45 : 1; }

// Short human names of the charts, for buttons, file names and readouts.
const CHART_NAMES = {
  'risk-chart': 'risk chart',
  'angle-chart': 'angle chart',
  'dpgd-eps-chart': 'loss versus ε chart',
  'dpgd-width-chart': 'loss versus width chart',
  'dpgd-steps-chart': 'loss versus T chart',
  'dpgd-rescaled-chart': 'loss versus ηTp/d chart',
};
const GUIDE_PREFIX = 'theory guide';

// Per canvas: the spec as last drawn (after toggles and pins), the layout
// draw_chart returned, a clean copy of the pixels, the readable points and
// the point the readout shows.
const chartState = {};
// Per canvas: the user's log/linear choice per axis (undefined: the spec's).
const axisChoice = {};
// A finished run kept to overlay later runs: { scenario, label, charts }.
let pinned = null;

// The spec as it is shown: the axis toggles, the guide checkbox and the pinned run applied.
function shownSpec(id, spec, index) {
  const choice = axisChoice[id] || {};
  let series = spec.series || [];
  if (id === 'risk-chart' && !$('show-guide').checked) {
    series = series.filter((s) => !s.name.startsWith(GUIDE_PREFIX));
  }
  if (pinned && pinned.scenario === scenario && pinned.charts[index]) {
    const old = pinned.charts[index].series
      .filter((s) => !s.name.startsWith(GUIDE_PREFIX))
      .map((s) => ({ ...s, name: `${s.name} (pinned)`, style: 'dashed', faded: true, band: [] }));
    series = [...old, ...series];
  }
  return {
    ...spec,
    log_x: choice.log_x ?? spec.log_x,
    log_y: choice.log_y ?? spec.log_y,
    series,
  };
}

function shortLabel(label) { return String(label).replace(/\s*\(.*\)\s*$/, ''); }

// Every point a reader can land on, in series order, with its canvas pixel.
function readablePoints(spec, layout) {
  const toPx = (v, log, lo, hi, a, b) => {
    const t = log ? (v > 0 ? Math.log10(v) : NaN) : v;
    return a + ((t - lo) / (hi - lo)) * (b - a);
  };
  const out = [];
  spec.series.forEach((s, si) => {
    if (s.name.startsWith(GUIDE_PREFIX)) return; // a fitted curve, not a measurement
    s.points.forEach(([x, y], pi) => {
      const py = toPx(y, layout.log_y, layout.y_min, layout.y_max, layout.bottom, layout.top);
      if (!Number.isFinite(py)) return;
      if (s.horizontal) {
        if (pi > 0) return;
        out.push({ si, name: s.name, x: NaN, y, px: (layout.left + layout.right) / 2, py, horizontal: true });
        return;
      }
      const px = toPx(x, layout.log_x, layout.x_min, layout.x_max, layout.left, layout.right);
      if (Number.isFinite(px)) out.push({ si, name: s.name, x, y, px, py });
    });
  });
  return out;
}

function drawCanvas(id, spec, index) {
  const canvas = $(id);
  const dpr = window.devicePixelRatio || 1;
  const rect = canvas.getBoundingClientRect();
  const w = Math.max(200, Math.round(rect.width * dpr));
  const h = Math.max(150, Math.round(rect.height * dpr));
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  const shown = shownSpec(id, spec, index);
  try {
    const layout = draw_chart(canvas, shown, dpr * textScale());
    const ctx = canvas.getContext('2d');
    const prev = chartState[id];
    const points = readablePoints(shown, layout);
    const state = {
      spec: shown, layout, points, dpr,
      image: ctx.getImageData(0, 0, canvas.width, canvas.height),
      focus: prev && prev.focus !== null && prev.focus < points.length ? prev.focus : null,
    };
    chartState[id] = state;
    syncAxisBoxes(id, shown);
    if (state.focus !== null) highlight(id, state.focus, false);
  } catch (e) {
    console.error(e);
  }
}

// The [canvas id, spec, index] of every chart of a snapshot that has a canvas.
function chartJobs(snap) {
  if (!snap) return [];
  const ids = CHART_IDS[snap.scenario || scenario] || [];
  return snap.charts.map((spec, i) => [ids[i], spec, i]).filter(([id]) => id);
}

function drawCharts() {
  for (const job of chartJobs(lastSnapshot)) drawCanvas(...job);
}

// The same, one chart per task: while the workers keep both cores busy a chart
// can take 20–40 ms, and four in one task would hold the main thread too long.
// A newer call supersedes an unfinished one; `then` runs once all are drawn.
let spreadTimer = null;
function drawChartsSpread(then) {
  clearTimeout(spreadTimer);
  spreadTimer = null;
  const todo = chartJobs(lastSnapshot);
  const next = () => {
    spreadTimer = null;
    const job = todo.shift();
    if (job) drawCanvas(...job);
    if (todo.length) spreadTimer = setTimeout(next, 0);
    else if (then) then();
  };
  next();
}

// Redraws whatever is on the charts now (results, or the empty axes).
function redraw() {
  if (lastSnapshot) drawCharts();
  else drawEmptyCharts();
}

// ---------- reading the charts: readout, pointer and keyboard ----------
function readoutText(spec, p) {
  const y = `${shortLabel(spec.y_label)} ${fmt(p.y, 3)}`;
  if (p.horizontal) return `${p.name}: ${y} (the same at every ${shortLabel(spec.x_label)})`;
  return `${p.name}, ${shortLabel(spec.x_label)} = ${fmt(p.x, 4)}: ${y}`;
}

// Shows point `i` of a chart: a ring on the canvas and the text readout.
function highlight(id, i, announce = true) {
  const st = chartState[id];
  if (!st || !st.points[i]) return;
  st.focus = i;
  const canvas = $(id);
  const ctx = canvas.getContext('2d');
  ctx.putImageData(st.image, 0, 0);
  const p = st.points[i];
  ctx.save();
  ctx.lineWidth = 2.5 * st.dpr;
  ctx.strokeStyle = '#000';
  ctx.beginPath();
  ctx.arc(p.px, p.py, 7 * st.dpr * textScale(), 0, 2 * Math.PI);
  ctx.stroke();
  ctx.strokeStyle = '#fff';
  ctx.lineWidth = 1 * st.dpr;
  ctx.beginPath();
  ctx.arc(p.px, p.py, 9 * st.dpr * textScale(), 0, 2 * Math.PI);
  ctx.stroke();
  ctx.restore();
  if (announce) $(`${id}-readout`).textContent = readoutText(st.spec, p);
}

function clearHighlight(id) {
  const st = chartState[id];
  if (!st) return;
  $(id).getContext('2d').putImageData(st.image, 0, 0);
}

function nearestPoint(st, px, py) {
  let best = null;
  let bestD = Infinity;
  st.points.forEach((p, i) => {
    // A horizontal line is as near as its vertical distance.
    const d = p.horizontal ? Math.abs(p.py - py) * 1.5 : Math.hypot(p.px - px, p.py - py);
    if (d < bestD) { bestD = d; best = i; }
  });
  return best;
}

function onPointer(e) {
  const canvas = e.currentTarget;
  const st = chartState[canvas.id];
  if (!st || st.points.length === 0) return;
  const rect = canvas.getBoundingClientRect();
  const px = (e.clientX - rect.left) * (canvas.width / rect.width);
  const py = (e.clientY - rect.top) * (canvas.height / rect.height);
  const i = nearestPoint(st, px, py);
  if (i !== null) highlight(canvas.id, i);
}

// Arrow keys: left/right along a series, up/down to the nearest point of the
// next/previous series; Home/End: first/last point; Escape: hide the ring.
function onChartKey(e) {
  const id = e.currentTarget.id;
  const st = chartState[id];
  if (!st || st.points.length === 0) return;
  const pts = st.points;
  let i = st.focus ?? 0;
  const cur = pts[i];
  const sameSeries = (j) => pts[j].si === cur.si;
  switch (e.key) {
    case 'ArrowRight': if (i + 1 < pts.length && sameSeries(i + 1)) i += 1; break;
    case 'ArrowLeft': if (i > 0 && sameSeries(i - 1)) i -= 1; break;
    case 'ArrowDown':
    case 'ArrowUp': {
      const series = [...new Set(pts.map((p) => p.si))];
      const k = series.indexOf(cur.si) + (e.key === 'ArrowDown' ? 1 : -1);
      const target = series[(k + series.length) % series.length];
      let best = i;
      let bestD = Infinity;
      pts.forEach((p, j) => {
        if (p.si !== target) return;
        const d = Math.abs(p.px - cur.px);
        if (d < bestD) { bestD = d; best = j; }
      });
      i = best;
      break;
    }
    case 'Home': i = 0; break;
    case 'End': i = pts.length - 1; break;
    case 'Escape': clearHighlight(id); st.focus = null; return;
    default: return;
  }
  e.preventDefault();
  highlight(id, i);
}

function syncAxisBoxes(id, shown) {
  const x = $(`${id}-logx`);
  const y = $(`${id}-logy`);
  if (x) x.checked = !!shown.log_x;
  if (y) y.checked = !!shown.log_y;
}

// Under each canvas: log/linear per axis, PNG and SVG export, the readout.
function buildChartTools() {
  for (const [scen, ids] of Object.entries(CHART_IDS)) {
    ids.forEach((id, index) => {
      const canvas = $(id);
      const name = CHART_NAMES[id];
      canvas.tabIndex = 0;
      // Created here, before plotters asks, so that the readout's pixel
      // copies (getImageData) stay cheap.
      canvas.getContext('2d', { willReadFrequently: true });
      canvas.setAttribute('aria-describedby', `${id}-readout`);
      const tools = document.createElement('div');
      tools.className = 'chart-tools';
      tools.setAttribute('role', 'group');
      tools.setAttribute('aria-label', `${name}: axes and export`);
      const box = (suffix, text, axis) => {
        const label = document.createElement('label');
        label.className = 'inline';
        const input = document.createElement('input');
        input.type = 'checkbox';
        input.id = `${id}-${suffix}`;
        input.addEventListener('change', () => {
          axisChoice[id] = { ...(axisChoice[id] || {}), [axis]: input.checked };
          redraw();
        });
        label.append(input, ` ${text}`);
        return label;
      };
      tools.append(box('logx', 'log x axis', 'log_x'), box('logy', 'log y axis', 'log_y'));
      if (id === 'risk-chart') {
        const label = document.createElement('label');
        label.className = 'inline';
        const input = document.createElement('input');
        input.type = 'checkbox';
        input.id = 'show-guide';
        input.checked = true;
        input.addEventListener('change', redraw);
        label.append(input, ' theory guide A/(nε)² + floor');
        tools.append(label);
      }
      const button = (suffix, text, onClick) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.id = `${id}-${suffix}`;
        b.className = 'chart-export';
        b.textContent = text;
        b.setAttribute('aria-label', `Save the ${name} as ${suffix.toUpperCase()}`);
        b.disabled = true;
        b.addEventListener('click', onClick);
        return b;
      };
      tools.append(
        button('png', 'Save as PNG', () => exportPng(id)),
        button('svg', 'Save as SVG', () => {
          if (lastSnapshot && lastSnapshot.charts[index]) {
            download(`${id}.svg`, 'image/svg+xml', chart_svg(shownSpec(id, lastSnapshot.charts[index], index), 900, 560));
          }
        }),
      );
      const readout = document.createElement('p');
      readout.className = 'readout';
      readout.id = `${id}-readout`;
      readout.setAttribute('aria-live', 'polite');
      readout.textContent = 'Point at the chart, or focus it and use the arrow keys, to read the nearest value.';
      canvas.after(tools, readout);
      canvas.addEventListener('pointermove', onPointer);
      canvas.addEventListener('pointerdown', onPointer);
      canvas.addEventListener('pointerleave', () => clearHighlight(id));
      canvas.addEventListener('keydown', onChartKey);
      canvas.addEventListener('focus', () => {
        const st = chartState[id];
        if (st && st.points.length) highlight(id, st.focus ?? 0);
      });
      canvas.addEventListener('blur', () => clearHighlight(id));
      void scen;
    });
  }
}

// The canvas as drawn (device pixels, so sharp on HiDPI), without the ring.
function exportPng(id) {
  const canvas = $(id);
  clearHighlight(id);
  canvas.toBlob((blob) => {
    if (!blob) return;
    downloadBlob(`${id}.png`, blob);
    const st = chartState[id];
    if (st && st.focus !== null && document.activeElement === canvas) highlight(id, st.focus, false);
  }, 'image/png');
}

let resizeTimer = null;
window.addEventListener('resize', () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(redraw, 120);
});
$('large-text').addEventListener('change', () => {
  body.classList.toggle('large', $('large-text').checked);
  redraw();
});

// ---------- pin a run ----------
function pinRun() {
  if (!lastSnapshot || !lastSnapshot.finished) return;
  pinned = {
    scenario: lastSnapshot.scenario || scenario,
    label: `${currentPreset()}, seed ${readFields().seed}`,
    charts: lastSnapshot.charts.map((c) => ({ series: c.series })),
  };
  $('clear-pin').disabled = false;
  $('pin-note').textContent = `Pinned: ${pinned.label}. The next runs draw it faded and dashed, marked “(pinned)”.`;
  redraw();
}

function clearPin() {
  pinned = null;
  $('clear-pin').disabled = true;
  $('pin-note').textContent = '';
  redraw();
}

// ---------- tables ----------
const METHOD_NAMES = {
  'dp-gd': 'DP-GD',
  'dp-gd-trace': 'DP-GD (loss vs T)',
  'private-fedrep': 'Private FedRep',
  'priv-altmin': 'Priv-AltMin',
  fedrep: 'FedRep (non-private)',
  'local-gd': 'local GD (non-private)',
};

// An ε spent: rounded up to 4 significant digits, as the Rust report does
// (privacy::report::fmt_eps), so the page never shows less than a run spends;
// within 1e-9 above a 4-digit number is the accountant's own safety margin.
function fmtEps(x) {
  if (typeof x !== 'number' || !Number.isFinite(x) || x <= 0) return fmt(x);
  const scale = 10 ** (3 - Math.floor(Math.log10(x)));
  return fmt(Math.ceil(x * scale * (1 - 1e-9)) / scale);
}

function fmt(x, digits = 4) {
  if (x === undefined || x === null) return '—';
  if (typeof x !== 'number') return String(x);
  if (Number.isNaN(x)) return '—';
  if (x === Infinity) return '∞';
  if (x === 0) return '0';
  const a = Math.abs(x);
  return (a >= 1e4 || a < 1e-3) ? x.toExponential(digits - 1) : Number(x.toPrecision(digits)).toString();
}

function cell(tag, text, attrs = {}) {
  const el = document.createElement(tag);
  el.textContent = text;
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

function fillTable(table, headers, rows) {
  const thead = table.querySelector('thead');
  const tbody = table.querySelector('tbody');
  thead.replaceChildren();
  tbody.replaceChildren();
  const hr = document.createElement('tr');
  for (const h of headers) hr.appendChild(cell('th', h, { scope: 'col' }));
  thead.appendChild(hr);
  for (const r of rows) {
    const tr = document.createElement('tr');
    r.forEach((v, i) => tr.appendChild(cell(i === 0 ? 'th' : 'td', v, i === 0 ? { scope: 'row' } : {})));
    tbody.appendChild(tr);
  }
}

function renderTables(snap) {
  if (snap.scenario === 'dpgd') {
    (snap.tables || []).forEach((t, i) => {
      const table = $(DPGD_TABLE_IDS[i]);
      if (!table) return;
      table.querySelector('caption').textContent = t.caption;
      fillTable(table, t.headers, t.rows);
    });
    return;
  }
  fillTable($('risk-table'),
    ['method', 'target ε', 'excess risk', 'MSE', 'final angle', 'σ (training)', 'ε spent (exact)', 'clipped users', 'seed'],
    snap.rows.map((r) => [
      METHOD_NAMES[r.method] || r.method,
      r.epsilon === undefined || r.epsilon === null ? 'non-private' : fmt(r.epsilon),
      fmt(r.excess_risk), fmt(r.mse), fmt(r.principal_angle), fmt(r.sigma),
      fmtEps(r.epsilon_spent), Number.isNaN(r.clipped_fraction) ? '—' : `${(100 * r.clipped_fraction).toFixed(1)}%`,
      String(r.seed),
    ]));
  const severalSeeds = new Set(snap.curves.map((c) => c.seed)).size > 1;
  const rounds = Math.max(0, ...snap.curves.map((c) => c.angles.length));
  fillTable($('angle-table'),
    ['run', ...Array.from({ length: rounds }, (_, t) => `t = ${t}`)],
    snap.curves.map((c) => [
      `${METHOD_NAMES[c.method] || c.method}${c.epsilon === undefined || c.epsilon === null ? '' : `, ε = ${fmt(c.epsilon)}`}${severalSeeds ? `, seed ${c.seed}` : ''}`,
      ...Array.from({ length: rounds }, (_, t) => (t < c.angles.length ? fmt(c.angles[t]) : '')),
    ]));
}

// ---------- explain ε ----------
// DP-GD runs one private job per (p, ε): one entry per target ε, with a row per
// width (same mechanism and relation; σ and the ε actually spent per run).
function renderPrivacyByEpsilon(rows) {
  const groups = new Map();
  for (const r of rows) {
    const k = `${r.method}|${r.privacy.epsilon_target}`;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(r);
  }
  let first = true;
  return [...groups.values()].map((runs) => {
    const p = runs[0].privacy;
    const stage = p.stages[0];
    const det = document.createElement('details');
    det.open = first;
    first = false;
    const spent = runs.map((r) => r.privacy.epsilon_exact);
    det.appendChild(cell('summary', `${METHOD_NAMES[runs[0].method] || runs[0].method}, target ε = ${fmt(p.epsilon_target)}: `
      + `${runs.length} runs ${fmtEps(Math.min(...spent)) === fmtEps(Math.max(...spent)) ? `each spend ε = ${fmtEps(Math.max(...spent))}` : `spend ε = ${fmtEps(Math.min(...spent))} to ${fmtEps(Math.max(...spent))}`}`
      + ` at δ = ${fmt(p.delta)} (${p.calibration} calibration)`));
    det.appendChild(cell('p', `Mechanism: ${stage.mechanism}; neighbouring relation: ${p.relation}; `
      + `sensitivity s = 2C/n of the mean gradient; ${stage.steps} releases per run.`));
    const t = document.createElement('table');
    t.className = 'privacy-stages';
    t.appendChild(cell('caption', 'Each run (width p): its noise and the ε it spends, per accountant'));
    t.appendChild(document.createElement('thead'));
    t.appendChild(document.createElement('tbody'));
    fillTable(t, ['p', 'sensitivity s', 'σ', 'σ/s', 'releases', 'ε exact', 'ε RDP', 'ε zCDP'],
      runs.map((r) => {
        const q = r.privacy;
        const st = q.stages[0];
        return [String(r.p), fmt(st.sensitivity), fmt(st.sigma), fmt(st.sigma / st.sensitivity), String(st.steps),
          fmtEps(q.epsilon_exact), fmtEps(q.epsilon_rdp), fmtEps(q.epsilon_zcdp)];
      }));
    det.appendChild(t);
    if (p.notes && p.notes.length) {
      const ul = document.createElement('ul');
      for (const n of p.notes) ul.appendChild(cell('li', n));
      det.appendChild(ul);
    }
    if (runs[0].privacy_reading) det.appendChild(cell('p', runs[0].privacy_reading, { class: 'reading' }));
    return det;
  });
}

let privacyKey = null; // what the panel shows now; unchanged rows keep the open/closed state

function renderPrivacy(snap) {
  const root = $('privacy-content');
  const rows = snap.rows.filter((r) => r.privacy);
  const key = `${snap.scenario}|${rows.map((r) => `${r.method}/${r.epsilon}/${r.p}/${r.seed}`).join(';')}`;
  if (key === privacyKey) return;
  privacyKey = key;
  if (rows.length === 0) {
    root.replaceChildren(cell('p', 'No private run has finished yet.'));
    return;
  }
  if (snap.scenario === 'dpgd') {
    root.replaceChildren(...renderPrivacyByEpsilon(rows));
    return;
  }
  const nodes = [];
  rows.forEach((r, idx) => {
    const p = r.privacy;
    const det = document.createElement('details');
    if (idx === 0) det.open = true;
    const sum = document.createElement('summary');
    const width = r.p === undefined ? '' : `, p = ${r.p}`;
    sum.textContent = `${METHOD_NAMES[r.method] || r.method}${width}, target ε = ${fmt(p.epsilon_target)}: spends ε = ${fmtEps(p.epsilon_exact)} at δ = ${fmt(p.delta)} (${p.calibration} calibration)`;
    det.appendChild(sum);

    const t1 = document.createElement('table');
    t1.className = 'privacy-stages';
    t1.appendChild(cell('caption', 'Released stages (each a Gaussian mechanism)'));
    t1.appendChild(document.createElement('thead'));
    t1.appendChild(document.createElement('tbody'));
    fillTable(t1, ['stage', 'mechanism', 'neighbouring relation', 'sensitivity s', 'σ', 'noise multiplier σ/s', 'releases'],
      p.stages.map((s) => [s.name, s.mechanism, p.relation, fmt(s.sensitivity), fmt(s.sigma), fmt(s.sigma / s.sensitivity), String(s.steps)]));
    det.appendChild(t1);

    const t2 = document.createElement('table');
    t2.className = 'privacy-accountants';
    t2.appendChild(cell('caption', `ε spent at δ = ${fmt(p.delta)} by the same noise, per accountant`));
    t2.appendChild(document.createElement('thead'));
    t2.appendChild(document.createElement('tbody'));
    fillTable(t2, ['accountant', 'ε', 'note'], [
      ['exact (Gaussian DP composition)', fmtEps(p.epsilon_exact), 'tight: the number this page reports'],
      ['RDP, improved conversion', fmtEps(p.epsilon_rdp), `optimal order α = ${fmt(p.rdp_alpha, 3)}`],
      ['RDP, classic conversion', fmtEps(p.epsilon_rdp_classic), `α = ${fmt(p.rdp_classic_alpha, 3)}`],
      ['zCDP (Bun–Steinke)', fmtEps(p.epsilon_zcdp), 'ρ + 2√(ρ ln 1/δ)'],
    ]);
    det.appendChild(t2);
    if (p.notes && p.notes.length) {
      const ul = document.createElement('ul');
      for (const n of p.notes) ul.appendChild(cell('li', n));
      det.appendChild(ul);
    }
    if (r.privacy_reading) det.appendChild(cell('p', r.privacy_reading, { class: 'reading' }));
    nodes.push(det);
  });
  root.replaceChildren(...nodes);
}

// ---------- worker pool ----------
function makePool() {
  return new SweepPool({
    size: defaultPoolSize(),
    merge: (preset, fields, parts) => merge_fedrep_results(preset, fields, parts),
    onProgress: (p) => {
      if (!running) return;
      if (p.changed) {
        renderSoon(p.snapshot);
      } else {
        $('progress').max = p.total;
        $('progress').value = p.done;
      }
      setStatus('running', `Running: ${p.phase} (${p.done}/${p.total})`);
    },
    onResult: (snap, csv, seconds) => {
      running = false;
      lastCsv = csv;
      // "done" once every chart is drawn (they are drawn one per task).
      render(snap, () => {
        setExportsEnabled(true);
        setStatus('done', `Done in ${seconds.toFixed(2)} s.`);
      });
    },
    onCancelled: () => {
      running = false;
      setStatus('idle', 'Stopped. The finished part of the sweep is shown.');
    },
    onError: (message) => {
      running = false;
      setStatus('error', 'The run failed; the page is still usable.');
      showError(message);
    },
  });
}

// Progress arrives from every worker; merge and draw at most every 150 ms.
// `getSnapshot` builds the merged snapshot only when it is drawn.
let renderTimer = null;
let pendingSnapshot = null;
function renderSoon(getSnapshot) {
  pendingSnapshot = getSnapshot;
  if (renderTimer) return;
  renderTimer = setTimeout(() => {
    renderTimer = null;
    if (pendingSnapshot && running) render(pendingSnapshot());
    pendingSnapshot = null;
  }, 150);
}

function setExportsEnabled(on) {
  for (const id of ['export-csv', 'export-svg-risk', 'export-svg-angle', 'pin-run']) $(id).disabled = !on;
  for (const b of document.querySelectorAll('.chart-export')) b.disabled = !on;
}

function render(snap, then) {
  clearTimeout(renderTimer);
  renderTimer = null;
  pendingSnapshot = null;
  lastSnapshot = snap;
  const { done, total } = snap;
  $('progress').max = total;
  $('progress').value = done;
  renderTables(snap);
  renderPrivacy(snap);
  drawChartsSpread(then);
}

function run() {
  if (running) return;
  const { errors, unplaced } = validate();
  if (errors.length) {
    setStatus('error', 'Nothing was run: fix the marked settings.');
    showError(unplaced.length ? unplaced.join('\n') : `Fix ${errors.length === 1 ? 'the marked setting' : `the ${errors.length} marked settings`}: ${errors.map((x) => x.message).join('; ')}`);
    return;
  }
  showError('');
  writeUrl();
  lastCsv = null;
  setExportsEnabled(false);
  running = true;
  setStatus('running', 'Starting…');
  // A Private FedRep sweep is split over the pool; a DP-GD sweep runs in one worker.
  pool.run(currentPreset(), readFields(), scenario === 'fedrep' ? pool.size : 1);
}

function stop() {
  if (!running) return;
  pool.cancel();
}

// ---------- exports ----------
function download(name, type, text) {
  downloadBlob(name, new Blob([text], { type }));
}

function downloadBlob(name, blob) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url; a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

$('export-csv').addEventListener('click', () => { if (lastCsv) download('results.csv', 'text/csv', lastCsv); });
$('export-svg-risk').addEventListener('click', () => $('risk-chart-svg').click());
$('export-svg-angle').addEventListener('click', () => $('angle-chart-svg').click());
$('pin-run').addEventListener('click', pinRun);
$('clear-pin').addEventListener('click', clearPin);
$('export-json').addEventListener('click', () => download('config.json', 'application/json', `${JSON.stringify({ preset: currentPreset(), ...readFields() }, null, 2)}\n`));
$('copy-link').addEventListener('click', async () => {
  writeUrl();
  try {
    await navigator.clipboard.writeText(location.href);
    $('status').textContent = 'Link copied.';
  } catch {
    $('status').textContent = `Copy this link: ${location.href}`;
  }
});

// ---------- wiring ----------
form.addEventListener('submit', (e) => { e.preventDefault(); run(); });
$('stop').addEventListener('click', stop);
$('reset').addEventListener('click', () => { loadPreset(currentPreset()); validate(); showError(''); if (!running) setStatus('idle', 'Ready.'); });
$('preset').addEventListener('change', () => {
  if (running) stop();
  loadPreset(currentPreset());
  const { errors } = validate();
  if (!running && errors.length === 0) { showError(''); setStatus('idle', 'Ready. Press Run.'); }
  writeUrl();
});

function numbers(text, fallback) {
  const v = String(text || '').split(/[\s,;:]+/).map(Number).filter((x) => Number.isFinite(x) && x > 0);
  return v.length ? v : fallback;
}

function emptyCharts() {
  const f = readFields();
  const eps = String(f.epsilons || '1').split(/[\s,;:]+/).map(Number).filter(Number.isFinite);
  if (scenario === 'dpgd') {
    const e = numbers(f.epsilons, [1, 4]);
    const p = numbers(f.p_grid, [10, 1000]);
    const ts = numbers(f.trace_time_scales, [1, 16]);
    const empty = (title, x_label, log_y, hint) => ({ title, x_label, y_label: 'test MSE', log_x: true, log_y, x_hint: [Math.min(...hint), Math.max(...hint) * (hint.length > 1 ? 1 : 2)], series: [] });
    return [
      empty('Test loss vs ε', 'ε', false, e),
      empty('Test loss vs width p', 'p (number of random features)', true, p),
      empty('Test loss vs T', 'T (steps)', false, [1, 1000]),
      empty('Test loss vs ηTp/d', 'ηT·p/d', false, ts),
    ];
  }
  return [
    { title: 'Excess population risk versus ε', x_label: 'user-level ε', y_label: 'excess risk (mean over users)', log_x: false, log_y: true, x_hint: [Math.min(...eps, 1), Math.max(...eps, 2)], series: [] },
    { title: 'Principal angle to U* over rounds', x_label: 'round t', y_label: 'dist(U_t, U*)', log_x: false, log_y: true, x_hint: [0, Number(f.rounds) || 5], series: [] },
  ];
}

// Empty charts with axes, so the page never shows blank boxes.
function drawEmptyCharts() {
  lastSnapshot = { scenario, charts: emptyCharts() };
  drawCharts();
  lastSnapshot = null;
}

async function main() {
  try {
    await init();
  } catch (e) {
    setStatus('error', 'Could not load the WebAssembly module.');
    showError(String(e.message || e));
    return;
  }
  fieldNames = preset_fields('fedrep-paper').map(([k]) => k);
  buildChartTools();
  const url = readUrl();
  const { errors, unplaced } = validate();
  const messages = [...unplaced];
  if (url.unknownPreset) messages.push(`unknown preset "${url.unknownPreset}" in the link; the default preset is shown`);
  if (url.extra && url.extra.length) messages.push(`ignored unknown settings in the link: ${url.extra.join(', ')}`);
  if (errors.length || url.unknownPreset) {
    setStatus('error', 'Some settings from the link are not valid: see the marked fields.');
    showError(messages.length ? messages.join('\n') : 'Fix the marked settings.');
  } else {
    if (messages.length) showError(messages.join('\n'));
    setStatus('idle', 'Ready. Press Run.');
  }
  drawEmptyCharts();
  pool.warm();
}

main();
