// Main thread: builds the page from the scenarios' descriptions (presets,
// field tables, charts; from pkg/describe.json at once, which the build writes
// from the registry, or else from the wasm module once it has loaded), keeps the
// settings in the URL, validates with the same Rust code as the runs, and
// shows what the worker pool reports. No scenario is named here: everything
// comes from the registry.
import init, {
  scenarios, default_preset, find_preset, preset_fields, validate_fields, merge, audit_overlay,
  split_by_users, estimated_page_seconds,
} from './pkg/dp_explorer.js';
import { machineFactors, fmtDuration } from './estimate.js';
import { ResultCache } from './result-cache.js';
import { LOADING_TEXT, sayStatus, setStatusOf, showError } from './status.js';
import { wirePins } from './pin-controls.js';
import { loadDescription, describedRegistry } from './describe.js';
import { registerOffline, watchForRelease } from './offline.js';
import { SettingsForm } from './form.js';
import { ChartView, Pins } from './chart-view.js';
import { ExplainPanel } from './explain.js';
import { StatementPanel } from './statement.js';
import { statementEntry } from './export-statement.js'; // risk change: the statement in the JSON export
import { SweepPool, defaultPoolSize } from './pool.js';
import { download } from './download.js';
import { AuditPanel } from './audit.js';
import { RoundView } from './round-view.js';
import { missingPresetText, setMode, wireLinks, wireModes } from './links.js';
import { readSettingsUrl, writeSettingsUrl } from './url-state.js';
import { claimsList, showClaims } from './claims.js';
import { drawMarker, showValuesAt, plotsEpsilon } from './live-eps.js';
import { wireLecture } from './lecture.js';

// A new release can take over while the module starts: listen from here on.
watchForRelease();

const $ = (id) => document.getElementById(id);
const body = document.body;

const form = new SettingsForm($('fields'), selectValue);
const explain = new ExplainPanel($('privacy-content'));
const LARGE_SCALE = 1.45; // the text scale of large text
const roundView = new RoundView($('privacy-panel'), { largeScale: LARGE_SCALE });
const statement = new StatementPanel($('privacy-panel'));
let infos = []; // every ScenarioInfo, in registry order
let info = null; // the current scenario
const views = new Map(); // chart id -> ChartView (every scenario's; others hidden)
let lastSnapshot = null; // what the charts show now (null: empty axes)
let lastRun = null; // { preset, fields } of the shown results (while running: of the run)
let previous = null; // while a run has not drawn its own: { scenario, charts } of the results it replaces, drawn faded
let selected = null; // { name, value }: the value a list setting's slider selected (the ε marked on the charts)
let running = false;
let runToken = 0; // counts the runs started: a finished run's last drawing belongs to the newest only
let drawnThisRun = false; // the running sweep has drawn its own results once (its first points)
const resultCache = new ResultCache(); // the last finished run's results, which a new run may keep
const pins = new Pins(); // pinned runs, drawn behind the results shown
let confirmKey = null; // the settings of a long run the user was warned about
let lessonStep = 0;
let audit = null; // the audit panel (built once the module is loaded)
let missingPreset = null; // the link's preset, where the registry has none of that name
// Painting's registry questions: answered by the description until the module has loaded.
let reg = { scenarios, default_preset, find_preset, preset_fields, preset_charts: null };
let moduleReady = false; // the wasm module has loaded: validation, estimates, charts and runs work
const pool = makePool();

// A change re-runs by itself when the run is estimated to take at most this
// long; a run estimated over LONG_SECONDS asks for a second press of Run.
const AUTO_RUN_SECONDS = 3;
const LONG_SECONDS = 30;

// ---------- status ----------
const setStatus = (status, text) => setStatusOf(moduleReady, status, text);

function currentPreset() { return $('preset').value; }

/** The settings of the form, as a run's. */
function formSettings() {
  return { preset: currentPreset(), fields: form.read() };
}

/** The results shown (or being computed) are of other settings than the form's. */
function outOfDate() {
  return lastRun !== null && (running || lastSnapshot !== null) && JSON.stringify(lastRun) !== JSON.stringify(formSettings());
}

