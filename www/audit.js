// The audit panel: attacks the current preset's private runs (a canary in or
// out, R runs per side, in its own worker) and shows the attack's lower bounds
// on ε beside the accountant's (Clopper–Pearson bounds ε; the Gaussian-DP route
// rules out μ-GDP below its μ_LB, and its ε assumes the Gaussian trade-off
// shape), the attack's trade-off curve over the accountant's, and what that
// shows in words. The game, the bounds, its time estimate, the charts and the
// words come from Rust (`Auditor`); this module drives the worker and draws.
// Before an audit starts, the panel shows its estimate beside "Run audit" (the
// worker plans it: the scenario's default runs per side, or the runs asked
// for, the records it runs at — a default may audit fewer than the preset's —
// and the seconds they take), updated as runs, mode and broken change;
// while it runs, the time left. Its choices (runs per side, mode, broken) are
// the page state's `audit` (page-state.js): its controls write them as they
// change, and are written from them, never read back.
import { audit_charts } from './pkg/dp_explorer.js';
import { ChartView } from './chart-view.js';
import { cell } from './tables.js';
import { download } from './download.js';
import { fmt } from './format.js';

const $ = (id) => document.getElementById(id);

/** Seconds in words, to two figures. */
function duration(seconds) {
  if (seconds < 1) return 'under a second';
  if (seconds < 120) return `about ${fmt(seconds, 2)} s`;
  return `about ${fmt(seconds / 60, 2)} min`;
}

/** Runs per side as typed (`text`), or null when it is not a whole number in 10–100000. */
function typedRuns(text) {
  const runs = Number(text);
  return Number.isInteger(runs) && runs >= 10 && runs <= 100000 ? runs : null;
}

/** One note: its verdict first, what decided it folded under it. */
function noteItem(n) {
  const li = document.createElement('li');
  if (!n.details) {
    li.textContent = n.verdict;
    return li;
  }
  const det = document.createElement('details');
  det.appendChild(cell('summary', n.verdict));
  det.appendChild(cell('p', n.details));
  li.appendChild(det);
  return li;
}

export class AuditPanel {
  /**
   * @param {object} o
   * @param {{runs: string|null, mode: string, broken: boolean}} o.choices the page state's `audit` (page-state.js)
   * @param {() => {preset: string, fields: object, info: object} | null} o.current the settings to audit (null: invalid)
   * @param {() => number} o.textScale
   * @param {() => void} [o.changed] called when an audit finishes or is cleared
   */
  constructor(o) {
    this.o = o;
    this.worker = null;
    this.generation = 0;
    this.running = false;
    this.view = null;
    this.estimate = null;
    // The runs per side and the records of the audit running, for its status.
    this.runsText = null;
    // The runs per side the last plan gave (the scenario's default, shown while none are typed; until
    // a new plan comes, the last one's).
    this.plannedRuns = null;
    this.planGeneration = 0;
    this.planTimer = null;
    // Why the audit cannot run these settings (the plan's error), or null: "Run audit" is off while it is set.
    this.planError = null;
    // The estimate before the audit starts, beside its buttons.
    const estimate = document.createElement('span');
    estimate.id = 'audit-estimate';
    estimate.className = 'help';
    $('audit-csv').after(estimate);
    const { choices } = o;
    $('audit-runs').addEventListener('input', (e) => {
      choices.runs = e.target.value;
      this.plan();
    });
    $('audit-mode').addEventListener('change', (e) => {
      choices.mode = e.target.value;
      this.plan();
    });
    $('audit-broken').addEventListener('change', (e) => {
      choices.broken = e.target.checked;
      this.plan();
    });
    this.views = audit_charts().map((info) => {
      const v = new ChartView(info, { textScale: o.textScale, decorate: (_, spec) => spec });
      $('audit-charts').appendChild(v.figure);
      return v;
    });
    $('audit-run').addEventListener('click', () => this.start());
    $('audit-stop').addEventListener('click', () => this.stop());
    $('audit-csv').addEventListener('click', () => {
      if (this.view) download('audit.csv', 'text/csv', this.view.files[0].text);
    });
    this.clear();
  }

