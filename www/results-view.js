// The results as drawn: a run's snapshots on the charts (the previous run's curves faded while a new
// one has not drawn its own, the audit's bounds and the pinned runs over them), the tables, Explain ε,
// the privacy statement, the claims' marks and the exports; drawing throttled while the workers
// compute. It reads the run (run.js) and the page state; it never reads the page's elements back.
import { audit_overlay, Configuration } from './pkg/dp_explorer.js';
import { showClaims } from './claims.js';
import { drawMarker, marksSelected, selectedLabel, showValuesAt, plotsEpsilon } from './live-eps.js';

const $ = (id) => document.getElementById(id);

// Progress arrives from every worker; merge and draw at most every RENDER_MS, and
// RENDER_GAP times as long as the last drawing took: while the workers keep every core busy,
// the main thread's drawing (the merge, tables, charts: 40–80 ms for DP-GD's four charts
// on a loaded 2-core machine) takes at most about a sixth of a core from them.
const RENDER_MS = 150;
const RENDER_GAP = 5;

function sortedByX(s) {
  const byX = (a, b) => a[0] - b[0];
  const sorted = (xs) => xs.every((p, i) => i === 0 || xs[i - 1][0] <= p[0]);
  if (s.horizontal || (sorted(s.points) && sorted(s.band || []))) return s;
  return { ...s, points: [...s.points].sort(byX), band: [...(s.band || [])].sort(byX) };
}

export class ResultsView {
  /**
   * @param {object} page main.js's page: `state`, `runs`, `scenes` (the charts), `form`, `pins`,
   *   `explain`, `statement`, `roundView`, `audit` (once loaded), `reg`, `ready`, `textScale()`
   */
  constructor(page) {
    this.page = page;
    this.renderCost = { ms: 0 };
    this.renderTimer = null;
    this.pendingSnapshot = null;
    this.spreadTimer = null;
    this.markFrame = null;
    // Other panels that show a finished or partial run: `{ show(run, snapshot), clear() }` each (`run`:
    // its { preset, fields }; its `Configuration` is `page.runs.configuration`).
    this.panels = [];
  }

  get views() {
    return this.page.scenes.currentViews();
  }

  /** The finished audit's rows while it describes the results shown (none otherwise). */
  auditRows() {
    const { audit, runs } = this.page;
    return audit && audit.view && !runs.stale ? audit.view.rows : [];
  }

  /** The claims judged on the shown run, when it finished (null: none yet). */
  finishedClaims() {
    const snap = this.page.runs.snapshot;
    return snap && snap.finished ? snap.claims : null;
  }

  claimTexts() {
    const { info } = this.page.scenes;
    return new Map(((info && info.claims) || []).map((c) => [c.id, c.text]));
  }

  /** Every caption's and the lesson step's claim marks, from the shown run. */
  showAllClaims() {
    if (!this.page.scenes.info) return;
    const verdicts = this.finishedClaims();
    const texts = this.claimTexts();
    for (const v of this.views) v.showClaims(verdicts, texts);
    const marks = $('lesson-claims');
    if (marks) showClaims(marks, verdicts, texts);
  }

  /** The results marked as of other settings than the form's (or no longer). */
  showStale(stale) {
    this.page.runs.stale = stale;
    $('results').classList.toggle('stale', stale);
    $('stale-note').hidden = !stale;
  }

