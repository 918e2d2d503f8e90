// Main thread: builds the page from the scenarios' descriptions (presets,
// field tables, charts; from pkg/describe.json at once, which the build writes
// from the registry, or else from the wasm module once it has loaded), and wires
// the page's modules together around one page state (page-state.js; the address
// is written from it). No scenario is named here: everything comes from the registry.
//
// `page` is what the modules share: the state, the run (run.js), the views
// (scenario-view.js, results-view.js, lesson.js), the edits (edits.js) and the
// panels. A new feature is a module of its own, given `page`, built here.
import init, {
  scenarios, default_preset, find_preset, preset_fields,
} from './pkg/dp_explorer.js';
import { machineFactors } from './estimate.js';
import { LOADING_TEXT, setStatusOf, showError } from './status.js';
import { wirePins } from './pin-controls.js';
import { loadDescription, describedRegistry } from './describe.js';
import { registerOffline, watchForRelease } from './offline.js';
import { SettingsForm } from './form.js';
import { Pins } from './pins.js';
import { ExplainPanel } from './explain.js';
import { StatementPanel } from './statement.js';
import { statementEntry } from './export-statement.js'; // risk change: the statement in the JSON export
import { download } from './download.js';
import { AuditPanel } from './audit.js';
import { RoundView } from './round-view.js';
import { missingPresetText, setMode, wireLinks, wireModes } from './links.js';
import { readSettingsUrl, writeSettingsUrl } from './url-state.js';
import { wireLecture } from './lecture.js';
import { PageState } from './page-state.js';
import { RunLifecycle } from './run.js';
import { runReports } from './run-reports.js';
import { ResultsView } from './results-view.js';
import { ScenarioView } from './scenario-view.js';
import { Lesson } from './lesson.js';
import { Edits, AUTO_RUN_SECONDS } from './edits.js';

// A new release can take over while the module starts: listen from here on.
watchForRelease();

const $ = (id) => document.getElementById(id);
const LARGE_SCALE = 1.45; // the text scale of large text

const state = new PageState();
const page = {
  state,
  ready: false, // the wasm module has loaded: validation, estimates, charts and runs work
  // Painting's registry questions: answered by the description until the module has loaded.
  reg: { scenarios, default_preset, find_preset, preset_fields, preset_charts: null },
  audit: null, // the audit panel (built once the module is loaded)
  pins: new Pins(), // pinned runs, drawn behind the results shown
  textScale: () => (state.large ? LARGE_SCALE : 1),
  setStatus: (status, text) => setStatusOf(page.ready, status, text),
  writeUrl: () => writeSettingsUrl(state),
  loadPreset,
};
page.form = new SettingsForm($('fields'), state, selectValue);
page.explain = new ExplainPanel($('privacy-content'), { textScale: page.textScale }); // tradeoff: its chart's text scale
page.roundView = new RoundView($('privacy-panel'), { largeScale: LARGE_SCALE, choices: state.round });
page.statement = new StatementPanel($('privacy-panel'));
page.runs = new RunLifecycle(runReports(page));
page.results = new ResultsView(page);
page.scenes = new ScenarioView(page);
page.lesson = new Lesson(page);
page.edits = new Edits(page);
const { form, runs, results, scenes, edits } = page;
let missingPreset = null; // the link's preset, where the registry has none of that name

/** Shows preset `name` (its scenario, its settings, empty charts). */
function loadPreset(name) {
  const found = page.reg.find_preset(name);
  state.preset = found.preset;
  $('preset').value = found.preset;
  scenes.apply(found.scenario);
  form.fill(page.reg.preset_fields(found.preset));
  results.drawEmptyCharts();
  // The audit panel judged the scenario while its fields were half filled: judge the preset's settings.
  if (page.audit) page.audit.clear();
}

/** Large text or presenter view on or off: the state, then its box and classes. */
function applyMode(name, on) {
  state[name] = on;
  setMode(name, on);
}

/** A list setting's slider selected a value: mark it on the ε charts (once a frame). */
function selectValue(name, value, { committed = false } = {}) {
  state.selected = { name, value };
  if (name === 'epsilons') page.roundView.selectEpsilon(value);
  page.explain.select(name, value); // tradeoff: the trade-off chart shows the run at the selected value
  // Released (or a key, or a link): the link selects it too (a value added to the list is written by the edit).
  if (committed) page.writeUrl();
  results.markSelected();
}