/** The form's settings are those of the results shown (finished) or being computed: nothing to re-run. */
function current() {
  return lastRun !== null && !outOfDate() && (running || (lastSnapshot !== null && lastSnapshot.finished));
}

const STALE_RUNNING = 'Settings changed: this run is of the previous ones (press Run for the new). ';
function textScale() { return $('large-text').checked ? LARGE_SCALE : 1; }

// ---------- time estimate ----------
/** Seconds the current settings take on this page (null: they do not validate). */
function estimate() {
  try {
    return estimated_page_seconds(currentPreset(), form.read(), pool.size, machineFactors($('estimate')));
  } catch {
    return null;
  }
}

function showEstimate() {
  const est = estimate();
  $('estimate').textContent = est === null ? '' : `Estimated time: ${fmtDuration(est)}.`;
  // The seconds and the machine's factor behind the words (scripts/estimates.mjs reads them).
  if (est === null) delete $('estimate').dataset.seconds;
  else $('estimate').dataset.seconds = String(est);
  return est;
}

// ---------- scenarios, presets and charts (from the registry) ----------
function buildPresetMenu() {
  $('preset').replaceChildren(...infos.map((s) => {
    const group = document.createElement('optgroup');
    group.label = s.title;
    for (const p of s.presets) {
      const opt = document.createElement('option');
      opt.value = p.name;
      opt.textContent = p.label;
      group.appendChild(opt);
    }
    return group;
  }));
  $('sources').textContent = infos.map((s) => s.source).join('; ');
}

/** The figures of one scenario's charts, built the first time it is shown (a
 * page shows one scenario: building every scenario's would hold the first paint). */
function buildCharts(s) {
  for (const chart of s.charts) {
    if (views.has(chart.id)) continue;
    const view = new ChartView(chart, { textScale, decorate, afterDraw });
    view.figure.dataset.scenario = s.id;
    view.figure.hidden = true;
    views.set(chart.id, view);
    $('charts').appendChild(view.figure);
  }
}

function currentViews() {
  return info ? info.charts.map((c) => views.get(c.id)) : [];
}

/** Shows one scenario's fields, charts and texts; true if it changed. */
function applyScenario(id) {
  if (info && info.id === id) return false;
  info = infos.find((s) => s.id === id);
  selected = null;
  previous = null;
  buildCharts(info);
  roundView.scenario(info);
  body.dataset.scenario = id;
  $('scenario-look').textContent = info.look_at;
  $('scenario-lede').textContent = info.lede;
  $('about-title').textContent = `About ${info.title}`;
  form.build(info);
  for (const v of views.values()) v.figure.hidden = v.figure.dataset.scenario !== id;
  clearResults('Run a sweep to see its accounting.');
  if (audit) audit.clear();
  lessonStep = 0;
  showLesson();
  return true;
}

// ---------- the lesson (a few steps per scenario, each setting the controls) ----------
function showLesson() {
  const steps = info.lesson;
  $('lesson').hidden = steps.length === 0;
  if (!steps.length) return;
  const step = steps[lessonStep];
  $('lesson-title').textContent = `Lesson: ${info.title} in ${steps.length} steps`;
  $('lesson-count').textContent = `Step ${lessonStep + 1} of ${steps.length}`;
  $('lesson-step-title').textContent = step.title;
  $('lesson-text').textContent = step.text;
  const marks = claimsList(step.claims);
  marks.id = 'lesson-claims';
  $('lesson-claims').replaceWith(marks);
  showClaims(marks, finishedClaims(), claimTexts());
  $('lesson-prev').disabled = lessonStep === 0;
  $('lesson-next').disabled = lessonStep === steps.length - 1;
}

/** The claims judged on the shown run, when it finished (null: none yet). */
function finishedClaims() {
  return lastSnapshot && lastSnapshot.finished ? lastSnapshot.claims : null;
}

function claimTexts() {
  return new Map(((info && info.claims) || []).map((c) => [c.id, c.text]));
}