  /** A new scenario or new settings: the last audit no longer describes them. */
  clear() {
    this.stop();
    this.view = null;
    for (const v of this.views) {
      v.draw({ title: v.info.name, x_label: '', y_label: '', log_x: false, log_y: false, x_hint: null, series: [] });
      v.showTable(null);
      v.setExportsEnabled(false);
    }
    $('audit-notes').replaceChildren();
    $('audit-csv').disabled = true;
    if (this.o.changed) this.o.changed();
    const cur = this.o.current();
    const supported = !!(cur && cur.info.audit);
    $('audit-run').disabled = !supported;
    let why = 'This scenario has no audit.';
    if (!cur) why = 'Fix the marked settings above to audit them.';
    this.status(supported ? 'Press “Run audit” to attack the private runs of these settings.' : why);
    // New settings: the scenario's default runs per side again.
    this.o.choices.runs = null;
    this.planError = null;
    this.plan();
  }

  /** Whether runs per side were typed (else the scenario's default). */
  get userRuns() {
    return this.o.choices.runs !== null;
  }

  /** The controls as the state says: the runs typed (or the planned default), the mode, broken. */
  writeControls() {
    const { runs, mode, broken } = this.o.choices;
    const shown = runs ?? (this.plannedRuns === null ? '' : String(this.plannedRuns));
    // Written only when it differs: rewriting the field a reader types in would move the caret.
    if ($('audit-runs').value !== shown) $('audit-runs').value = shown;
    $('audit-mode').value = mode;
    $('audit-broken').checked = broken;
  }

  ensureWorker() {
    if (!this.worker) {
      this.worker = new Worker(new URL('./audit-worker.js', import.meta.url), { type: 'module' });
      this.worker.onmessage = (e) => this.onMessage(e.data);
    }
  }

  /** Asks the worker for the audit these settings would run (its runs and estimate), shortly after the last change. */
  plan() {
    clearTimeout(this.planTimer);
    this.planGeneration += 1;
    this.writeControls();
    const cur = this.o.current();
    const el = $('audit-estimate');
    delete el.dataset.seconds;
    if (!cur || !cur.info.audit) {
      el.textContent = '';
      return;
    }
    const { choices } = this.o;
    const runs = this.userRuns ? typedRuns(choices.runs) : 0;
    if (runs === null) {
      el.textContent = 'Runs per side: a whole number between 10 and 100000.';
      this.runnable(true); // pressed, it says so beside the runs
      return;
    }
    el.textContent = 'Estimating…';
    const plan = this.planGeneration;
    this.planTimer = setTimeout(() => {
      this.ensureWorker();
      this.worker.postMessage({
        type: 'plan', plan, preset: cur.preset, fields: cur.fields, runs,
        mode: choices.mode, broken: choices.broken, seed: 1, machine: this.machine(),
      });
    }, 150);
  }

  onPlan(m) {
    if (m.plan !== this.planGeneration) return;
    const el = $('audit-estimate');
    if (m.error) {
      el.textContent = `The audit cannot run: ${m.error}`;
      this.planError = m.error;
      this.runnable(false);
      this.status('“Run audit” is off: the audit cannot run these settings (the reason is beside the button).');
      return;
    }
    this.planError = null;
    this.runnable(true);
    this.plannedRuns = m.runs;
    this.writeControls();
    el.dataset.seconds = String(m.estimate);
    el.dataset.runs = String(m.runs);
    el.dataset.wanted = String(m.wanted);
    el.dataset.resized = String(m.resized);
    // The records it runs at (Rust's words: "at n = 400 of the preset's 20 000 users").
    const at = m.sized ? ` ${m.sized}` : '';
    let def = '';
    if (!this.userRuns && m.runs < m.wanted) {
      const fewer = m.resized ? ' even at fewer records' : '';
      def = ` (this preset's default: one of its runs is slow${fewer}, so fewer than the ${m.wanted} its attacks want to catch a planted bug; type more runs to prove more)`;
    } else if (!this.userRuns && m.resized) {
      def = ' (this preset\'s default: at fewer records than the preset\'s, so that the runs its attacks want fit; the white-box game is the same, and the notes say why; typed runs play at the preset\'s size)';
    } else if (!this.userRuns) {
      def = ' (this scenario\'s default; more runs prove more and take longer)';
    }
    const reach = m.reach ? ` ${m.reach}` : '';
    el.textContent = `Estimated ${duration(m.estimate)}: ${m.runs} runs per side${at}${def}, ${m.total} pairs of runs in all.${reach}`;
  }

  /** "Run audit" on where these settings can be audited (`ok`) and no audit is running. */
  runnable(ok) {
    $('audit-run').disabled = this.running || !ok;
  }