  /** A chart's spec with the previous run's curves while a run has not drawn its own, the
   * audit's lower bounds on ε on the audited points (when the audit describes the results
   * shown: an edit clears it), and the pinned runs' curves behind it, named with what
   * differs from the results shown (pins.js). */
  decorate(id, spec) {
    const { runs, scenes, state, form, pins } = this.page;
    const { info } = scenes;
    let out = spec;
    // A run that has not drawn a curve yet: the previous run's, faded and out of the legend, never a blank chart.
    const { previous } = runs;
    const old = previous && previous.scenario === info.id && previous.charts[info.charts.findIndex((c) => c.id === id)];
    // Only on the same x axis: an ε run's curves do not belong on the attacker's-success axis.
    if (old && runs.running && old.x_label === spec.x_label) {
      const drawn = new Map(spec.series.map((s) => [s.name, s.points.length]));
      const kept = old.series
        .filter((s) => s.points.length && (drawn.get(s.name) || 0) < s.points.length)
        .map((s) => ({ ...s, name: `${s.name} (previous run)`, faded: true, in_legend: false, band: [] }));
      out = { ...out, series: [...kept, ...out.series] };
    }
    // Points in increasing x, as a spec promises: a list setting's values in the order typed (the
    // slider appends its value) give some charts' points in that order.
    out = { ...out, series: out.series.map(sortedByX) };
    const rows = this.auditRows();
    if (rows.length) out = audit_overlay(out, rows);
    const toggle = scenes.views.get(id).info.toggle;
    out = pins.decorate(info.id, id, out, runs.run || state.settings(), toggle && toggle[0], (k) => form.label(k));
    return { ...out, series: out.series.map(sortedByX) };
  }

  /** Over each drawn chart: the selected ε; the first ε chart's values at it in words. */
  afterDraw(view, ctx) {
    const { selected } = this.page.state;
    if (!selected) return;
    // The slider's list is the x of the chart: the ε list's on ε, the risks' on the attacker's success.
    if (!marksSelected(view, selected.name)) return;
    const snap = this.page.runs.snapshot;
    const label = selectedLabel(view, selected.value, snap && snap.risk_axis);
    drawMarker(view, ctx, selected.value, view.dpr * (view.scale || this.page.textScale()), label); // the chart's own scale (chart-scale.js)
    if (view === this.views.find((v) => marksSelected(v, selected.name) && !v.figure.hidden)) {
      const out = $(`${selected.name}-readout`);
      if (out) showValuesAt(out, view, selected.value, this.page.runs.running, label);
    }
  }

  /** The selected ε (page state) moved: marked again on the ε charts, once a frame. */
  markSelected() {
    if (this.markFrame) return;
    this.markFrame = requestAnimationFrame(() => {
      this.markFrame = null;
      for (const v of this.views) if (plotsEpsilon(v)) v.redraw();
    });
  }

  // One chart per task: while the workers keep both cores busy a chart can take
  // 20–40 ms, and four in one task would hold the main thread too long. A newer
  // call supersedes an unfinished one; `then` runs once all are drawn.
  drawChartsSpread(charts, then, cost = null) {
    clearTimeout(this.spreadTimer);
    const todo = this.views.map((v, i) => [v, charts[i]]).filter(([, spec]) => spec);
    const next = () => {
      this.spreadTimer = null;
      const job = todo.shift();
      const t0 = performance.now();
      if (job) job[0].draw(job[1]);
      if (cost) cost.ms += performance.now() - t0;
      if (todo.length) this.spreadTimer = setTimeout(next, 0);
      else if (then) then();
    };
    next();
  }

  redraw() {
    for (const v of this.views) v.redraw();
    this.page.explain.redraw(); // tradeoff: the trade-off chart
    if (this.page.audit) this.page.audit.views.forEach((v) => v.redraw());
  }

  /** Empty charts with the scenario's axes (from the settings, or the preset's). */
  drawEmptyCharts() {
    const { state, reg } = this.page;
    if (!this.page.ready) {
      // Before the module: each chart's title and axis names, from the description.
      const specs = reg.preset_charts ? reg.preset_charts(state.preset) : [];
      this.views.forEach((v, i) => { if (specs[i]) v.placeholder(specs[i]); });
      return;
    }
    // The axes of the settings when they check (the state's configuration of this edit), else of the preset's own.
    const { configuration } = state.checked();
    let view;
    if (configuration) {
      view = configuration.merge([]);
    } else {
      const preset = new Configuration(state.preset, {});
      view = preset.merge([]);
      preset.free();
    }
    for (const v of this.views) v.showTable(null);
    this.drawChartsSpread(view.charts);
  }