/** Every caption's and the lesson step's claim marks, from the shown run. */
function showAllClaims() {
  if (!info) return;
  const verdicts = finishedClaims();
  const texts = claimTexts();
  for (const v of currentViews()) v.showClaims(verdicts, texts);
  const marks = $('lesson-claims');
  if (marks) showClaims(marks, verdicts, texts);
}

function applyLessonStep() {
  const step = info.lesson[lessonStep];
  const keep = lessonStep;
  loadPreset(step.preset);
  lessonStep = keep;
  showLesson();
  form.fill(step.settings);
  // A step that changes a folded setting opens "More settings": what the step set is seen.
  form.revealChanged(reg.preset_fields(step.preset));
  settingsChanged({ now: true });
}

function loadPreset(name) {
  const found = reg.find_preset(name);
  $('preset').value = found.preset;
  applyScenario(found.scenario);
  form.fill(reg.preset_fields(found.preset));
  drawEmptyCharts();
  // The audit panel judged the scenario while its fields were half filled: judge the preset's settings.
  if (audit) audit.clear();
}

// ---------- the URL is the state (url-state.js) ----------
function writeUrl() {
  writeSettingsUrl({ preset: currentPreset(), form, selected });
}

/** Applies the link's preset and settings; returns what it could not use. */
function readUrl() {
  const { notes, missing } = readSettingsUrl({ reg, form, loadPreset });
  missingPreset = missing;
  return notes;
}

// ---------- validation (Rust, the same code the runner uses) ----------
function validate() {
  if (!moduleReady) return { errors: [], unplaced: [] }; // validated once the module has loaded
  let errors;
  try {
    errors = validate_fields(currentPreset(), form.read());
  } catch (e) {
    errors = [{ field: 'preset', message: String(e.message || e) }];
  }
  const unplaced = form.markErrors(errors);
  return { errors, unplaced };
}

const OPTION_BOXES = ['large-text', 'present', 'auto-run'];
let editTimer = null;
$('config').addEventListener('input', (e) => {
  // A slider only selects: when it changes the settings, it does so through its list's input.
  if (OPTION_BOXES.includes(e.target.id) || e.target.type === 'range') return;
  // A slider's value (released) re-runs at once: there is no typing to wait for.
  settingsChanged({ now: !!(e.detail && e.detail.slider) });
});

/** After an edit: mark the results stale, validate, keep the URL, update the
 * estimate, and re-run a short sweep by itself. */
function settingsChanged({ now = false } = {}) {
  markStale();
  clearTimeout(editTimer);
  editTimer = setTimeout(() => {
    const { errors } = validate();
    writeUrl();
    const est = showEstimate();
    if (errors.length === 0 && body.dataset.status === 'error' && !running) {
      showError('');
      setStatus('idle', 'Ready.');
    }
    if (errors.length && !running) {
      // Nothing can run until the field is fixed: say which (never "Ready" beside an invalid field).
      const [{ field, message }] = errors;
      const more = errors.length > 1 ? ` (and ${errors.length - 1} more marked)` : '';
      setStatus('error', `Fix “${form.label(field)}” to run: ${form.messageAt(field, message)}${more}.`);
    } else if (errors.length === 0 && $('auto-run').checked && est !== null && est <= AUTO_RUN_SECONDS && !current()) {
      // The settings were just checked, estimated and written to the link: the run does not repeat it.
      run({ checked: { est } });
    } else if (errors.length === 0 && !running && lastSnapshot === null) {
      setStatus('idle', 'Ready. Press Run.');
    }
  }, now ? 0 : 250);
}

/** At once after an edit: the results on screen (finished, or a run still
 * computing them) are marked when they are no longer of the form's settings. */
function markStale() {
  if (audit) audit.clear();
  $('link-note').textContent = ''; // what Copy link said was of the settings before this edit
  const stale = outOfDate();
  $('results').classList.toggle('stale', stale);
  $('stale-note').hidden = !stale;
  if (running) {
    const text = $('status').textContent.replace(STALE_RUNNING, '');
    sayStatus(stale ? `${STALE_RUNNING}${text}` : text);
  } else if (stale && (body.dataset.status === 'done' || body.dataset.status === 'idle')) {
    sayStatus('Settings changed: the results shown are from the previous run. Press Run to update them.');
  }
}

