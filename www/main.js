// Main thread: the form, the URL state, drawing and tables. All computation runs
// in worker.js; validation and chart drawing call the same Rust code (wasm).
import init, {
  preset_fields, preset_scenario, validate_fields, draw_chart, chart_svg, series_color, merge_fedrep_results,
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

function drawCanvas(id, spec) {
  const canvas = $(id);
  const dpr = window.devicePixelRatio || 1;
  const rect = canvas.getBoundingClientRect();
  const w = Math.max(200, Math.round(rect.width * dpr));
  const h = Math.max(150, Math.round(rect.height * dpr));
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  try {
    draw_chart(canvas, spec, dpr * textScale());
  } catch (e) {
    console.error(e);
  }
}

function drawCharts() {
  if (!lastSnapshot) return;
  const ids = CHART_IDS[lastSnapshot.scenario || scenario] || [];
  lastSnapshot.charts.forEach((spec, i) => { if (ids[i]) drawCanvas(ids[i], spec); });
}

let resizeTimer = null;
window.addEventListener('resize', () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(drawCharts, 120);
});
$('large-text').addEventListener('change', () => {
  body.classList.toggle('large', $('large-text').checked);
  drawCharts();
});

// ---------- tables ----------
const METHOD_NAMES = {
  'dp-gd': 'DP-GD',
  'dp-gd-trace': 'DP-GD (loss vs T)',
  'private-fedrep': 'Private FedRep',
  'priv-altmin': 'Priv-AltMin',
  fedrep: 'FedRep (non-private)',
  'local-gd': 'local GD (non-private)',
};

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
    ['method', 'target ε', 'excess risk', 'MSE', 'final angle', 'σ (training)', 'ε spent (exact)', 'clipped users'],
    snap.rows.map((r) => [
      METHOD_NAMES[r.method] || r.method,
      r.epsilon === undefined || r.epsilon === null ? 'non-private' : fmt(r.epsilon),
      fmt(r.excess_risk), fmt(r.mse), fmt(r.principal_angle), fmt(r.sigma),
      fmt(r.epsilon_spent), Number.isNaN(r.clipped_fraction) ? '—' : `${(100 * r.clipped_fraction).toFixed(1)}%`,
    ]));
  const rounds = Math.max(0, ...snap.curves.map((c) => c.angles.length));
  fillTable($('angle-table'),
    ['run', ...Array.from({ length: rounds }, (_, t) => `t = ${t}`)],
    snap.curves.map((c) => [
      `${METHOD_NAMES[c.method] || c.method}${c.epsilon === undefined || c.epsilon === null ? '' : `, ε = ${fmt(c.epsilon)}`}`,
      ...Array.from({ length: rounds }, (_, t) => (t < c.angles.length ? fmt(c.angles[t]) : '')),
    ]));
}

// ---------- explain ε ----------
function renderPrivacy(snap) {
  const root = $('privacy-content');
  const rows = snap.rows.filter((r) => r.privacy);
  if (rows.length === 0) {
    root.replaceChildren(cell('p', 'No private run has finished yet.'));
    return;
  }
  const nodes = [];
  rows.forEach((r, idx) => {
    const p = r.privacy;
    const det = document.createElement('details');
    if (idx === 0) det.open = true;
    const sum = document.createElement('summary');
    const width = r.p === undefined ? '' : `, p = ${r.p}`;
    sum.textContent = `${METHOD_NAMES[r.method] || r.method}${width}, target ε = ${fmt(p.epsilon_target)}: spends ε = ${fmt(p.epsilon_exact)} at δ = ${fmt(p.delta)} (${p.calibration} calibration)`;
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
      ['exact (Gaussian DP composition)', fmt(p.epsilon_exact), 'tight: the number this page reports'],
      ['RDP, improved conversion', fmt(p.epsilon_rdp), `optimal order α = ${fmt(p.rdp_alpha, 3)}`],
      ['RDP, classic conversion', fmt(p.epsilon_rdp_classic), `α = ${fmt(p.rdp_classic_alpha, 3)}`],
      ['zCDP (Bun–Steinke)', fmt(p.epsilon_zcdp), 'ρ + 2√(ρ ln 1/δ)'],
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
    onProgress: (snap) => {
      if (!running) return;
      renderSoon(snap);
      setStatus('running', `Running: ${snap.phase} (${snap.done}/${snap.total})`);
    },
    onResult: (snap, csv, seconds) => {
      running = false;
      render(snap);
      lastCsv = csv;
      setExportsEnabled(true);
      setStatus('done', `Done in ${seconds.toFixed(2)} s.`);
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

// Progress snapshots can arrive every 40 ms; draw at most every 150 ms.
let renderTimer = null;
let pendingSnapshot = null;
function renderSoon(snap) {
  pendingSnapshot = snap;
  if (renderTimer) return;
  renderTimer = setTimeout(() => {
    renderTimer = null;
    if (pendingSnapshot && running) render(pendingSnapshot);
    pendingSnapshot = null;
  }, 150);
}

function setExportsEnabled(on) {
  for (const id of ['export-csv', 'export-svg-risk', 'export-svg-angle']) $(id).disabled = !on;
  for (const b of document.querySelectorAll('.svg-export')) b.disabled = !on;
}

function render(snap) {
  clearTimeout(renderTimer);
  renderTimer = null;
  pendingSnapshot = null;
  lastSnapshot = snap;
  const { done, total } = snap;
  $('progress').max = total;
  $('progress').value = done;
  renderTables(snap);
  renderPrivacy(snap);
  drawCharts();
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
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url; a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

$('export-csv').addEventListener('click', () => { if (lastCsv) download('results.csv', 'text/csv', lastCsv); });
$('export-svg-risk').addEventListener('click', () => { if (lastSnapshot) download('risk-chart.svg', 'image/svg+xml', chart_svg(lastSnapshot.charts[0], 900, 560)); });
$('export-svg-angle').addEventListener('click', () => { if (lastSnapshot) download('angle-chart.svg', 'image/svg+xml', chart_svg(lastSnapshot.charts[1], 900, 560)); });
for (const b of document.querySelectorAll('.svg-export')) {
  b.addEventListener('click', () => {
    const i = Number(b.dataset.chart);
    if (lastSnapshot && lastSnapshot.charts[i]) {
      download(`${CHART_IDS.dpgd[i]}.svg`, 'image/svg+xml', chart_svg(lastSnapshot.charts[i], 900, 560));
    }
  });
}
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
  // Colour swatches for the HTML legend of tables could use series_color; keep it referenced.
  void series_color;
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
}

main();
