// The trade-off chart of the run Explain ε shows: what any membership attack
// on it can reach, its true-positive rate against its false-positive rate.
// The accountant's exact curve (a run of Gaussian releases is μ-GDP), the
// (ε, δ) region that the ε spent implies (the pure-DP region for a pure-ε
// run), the audit's attack on that run as points with their Clopper–Pearson
// boxes (the deliberately broken runs' too), and the risk the run was
// calibrated to. Everything is computed in Rust (the wasm `tradeoff_chart`,
// src/scenarios/tradeoff.rs) and drawn by the shared ChartView, so the chart
// has the readout, the table, the log/linear toggles and the exports of every
// chart. Which run: the entry whose target is the value the slider selected
// (the first entry until the slider selects one); it follows the slider and
// is redrawn after an audit.
import { tradeoff_chart } from './pkg/dp_explorer.js';
import { ChartView } from './chart-view.js';
import { cell } from './tables.js';

const INFO = {
  id: 'tradeoff-chart',
  name: 'trade-off chart',
  alt: 'What any membership attack on the run shown can reach: true-positive rate against false-positive rate, '
    + 'under the accountant\'s curve and the (ε, δ) bound, with the audit\'s attack when one ran; the same numbers '
    + 'are in the table below',
  caption: 'Each point of this square is a possible membership attack: how many outsiders it wrongly flags (FPR) '
    + 'against how many insiders it finds (TPR). The coin flip finds as many as it wrongly flags; the bounds say '
    + 'how far above it any attack on this run can get.',
  toggle: null,
  animate: false,
  claims: [],
};

// The list settings that name a run's privacy target: its ε, or the attacker's success it was calibrated to.
const TARGET_LISTS = ['epsilons', 'risks'];

const same = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * The risk an entry's run was calibrated to, `{ fpr, tpr }`, where its accountant's report states one
 * (`risk`, written for runs calibrated by the settings `risks` and `risk_fpr`); null otherwise.
 */
export function calibratedRisk(entry) {
  const report = entry && entry.release && entry.release.reports[0];
  const risk = report && report.risk;
  return risk && Number.isFinite(risk.fpr) && Number.isFinite(risk.tpr) ? { fpr: risk.fpr, tpr: risk.tpr } : null;
}

/** Whether `entry` shows the runs at the slider's value `value` of list setting `name`. */
function atValue(entry, name, value) {
  const reports = entry.release ? entry.release.reports : [];
  if (name === 'risks') return reports.some((r) => r.risk && same(r.risk.tpr, value));
  return reports.some((r) => same(r.epsilon_target, value));
}

export class TradeoffView {
  /**
   * A section placed before `anchor` (the explain entries), hidden until a run has a private entry.
   * @param {HTMLElement} anchor
   * @param {{ textScale: () => number }} o
   */
  constructor(anchor, { textScale }) {
    const section = document.createElement('section');
    section.className = 'tradeoff';
    section.id = 'tradeoff';
    section.setAttribute('aria-labelledby', 'tradeoff-title');
    const title = cell('h3', 'What any attack can reach: the trade-off of one run');
    title.id = 'tradeoff-title';
    this.which = cell('p', '', { class: 'help' });
    this.view = new ChartView(INFO, { textScale, decorate: (id, spec) => spec });
    this.notes = document.createElement('ul');
    this.notes.className = 'tradeoff-notes';
    section.append(title, this.which, this.view.figure, this.notes);
    section.hidden = true;
    anchor.before(section);
    this.section = section;
    this.entries = [];
    this.rows = [];
    this.selected = null; // { name, value } the slider selected
    this.key = null;
  }

  /** A list setting's slider selected `value`: the chart shows the run at it (the privacy target's list only). */
  select(name, value) {
    if (!TARGET_LISTS.includes(name)) return;
    this.selected = { name, value };
    this.update();
  }

  /** The run's explain entries and a finished audit's rows (none: []). */
  show(entries, rows = []) {
    this.entries = entries;
    this.rows = rows;
    this.update();
  }

  clear() {
    this.entries = [];
    this.update();
  }

  redraw() {
    if (!this.section.hidden) this.view.redraw();
  }

  /** The entry shown: the one at the selected value, else the first with a release. */
  entry() {
    const drawable = this.entries.filter((e) => e.release && e.release.reports.length);
    const s = this.selected;
    return (s && drawable.find((e) => atValue(e, s.name, s.value))) || drawable[0] || null;
  }

  update() {
    const entry = this.entry();
    if (!entry) {
      this.key = null;
      this.section.hidden = true;
      return;
    }
    const target = calibratedRisk(entry);
    const key = JSON.stringify([entry.summary, target, this.rows.map((r) => [r.method, r.epsilon_spent, r.runs, r.broken])]);
    if (key === this.key) return;
    let chart;
    try {
      chart = tradeoff_chart(entry, this.rows, target);
    } catch (e) {
      console.error(e);
      this.section.hidden = true;
      return;
    }
    this.key = key;
    this.section.hidden = false;
    const others = this.entries.length > 1 ? ' Move the ε slider to show the run at another ε.' : '';
    this.which.textContent = `Shown: ${entry.summary}.${others}`;
    this.view.draw(chart.spec);
    this.view.showTable(chart.table);
    this.view.setExportsEnabled(true);
    this.notes.replaceChildren(...chart.notes.map((n) => cell('li', n)));
  }
}