// ---------- drawing ----------
function sortedByX(s) {
  const byX = (a, b) => a[0] - b[0];
  const sorted = (xs) => xs.every((p, i) => i === 0 || xs[i - 1][0] <= p[0]);
  if (s.horizontal || (sorted(s.points) && sorted(s.band || []))) return s;
  return { ...s, points: [...s.points].sort(byX), band: [...(s.band || [])].sort(byX) };
}

/** A chart's spec with the previous run's curves while a run has not drawn its own, the
 * audit's lower bounds on ε on the audited points (when the audit describes the results
 * shown: an edit clears it), and the pinned runs' curves behind it, named with what
 * differs from the results shown (www/chart-view.js `Pins`). */
function decorate(id, spec) {
  let out = spec;
  // A run that has not drawn a curve yet: the previous run's, faded and out of the legend, never a blank chart.
  const old = previous && previous.scenario === info.id && previous.charts[info.charts.findIndex((c) => c.id === id)];
  if (old && running) {
    const drawn = new Map(spec.series.map((s) => [s.name, s.points.length]));
    const kept = old.series
      .filter((s) => s.points.length && (drawn.get(s.name) || 0) < s.points.length)
      .map((s) => ({ ...s, name: `${s.name} (previous run)`, faded: true, in_legend: false, band: [] }));
    out = { ...out, series: [...kept, ...out.series] };
  }
  // Points in increasing x, as a spec promises: a list setting's values in the order typed (the
  // slider appends its value) give some charts' points in that order.
  out = { ...out, series: out.series.map(sortedByX) };
  const rows = auditRows();
  if (rows.length) out = audit_overlay(out, rows);
  const toggle = views.get(id).info.toggle;
  out = pins.decorate(info.id, id, out, lastRun || { preset: currentPreset(), fields: form.read() }, toggle && toggle[0], (k) => form.label(k));
  return { ...out, series: out.series.map(sortedByX) };
}

/** Over each drawn chart: the selected ε; the first ε chart's values at it in words. */
function afterDraw(view, ctx) {
  if (!selected) return;
  drawMarker(view, ctx, selected.value, view.dpr * (view.scale || textScale())); // the chart's own scale (chart-view.js chartScale)
  if (view === currentViews().find((v) => plotsEpsilon(v) && !v.figure.hidden)) {
    const out = $(`${selected.name}-readout`);
    if (out) showValuesAt(out, view, selected.value, running);
  }
}

/** A list setting's slider selected a value: mark it on the ε charts (once a frame). */
let markFrame = null;
function selectValue(name, value, { committed = false } = {}) {
  selected = { name, value };
  if (name === 'epsilons') roundView.selectEpsilon(value);
  // Released (or a key, or a link): the link selects it too (a value added to the list is written by the edit).
  if (committed) writeUrl();
  if (markFrame) return;
  markFrame = requestAnimationFrame(() => {
    markFrame = null;
    for (const v of currentViews()) if (plotsEpsilon(v)) v.redraw();
  });
}

// One chart per task: while the workers keep both cores busy a chart can take
// 20–40 ms, and four in one task would hold the main thread too long. A newer
// call supersedes an unfinished one; `then` runs once all are drawn.
let spreadTimer = null;
function drawChartsSpread(charts, then, cost = null) {
  clearTimeout(spreadTimer);
  const todo = currentViews().map((v, i) => [v, charts[i]]).filter(([, spec]) => spec);
  const next = () => {
    spreadTimer = null;
    const job = todo.shift();
    const t0 = performance.now();
    if (job) job[0].draw(job[1]);
    if (cost) cost.ms += performance.now() - t0;
    if (todo.length) spreadTimer = setTimeout(next, 0);
    else if (then) then();
  };
  next();
}

/** The finished audit's rows while it describes the results shown (none otherwise). */
function auditRows() {
  return audit && audit.view && !$('results').classList.contains('stale') ? audit.view.rows : [];
}