  status(text) {
    $('audit-status').textContent = text;
  }

  start() {
    const cur = this.o.current();
    if (!cur || !cur.info.audit) return;
    this.stop();
    const { choices } = this.o;
    const asked = typedRuns(choices.runs);
    if (this.userRuns && asked === null) {
      $('audit-runs').setAttribute('aria-invalid', 'true');
      this.status('Runs per side: a whole number between 10 and 100000.');
      return;
    }
    $('audit-runs').removeAttribute('aria-invalid');
    // 0: the scenario's default (the field shows it once planned).
    const runs = this.userRuns ? asked : 0;
    this.ensureWorker();
    this.generation += 1;
    this.started = performance.now();
    this.running = true;
    this.estimate = null;
    this.runsText = null;
    document.body.dataset.audit = 'running';
    $('audit-run').disabled = true;
    $('audit-stop').disabled = false;
    this.status('Starting the audit…');
    this.worker.postMessage({
      type: 'audit',
      generation: this.generation,
      preset: cur.preset,
      fields: cur.fields,
      runs,
      mode: choices.mode,
      broken: choices.broken,
      seed: 1,
      machine: this.machine(),
    });
  }

  /** This machine's factors over the one the estimates were fitted on (the page's probe), or none. */
  machine() {
    return this.o.machine ? this.o.machine() : null;
  }

  stop() {
    if (!this.running) return;
    this.running = false;
    this.worker.postMessage({ type: 'cancel', generation: this.generation });
    this.generation += 1;
    document.body.dataset.audit = 'idle';
    this.runnable(this.planError === null);
    $('audit-stop').disabled = true;
    this.status('Audit stopped.');
  }

  onMessage(m) {
    if (m.type === 'plan') {
      this.onPlan(m);
      return;
    }
    if (m.generation !== this.generation) return;
    if (m.type === 'progress') {
      if (m.estimate !== undefined) this.estimate = m.estimate;
      if (m.runs !== undefined) this.runsText = ` (${m.runs} per side${m.sized ? ` ${m.sized}` : ''})`;
      $('audit-progress').max = Math.max(1, m.total);
      $('audit-progress').value = m.done;
      // Time left: from the pace so far once a tenth is done, else from the estimate.
      const elapsed = (performance.now() - this.started) / 1000;
      let left = null;
      if (m.done >= 0.1 * m.total && m.done > 0) left = (elapsed * (m.total - m.done)) / m.done;
      else if (this.estimate !== null) left = Math.max(0, this.estimate - elapsed);
      const est = this.estimate === null ? '' : `; estimated ${duration(this.estimate)} in all`;
      const runs = this.runsText ?? '';
      const tail = left === null ? '' : `, ${duration(left)} left`;
      this.status(`Auditing: ${m.done} of ${m.total} pairs of runs${runs}${tail}${est}.`);
    } else if (m.type === 'result') {
      this.running = false;
      this.view = m.view;
      $('audit-progress').value = $('audit-progress').max;
      this.views.forEach((v, i) => {
        v.draw(m.view.charts[i]);
        v.showTable(m.view.tables[i]);
        v.setExportsEnabled(true);
      });
      $('audit-notes').replaceChildren(...m.view.notes.map(noteItem));
      $('audit-csv').disabled = false;
      this.runnable(this.planError === null);
      $('audit-stop').disabled = true;
      document.body.dataset.audit = 'done';
      const est = this.estimate === null ? '' : ` (estimated ${duration(this.estimate)})`;
      // Only releases drawn on a scenario's ε chart are marked there (trace's chart, whose x axis is each
      // algorithm's ε, is not), and only where the shown run has that ε.
      const marked = m.view.rows.some((r) => r.curve);
      const where = marked
        ? ': where the ε chart above has an audited ε, a segment marks it from the attack\'s lower bound to the ε claimed'
        : ': the bounds are in the audit charts and notes below';
      this.status(`Audit done in ${m.seconds.toFixed(2)} s${est}${where}.`);
      if (this.o.changed) this.o.changed();
    } else if (m.type === 'error') {
      this.running = false;
      if (m.fatal) {
        this.worker.terminate();
        this.worker = null;
      }
      this.runnable(this.planError === null);
      $('audit-stop').disabled = true;
      document.body.dataset.audit = 'error';
      this.status(`The audit could not run: ${m.message}`);
    }
  }
}