  /** A run (run.js `start`, its `configuration`) has just started: the results shown stay, faded under its curves until
   * it draws its own (never a blank chart). */
  started(configuration) {
    const { runs } = this.page;
    this.showStale(false);
    $('results').classList.toggle('replacing', !!runs.previous);
    this.setExportsEnabled(false);
    $('progress').value = 0;
    if (runs.previous) {
      try {
        this.drawChartsSpread(configuration.merge([]).charts);
      } catch {
        // the charts are redrawn by the run's first progress
      }
    } else {
      this.page.explain.clear('No private run has finished yet.');
      this.showAllClaims();
    }
  }

  clearResults(message) {
    this.page.runs.clear();
    this.showStale(false);
    this.setExportsEnabled(false);
    this.page.explain.clear(message);
    this.page.roundView.show(null);
    this.page.statement.clear();
    for (const p of this.panels) p.clear();
    $('progress').value = 0;
    this.showAllClaims();
  }

  setExportsEnabled(on) {
    const snap = this.page.runs.snapshot;
    $('export-csv').disabled = !on;
    $('pin-run').disabled = !(on && snap && snap.finished);
    for (const v of this.views) v.setExportsEnabled(on);
  }

  render(snap, then) {
    const { runs, explain, statement, roundView } = this.page;
    const t0 = performance.now();
    clearTimeout(this.renderTimer);
    this.renderTimer = null;
    this.pendingSnapshot = null;
    runs.snapshot = snap;
    if (runs.running && !runs.drawnOwn && snap.charts.some((c) => c.series.some((x) => !x.horizontal && x.points.length))) {
      runs.drawnOwn = true;
      performance.mark('dp-first-point'); // Run → first point (scripts/bench-latency.mjs)
    }
    $('progress').max = Math.max(1, snap.total);
    $('progress').value = snap.done;
    // While a run replaces earlier results, a table or the accounting is replaced once the run has as
    // much to show (it is faded meanwhile): the page does not shrink and grow under the reader.
    const replacing = runs.running && runs.previous && !snap.finished;
    this.views.forEach((v, i) => {
      const t = snap.tables[i];
      const keep = replacing && (!t || t.rows.length < (v.tableRows || 0));
      if (!keep) v.showTable(t);
      v.figure.classList.toggle('previous-table', keep);
    });
    if (!replacing || snap.privacy.length) explain.show(snap.privacy, this.auditRows());
    statement.show(runs.run, runs.configuration, snap);
    for (const p of this.panels) p.show(runs.run, snap);
    $('privacy-content').classList.toggle('previous', !!replacing && !snap.privacy.length);
    // The claims' marks keep the previous run's verdicts (faded) until this run's are in.
    $('results').classList.toggle('replacing', !!replacing);
    if (!replacing) this.showAllClaims();
    // A finished run: "Look inside one round" replays its settings' round (when opened).
    if (snap.finished && runs.run) roundView.show(runs.run);
    this.renderCost = { ms: performance.now() - t0 };
    this.drawChartsSpread(snap.charts, then, this.renderCost);
  }

  /** A run's progress: drawn at once the first time, then at most every RENDER_MS (see above). */
  renderSoon(getSnapshot) {
    this.pendingSnapshot = getSnapshot;
    // The run's first results are drawn at once: the first curve should not wait.
    if (!this.page.runs.drawnOwn && !this.renderTimer) {
      this.render(getSnapshot());
      return;
    }
    if (this.renderTimer) return;
    this.renderTimer = setTimeout(() => {
      this.renderTimer = null;
      if (this.pendingSnapshot && this.page.runs.running) {
        const t0 = performance.now();
        const snap = this.pendingSnapshot();
        const merging = performance.now() - t0;
        this.render(snap);
        this.renderCost.ms += merging;
      }
      this.pendingSnapshot = null;
    }, Math.max(RENDER_MS, RENDER_GAP * this.renderCost.ms));
  }

  /** A run that ended without its results: nothing of the previous results is kept faded any more. */
  endReplacing() {
    this.page.runs.previous = null;
    for (const v of this.views) v.figure.classList.remove('previous-table');
    $('privacy-content').classList.remove('previous');
    $('results').classList.remove('replacing');
    this.showAllClaims();
  }
}