function redraw() {
  for (const v of currentViews()) v.redraw();
  if (audit) audit.views.forEach((v) => v.redraw());
}

/** Empty charts with the scenario's axes (from the settings, or the preset's). */
function drawEmptyCharts() {
  if (!moduleReady) {
    // Before the module: each chart's title and axis names, from the description.
    const specs = reg.preset_charts ? reg.preset_charts(currentPreset()) : [];
    currentViews().forEach((v, i) => { if (specs[i]) v.placeholder(specs[i]); });
    return;
  }
  let view;
  try {
    view = merge(currentPreset(), form.read(), []);
  } catch {
    view = merge(currentPreset(), {}, []);
  }
  for (const v of currentViews()) v.showTable(null);
  drawChartsSpread(view.charts);
}

function clearResults(message) {
  lastSnapshot = null;
  lastRun = null;
  previous = null;
  $('results').classList.remove('stale');
  $('stale-note').hidden = true;
  setExportsEnabled(false);
  explain.clear(message);
  roundView.show(null);
  statement.clear();
  $('progress').value = 0;
  showAllClaims();
}

function setExportsEnabled(on) {
  $('export-csv').disabled = !on;
  $('pin-run').disabled = !(on && lastSnapshot && lastSnapshot.finished);
  for (const v of currentViews()) v.setExportsEnabled(on);
}

function render(snap, then) {
  const t0 = performance.now();
  clearTimeout(renderTimer);
  renderTimer = null;
  pendingSnapshot = null;
  lastSnapshot = snap;
  if (running && !drawnThisRun && snap.charts.some((c) => c.series.some((x) => !x.horizontal && x.points.length))) {
    drawnThisRun = true;
    performance.mark('dp-first-point'); // Run → first point (scripts/bench-latency.mjs)
  }
  $('progress').max = Math.max(1, snap.total);
  $('progress').value = snap.done;
  // While a run replaces earlier results, a table or the accounting is replaced once the run has as
  // much to show (it is faded meanwhile): the page does not shrink and grow under the reader.
  const replacing = running && previous && !snap.finished;
  currentViews().forEach((v, i) => {
    const t = snap.tables[i];
    const shownRows = v.table.tBodies[0] ? v.table.tBodies[0].rows.length : 0;
    const keep = replacing && (!t || t.rows.length < shownRows);
    if (!keep) v.showTable(t);
    v.figure.classList.toggle('previous-table', keep);
  });
  if (!replacing || snap.privacy.length) explain.show(snap.privacy, auditRows());
  statement.show(lastRun, snap);
  $('privacy-content').classList.toggle('previous', !!replacing && !snap.privacy.length);
  // The claims' marks keep the previous run's verdicts (faded) until this run's are in.
  $('results').classList.toggle('replacing', !!replacing);
  if (!replacing) showAllClaims();
  // A finished run: "Look inside one round" replays its settings' round (when opened).
  if (snap.finished && lastRun) roundView.show(lastRun);
  renderCost = { ms: performance.now() - t0 };
  drawChartsSpread(snap.charts, then, renderCost);
}

// Progress arrives from every worker; merge and draw at most every RENDER_MS, and
// RENDER_GAP times as long as the last drawing took: while the workers keep every core busy,
// the main thread's drawing (the merge, tables, charts: 40–80 ms for DP-GD's four charts
// on a loaded 2-core machine) takes at most about a sixth of a core from them.
const RENDER_MS = 150;
const RENDER_GAP = 5;
let renderCost = { ms: 0 };
let renderTimer = null;
let pendingSnapshot = null;
function renderSoon(getSnapshot) {
  pendingSnapshot = getSnapshot;
  // The run's first results are drawn at once: the first curve should not wait.
  if (!drawnThisRun && !renderTimer) {
    render(getSnapshot());
    return;
  }
  if (renderTimer) return;
  renderTimer = setTimeout(() => {
    renderTimer = null;
    if (pendingSnapshot && running) {
      const t0 = performance.now();
      const snap = pendingSnapshot();
      const merging = performance.now() - t0;
      render(snap);
      renderCost.ms += merging;
    }
    pendingSnapshot = null;
  }, Math.max(RENDER_MS, RENDER_GAP * renderCost.ms));
}

