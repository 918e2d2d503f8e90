// What an edit and a press of Run do: validate the page state's settings (Rust, the same code as the
// runs: the state's one checked `Configuration` of the edit, page-state.js), mark the results stale,
// keep the address, show the estimate (asked of that configuration), and re-run a short sweep by
// itself; a press of Run starts the run (run.js) on that configuration once a long one is confirmed.
import { machineFactors, fmtDuration } from './estimate.js';
import { sayStatus, showError, statusNow } from './status.js';

const $ = (id) => document.getElementById(id);

// A change re-runs by itself when the run is estimated to take at most this
// long; a run estimated over LONG_SECONDS asks for a second press of Run.
export const AUTO_RUN_SECONDS = 3;
const LONG_SECONDS = 30;
export const STALE_RUNNING = 'Settings changed: this run is of the previous ones (press Run for the new). ';

export class Edits {
  /** @param {object} page main.js's page (`state`, `form`, `runs`, `results`, `scenes`, `audit`, `ready`, `setStatus`, `writeUrl`) */
  constructor(page) {
    this.page = page;
    this.timer = null;
  }

  /** Validates the page state's settings; marks the errors at their fields. */
  validate() {
    const { page } = this;
    if (!page.ready) return { errors: [], unplaced: [] }; // validated once the module has loaded
    const { errors } = page.state.checked();
    const unplaced = page.form.markErrors(errors);
    return { errors, unplaced };
  }

  /** Seconds the page state's settings take on this page (null: they do not validate). */
  estimate() {
    const { state, runs, ready } = this.page;
    const { configuration } = ready ? state.checked() : {};
    if (!configuration) return null;
    return configuration.estimated_page_seconds(runs.workersFor(configuration), machineFactors($('estimate')));
  }

  showEstimate() {
    const est = this.estimate();
    const n = this.page.runs.workers;
    // The estimate says how many workers it is for.
    $('estimate').textContent = est === null ? '' : `Estimated time: ${fmtDuration(est)} on ${n} worker${n === 1 ? '' : 's'}.`;
    // The seconds and the machine's factor behind the words (scripts/estimates.mjs reads them).
    if (est === null) delete $('estimate').dataset.seconds;
    else $('estimate').dataset.seconds = String(est);
    return est;
  }

  /** After an edit: mark the results stale, validate, keep the URL, update the
   * estimate, and re-run a short sweep by itself. */
  settingsChanged({ now = false } = {}) {
    const { page } = this;
    this.markStale();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const { errors } = this.validate();
      page.writeUrl();
      const est = this.showEstimate();
      const { running } = page.runs;
      if (errors.length === 0 && statusNow.name === 'error' && !running) {
        showError('');
        page.setStatus('idle', 'Ready.');
      }
      if (errors.length && !running) {
        // Nothing can run until the field is fixed: say which (never "Ready" beside an invalid field).
        const [{ field, message }] = errors;
        const more = errors.length > 1 ? ` (and ${errors.length - 1} more marked)` : '';
        page.setStatus('error', `Fix “${page.form.label(field)}” to run: ${page.form.messageAt(field, message)}${more}.`);
      } else if (errors.length === 0 && page.state.autoRun && est !== null && est <= AUTO_RUN_SECONDS
        && !page.runs.isCurrent(page.state.settings())) {
        // The settings were just checked, estimated and written to the link: the run does not repeat it.
        this.run({ checked: { est } });
      } else if (errors.length === 0 && !running && page.runs.snapshot === null) {
        page.setStatus('idle', 'Ready. Press Run.');
      }
    }, now ? 0 : 250);
  }

  /** At once after an edit: the results on screen (finished, or a run still
   * computing them) are marked when they are no longer of the form's settings. */
  markStale() {
    const { page } = this;
    if (page.audit) page.audit.clear();
    $('link-note').textContent = ''; // what Copy link said was of the settings before this edit
    const stale = page.runs.outOfDate(page.state.settings());
    page.results.showStale(stale);
    if (page.runs.running) {
      const text = statusNow.text.replace(STALE_RUNNING, '');
      sayStatus(stale ? `${STALE_RUNNING}${text}` : text);
    } else if (stale && (statusNow.name === 'done' || statusNow.name === 'idle')) {
      sayStatus('Settings changed: the results shown are from the previous run. Press Run to update them.');
    }
  }

  /** Starts a sweep of the page state's settings; `scroll`: a press of Run on a phone brings the results into view
   * (a slider's or an edit's re-run does not: the page stays where the reader is); `checked`: `{ est }`,
   * the settings were validated without errors, estimated and written to the link just now (an edit's re-run). */
  run({ scroll = false, checked = null } = {}) {
    const { page } = this;
    if (!page.ready) return; // the Run button says "Loading…" until then
    // A press of Run makes the pending re-run of the last edit redundant (it would run the same settings again).
    clearTimeout(this.timer);
    const { errors, unplaced } = checked ? { errors: [], unplaced: [] } : this.validate();
    if (errors.length) {
      page.setStatus('error', 'Nothing was run: fix the marked settings.');
      const placed = errors.filter((e) => !unplaced.includes(e.message));
      const marked = new Set(placed.map((e) => e.field)).size;
      const lines = [...unplaced];
      if (marked) lines.push(`Fix ${marked === 1 ? 'the marked setting' : `the ${marked} marked settings`}: ${placed.map((x) => page.form.describe(x)).join('; ')}`);
      showError(lines.join('\n'));
      return;
    }
    const checkedNow = page.state.checked();
    const { settings } = checkedNow;
    // Already computing exactly this: nothing to do (a new setting restarts).
    if (page.runs.computing(settings)) return;
    const est = checked ? checked.est : this.showEstimate();
    if (page.runs.needsConfirming(settings, est, LONG_SECONDS)) {
      page.setStatus(page.runs.running ? 'running' : 'idle', `This run is estimated to take ${fmtDuration(est)}. Press Run again to start it.`);
      return;
    }
    const configuration = page.runs.start(checkedNow, page.scenes.info);
    showError('');
    if (!checked) page.writeUrl();
    page.results.started(configuration);
    page.setStatus('running', 'Starting…');
    // Stacked layout (a phone): the results come after the form; bring them into view.
    if (scroll && window.matchMedia('(max-width: 62rem)').matches) {
      window.scrollTo({ top: Math.max(0, $('results').getBoundingClientRect().top + window.scrollY - 8) });
    }
  }
}