// ---------- wiring ----------
const OPTION_BOXES = ['large-text', 'present', 'auto-run'];
$('config').addEventListener('input', (e) => {
  // A slider only selects: when it changes the settings, it does so through its list's input.
  if (OPTION_BOXES.includes(e.target.id) || e.target.type === 'range') return;
  // A slider's value (released) re-runs at once: there is no typing to wait for.
  edits.settingsChanged({ now: !!(e.detail && e.detail.slider) });
});
$('config').addEventListener('submit', (e) => { e.preventDefault(); edits.run({ scroll: true }); });
$('stop').addEventListener('click', () => runs.stop());
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && runs.running) runs.stop();
});
$('reset').addEventListener('click', () => {
  loadPreset(state.preset);
  edits.validate();
  showError('');
  page.writeUrl();
  if (!runs.running) page.setStatus('idle', 'Ready.');
});
$('preset').addEventListener('change', (e) => {
  if (runs.running) runs.stop();
  loadPreset(e.target.value);
  const { errors } = edits.validate();
  if (!runs.running && errors.length === 0) { showError(''); page.setStatus('idle', 'Ready. Press Run.'); }
  page.writeUrl();
  edits.showEstimate();
});
$('auto-run').checked = state.autoRun;
$('auto-run').addEventListener('change', (e) => { state.autoRun = e.target.checked; });
wireModes({ set: applyMode, update: page.writeUrl, redraw: () => results.redraw() });
wireLecture({ views: () => scenes.currentViews(), present: () => state.present });
wirePins(page.pins, {
  shown: () => runs.snapshot && runs.snapshot.finished && {
    finished: true,
    scenario: scenes.info.id,
    run: runs.run,
    series: Object.fromEntries(scenes.currentViews().map((v, i) => [v.id, runs.snapshot.charts[i].series])),
    axes: Object.fromEntries(scenes.currentViews().map((v, i) => [v.id, runs.snapshot.charts[i].x_label])),
  },
  presetFields: (name) => page.reg.preset_fields(name),
  label: (name) => form.label(name),
  redraw: () => results.redraw(),
});
$('export-csv').addEventListener('click', () => {
  const snap = runs.snapshot;
  if (snap && snap.files.length) download(snap.files[0].name, 'text/csv', snap.files[0].text);
});
// The config of the results shown (the form may have changed since), or of the form.
$('export-json').addEventListener('click', () => {
  const r = runs.run && runs.snapshot ? runs.run : state.settings();
  download('config.json', 'application/json', `${JSON.stringify({ preset: r.preset, ...r.fields, ...statementEntry() }, null, 2)}\n`); // risk change: + statement
});
// The address holds the form's settings; when the results on screen are of others, the link says so.
wireLinks({
  update: page.writeUrl,
  note: () => (runs.outOfDate(state.settings()) ? ' It holds the edited settings, not the results on screen: press Run to show them.' : ''),
});
let resizeTimer = null;
window.addEventListener('resize', () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => results.redraw(), 120);
});

/** Paints the menu, the charts' frames, and the link's (or the default) preset: lede, form, lesson;
 * returns what of the link could not be used. */
function paint() {
  scenes.buildPresetMenu(page.reg.scenarios());
  document.body.dataset.painted = '';
  const { notes, missing } = readSettingsUrl({ reg: page.reg, form, loadPreset, setMode: applyMode });
  missingPreset = missing;
  // The two boxes as the state says (the link's, else off), whatever the browser restored in them.
  for (const name of ['large', 'present']) setMode(name, state[name]);
  return notes;
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
    page.reg = describedRegistry(description);
    notes = paint();
    page.setStatus('loading', LOADING_TEXT);
    await afterPaint();
  }
  try {
    await init();
  } catch (e) {
    page.setStatus('error', 'Could not load the WebAssembly module.');
    showError(String(e.message || e));
    return;
  }
  page.ready = true;
  document.body.dataset.module = 'ready';
  if (!description) notes = paint();
  // The module's instantiation, the audit panel and the charts each in their own task: none holds the main thread long.
  await new Promise((ok) => setTimeout(ok, 0));
  page.audit = new AuditPanel({
    choices: state.audit,
    textScale: page.textScale,
    // A finished or cleared audit: the ε charts show its bounds, or no longer do.
    changed: () => {
      // Only a chart whose shown spec changed (the audit's marks on it) is drawn again: an edit
      // clears an audit that was never run, which changes no chart.
      for (const v of scenes.currentViews()) v.redraw({ unlessUnchanged: true });
      // Explain ε draws the audit's attack in each audited run's (FPR, TPR) picture.
      if (runs.snapshot) page.explain.show(runs.snapshot.privacy, results.auditRows());
    },
    current: () => (edits.validate().errors.length ? null : { ...state.settings(), info: scenes.info }),
    // The estimate is scaled to this machine as the sweep's is (the default runs are not).
    machine: () => machineFactors($('estimate')),
  });
  await new Promise((ok) => setTimeout(ok, 0));
  const { errors, unplaced } = edits.validate();
  const messages = [...unplaced, ...notes];
  // An unknown preset is no setting to fix: the default is shown, ready to run, and the status names it.
  if (errors.length) {
    page.setStatus('error', 'Some settings from the link are not valid: see the marked fields.');
    // Each marked setting by its label, with its message (one folded under "More settings" is shown open).
    const placed = errors.filter((e) => !unplaced.includes(e.message));
    if (placed.length) messages.push(`Fix the marked settings: ${placed.map((x) => form.describe(x)).join('; ')}.`);
    showError(messages.length ? messages.join('\n') : 'Fix the marked settings.');
  } else {
    if (messages.length) showError(messages.join('\n'));
    page.setStatus('idle', missingPreset === null ? 'Ready. Press Run.' : `${missingPresetText(missingPreset, 'N')}. Press Run.`);
  }
  results.drawEmptyCharts();
  const est = edits.showEstimate();
  // The workers start now; for a short run of valid settings they also compile what a run calls.
  const short = errors.length === 0 && est !== null && est <= AUTO_RUN_SECONDS;
  runs.warm(short ? { ...state.settings(), shards: scenes.info.splits ? runs.workers : 1 } : null);
  // The hosted site keeps itself for offline use (after the first paint and the module: it fetches every file).
  registerOffline();
}

main();