/** A run that ended without its results: nothing of the previous results is kept faded any more. */
function endReplacing() {
  previous = null;
  for (const v of currentViews()) v.figure.classList.remove('previous-table');
  $('privacy-content').classList.remove('previous');
  $('results').classList.remove('replacing');
  showAllClaims();
}

// ---------- worker pool ----------
function makePool() {
  return new SweepPool({
    size: defaultPoolSize(),
    merge: (preset, fields, parts, finished, kept) => (kept
      ? merge(preset, fields, parts, finished, kept.part, kept.jobs)
      : merge(preset, fields, parts, finished)),
    onProgress: (p) => {
      if (!running) return;
      if (p.changed) renderSoon(p.snapshot);
      $('progress').max = Math.max(1, p.total);
      $('progress').value = p.done;
      setStatus('running', `${outOfDate() ? STALE_RUNNING : ''}Running: ${p.phase} (${p.done}/${p.total})`);
    },
    onResult: (snap, seconds, finishedRun) => {
      // The whole run replaces the previous results; it counts as running until its charts are drawn.
      previous = null;
      resultCache.keep(finishedRun);
      const token = runToken;
      render(snap, () => {
        if (token !== runToken) return; // a newer run has started meanwhile
        running = false;
        performance.mark('dp-done');
        // The cache's single part, computed now that the page is idle (not when the next run waits).
        setTimeout(() => resultCache.whole(), 0);
        setExportsEnabled(true);
        // A run whose settings were edited while it ran is of the previous settings: it says so.
        const stale = outOfDate();
        markStale();
        setStatus('done', stale
          ? `Done in ${seconds.toFixed(2)} s, for the previous settings: they changed during the run. Press Run to update.`
          : `Done in ${seconds.toFixed(2)} s.`);
        if (selected) for (const v of currentViews()) if (plotsEpsilon(v)) v.redraw();
      });
    },
    onCancelled: (partial) => {
      running = false;
      endReplacing();
      if (partial) {
        render(partial, () => setExportsEnabled(true));
        setStatus('idle', 'Stopped. The finished part of the sweep is shown (partial results; the CSV holds the finished runs).');
      } else {
        redraw();
        setStatus('idle', 'Stopped before any run finished.');
      }
    },
    onError: (message) => {
      running = false;
      endReplacing();
      setStatus('error', 'The run failed; the page is still usable.');
      showError(message);
    },
  });
}

/** Starts a sweep of the form's settings; `scroll`: a press of Run on a phone brings the results into view
 * (a slider's or an edit's re-run does not: the page stays where the reader is); `checked`: `{ est }`,
 * the settings were validated without errors, estimated and written to the link just now (an edit's re-run). */
function run({ scroll = false, checked = null } = {}) {
  if (!moduleReady) return; // the Run button says "Loading…" until then
  // A press of Run makes the pending re-run of the last edit redundant (it would run the same settings again).
  clearTimeout(editTimer);
  const { errors, unplaced } = checked ? { errors: [], unplaced: [] } : validate();
  if (errors.length) {
    setStatus('error', 'Nothing was run: fix the marked settings.');
    const placed = errors.filter((e) => !unplaced.includes(e.message));
    const marked = new Set(placed.map((e) => e.field)).size;
    const lines = [...unplaced];
    if (marked) lines.push(`Fix ${marked === 1 ? 'the marked setting' : `the ${marked} marked settings`}: ${placed.map((x) => form.describe(x)).join('; ')}`);
    showError(lines.join('\n'));
    return;
  }
  const settings = { preset: currentPreset(), fields: form.read() };
  const key = JSON.stringify(settings);
  // Already computing exactly this: nothing to do (a new setting restarts).
  if (running && lastRun && JSON.stringify(lastRun) === key) return;
  const est = checked ? checked.est : showEstimate();
  if (est !== null && est > LONG_SECONDS && confirmKey !== key) {
    confirmKey = key;
    setStatus(running ? 'running' : 'idle', `This run is estimated to take ${fmtDuration(est)}. Press Run again to start it.`);
    return;
  }
  showError('');
  if (!checked) writeUrl();
  // The results shown stay, faded under the new run's curves until it draws its own: never a blank chart.
  const before = lastSnapshot && lastSnapshot.finished ? lastSnapshot : (previous || lastSnapshot);
  previous = before ? { scenario: info.id, charts: before.charts } : null;
  lastSnapshot = null;
  lastRun = settings;
  runToken += 1;
  running = true;
  drawnThisRun = false;
  performance.mark('dp-run');
  // The workers start first: the page's own drawing below runs while they compute.
  startPool(settings);
  $('results').classList.remove('stale');
  $('stale-note').hidden = true;
  $('results').classList.toggle('replacing', !!previous);
  setExportsEnabled(false);
  $('progress').value = 0;
  if (previous) {
    try {
      drawChartsSpread(merge(settings.preset, settings.fields, []).charts);
    } catch {
      // the charts are redrawn by the run's first progress
    }
  } else {
    explain.clear('No private run has finished yet.');
    showAllClaims();
  }
  setStatus('running', 'Starting…');
  // Stacked layout (a phone): the results come after the form; bring them into view.
  if (scroll && window.matchMedia('(max-width: 62rem)').matches) {
    window.scrollTo({ top: Math.max(0, $('results').getBoundingClientRect().top + window.scrollY - 8) });
  }
}

/** Hands the sweep of `settings` to the worker pool. */
function startPool(settings) {
  const shards = info.splits ? pool.size : 1;
  // Few large runs: the workers share each run's users (the scenario's cost model decides).
  let byUsers = false;
  try {
    byUsers = shards > 1 && info.user_split && split_by_users(settings.preset, settings.fields, shards);
  } catch {
    byUsers = false;
  }
  // How the sweep is split, for tests and benchmarks: "users:2", "runs:2", "runs:1".
  document.body.dataset.pool = `${byUsers ? 'users' : 'runs'}:${shards}`;
  // Runs that the last finished run computed with the same numbers are kept, not computed again.
  const kept = byUsers ? null : resultCache.keptFor(settings);
  document.body.dataset.kept = kept ? String(kept.jobs.length) : '0';
  pool.run(settings.preset, settings.fields, shards, byUsers, kept);
}

function stop() {
  if (running) pool.cancel();
}

// ---------- wiring ----------
$('config').addEventListener('submit', (e) => { e.preventDefault(); run({ scroll: true }); });
$('stop').addEventListener('click', stop);
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && running) stop();
});
$('reset').addEventListener('click', () => {
  loadPreset(currentPreset());
  validate();
  showError('');
  writeUrl();
  if (!running) setStatus('idle', 'Ready.');
});
$('preset').addEventListener('change', () => {
  if (running) stop();
  loadPreset(currentPreset());
  const { errors } = validate();
  if (!running && errors.length === 0) { showError(''); setStatus('idle', 'Ready. Press Run.'); }
  writeUrl();
  showEstimate();
});
wireModes({ update: writeUrl, redraw });
wireLecture({ views: currentViews });
$('lesson-prev').addEventListener('click', () => { lessonStep = Math.max(0, lessonStep - 1); showLesson(); });
$('lesson-next').addEventListener('click', () => { lessonStep = Math.min(info.lesson.length - 1, lessonStep + 1); showLesson(); });
$('lesson-apply').addEventListener('click', applyLessonStep);
wirePins(pins, {
  shown: () => lastSnapshot && lastSnapshot.finished && {
    finished: true,
    scenario: info.id,
    run: lastRun,
    series: Object.fromEntries(currentViews().map((v, i) => [v.id, lastSnapshot.charts[i].series])),
  },
  presetFields: (name) => reg.preset_fields(name),
  label: (name) => form.label(name),
  redraw: () => redraw(),
});
$('export-csv').addEventListener('click', () => {
  if (lastSnapshot && lastSnapshot.files.length) {
    download(lastSnapshot.files[0].name, 'text/csv', lastSnapshot.files[0].text);
  }
});
// The config of the results shown (the form may have changed since), or of the form.
$('export-json').addEventListener('click', () => {
  const r = lastRun && lastSnapshot ? lastRun : { preset: currentPreset(), fields: form.read() };
  download('config.json', 'application/json', `${JSON.stringify({ preset: r.preset, ...r.fields, ...statementEntry() }, null, 2)}\n`); // risk change: + statement
});
// The address holds the form's settings; when the results on screen are of others, the link says so.
wireLinks({
  update: writeUrl,
  note: () => (outOfDate() ? ' It holds the edited settings, not the results on screen: press Run to show them.' : ''),
});
let resizeTimer = null;
window.addEventListener('resize', () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(redraw, 120);
});

/** Paints the menu, the charts' frames, and the link's (or the default) preset: lede, form, lesson. */
function paint() {
  infos = reg.scenarios();
  buildPresetMenu();
  body.dataset.painted = '';
  return readUrl();
}

/** Resolves once the browser has drawn what is on the page (after the next frame). */
function afterPaint() {
  return new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
}

async function main() {
  // The page paints from the description first (its fetch is preloaded with the
  // HTML); the module (about 2 MB) is fetched and compiled after that paint,
  // so it stays off the first paint's critical path.
  const description = await loadDescription();
  let notes = null;
  if (description) {
    reg = describedRegistry(description);
    notes = paint();
    setStatus('loading', LOADING_TEXT);
    await afterPaint();
  }
  const ready = init();
  try {
    await ready;
  } catch (e) {
    setStatus('error', 'Could not load the WebAssembly module.');
    showError(String(e.message || e));
    return;
  }
  moduleReady = true;
  body.dataset.module = 'ready';
  if (!description) notes = paint();
  // The module's instantiation, the audit panel and the charts each in their own task: none holds the main thread long.
  await new Promise((ok) => setTimeout(ok, 0));
  audit = new AuditPanel({
    textScale,
    // A finished or cleared audit: the ε charts show its bounds, or no longer do.
    changed: () => {
      // Only a chart whose shown spec changed (the audit's marks on it) is drawn again: an edit
      // clears an audit that was never run, which changes no chart.
      for (const v of currentViews()) v.redraw({ unlessUnchanged: true });
      // Explain ε draws the audit's attack in each audited run's (FPR, TPR) picture.
      if (lastSnapshot) explain.show(lastSnapshot.privacy, auditRows());
    },
    current: () => (validate().errors.length ? null : { preset: currentPreset(), fields: form.read(), info }),
    // The estimate is scaled to this machine as the sweep's is (the default runs are not).
    machine: () => machineFactors($('estimate')),
  });
  await new Promise((ok) => setTimeout(ok, 0));
  const { errors, unplaced } = validate();
  const messages = [...unplaced, ...notes];
  // An unknown preset is no setting to fix: the default is shown, ready to run, and the status names it.
  if (errors.length) {
    setStatus('error', 'Some settings from the link are not valid: see the marked fields.');
    // Each marked setting by its label, with its message (one folded under "More settings" is shown open).
    const placed = errors.filter((e) => !unplaced.includes(e.message));
    if (placed.length) messages.push(`Fix the marked settings: ${placed.map((x) => form.describe(x)).join('; ')}.`);
    showError(messages.length ? messages.join('\n') : 'Fix the marked settings.');
  } else {
    if (messages.length) showError(messages.join('\n'));
    setStatus('idle', missingPreset === null ? 'Ready. Press Run.' : `${missingPresetText(missingPreset, 'N')}. Press Run.`);
  }
  drawEmptyCharts();
  const est = showEstimate();
  // The workers start now; for a short run of valid settings they also compile what a run calls.
  pool.warm(errors.length || est === null || est > AUTO_RUN_SECONDS ? null : { ...formSettings(), shards: info.splits ? pool.size : 1 });
  // The hosted site keeps itself for offline use (after the first paint and the module: it fetches every file).
  registerOffline();
}

main();
