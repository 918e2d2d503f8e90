// The "Explain ε" panel: one collapsible entry per private run (or group of
// runs), built by the scenario in Rust ({ summary, paragraphs, tables, notes,
// reading, attacker }); this module only draws them. An entry opens with what
// ε means to a person in the data, for a student first (a plain sentence, the
// frequencies, the attacker's posterior against the average best guess, the
// (FPR, TPR) picture with its terms); the exact statement, the calibration,
// the noise and accountant tables sit under "For experts". A link beside the
// charts leads here ("What does ε mean here?"). An
// unchanged list is not redrawn, so entries a reader opened stay open while a
// run progresses.
import { cell, makeTable } from './tables.js';
import { attackLegend, attackRegion } from './attack-region.js';
import { TradeoffView } from './tradeoff.js';

/**
 * The audit's attack on the run of reading `a` (the audit row whose ε spent is `a`'s), as points
 * (FPR, TPR) of its thresholds; none when no audit ran on it.
 */
function attacksOn(a, auditRows) {
  const same = (x, y) => Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(y));
  const row = auditRows.find((r) => !r.broken && same(r.epsilon_spent, a.epsilon) && same(r.delta, a.delta));
  if (!row) return [];
  // Every threshold judged is a point; a few dozen, evenly taken, draw the attack's curve.
  const all = row.bounds.points;
  const step = Math.max(1, Math.ceil(all.length / 40));
  return all.filter((_, i) => i % step === 0).map((p) => ({
    fpr: p.fpr,
    tpr: 1 - p.fnr,
    label: `the audit's attack (${row.runs} runs per side): FPR ${p.fpr.toFixed(3)}, TPR ${(1 - p.fnr).toFixed(3)}`,
  }));
}

/**
 * What ε means to someone in the data, for a student first: one plain sentence, the frequencies,
 * the worst case against the average best guess (and why they differ), the picture's terms, δ
 * against 1/n; beside them the (FPR, TPR) picture.
 */
function attackerBlock(a, auditRows) {
  const box = document.createElement('div');
  box.className = 'attacker';
  const fig = document.createElement('figure');
  const attacks = attacksOn(a, auditRows);
  fig.appendChild(attackRegion(a, attacks));
  fig.appendChild(attackLegend(a, attacks.length > 0));
  const words = document.createElement('div');
  if (a.plain) words.appendChild(cell('p', a.plain, { class: 'attacker-plain' }));
  if (a.frequencies) words.appendChild(cell('p', a.frequencies, { class: 'attacker-frequencies' }));
  words.appendChild(cell('p', a.sentence, { class: 'attacker-sentence' }));
  if (a.why_two) words.appendChild(cell('p', a.why_two, { class: 'attacker-why' }));
  if (a.test_bound) words.appendChild(cell('p', a.test_bound, { class: 'attacker-terms' }));
  if (a.delta_reading) words.appendChild(cell('p', a.delta_reading));
  box.append(fig, words);
  return box;
}

/** The link from the charts' area to this panel (once; beside the charts, before the panel). */
function linkFromCharts(root) {
  const panel = root.closest('section');
  const charts = document.querySelector('.charts-wrap');
  if (!panel || !panel.id || !charts || document.getElementById('explain-link')) return;
  const p = document.createElement('p');
  p.className = 'explain-link';
  p.id = 'explain-link';
  const a = document.createElement('a');
  a.href = `#${panel.id}`;
  a.textContent = 'What does ε mean here?';
  p.appendChild(a);
  charts.after(p);
}

export class ExplainPanel {
  /** @param {{ textScale?: () => number }} [o] the charts' text scale (the trade-off chart's) */
  constructor(root, { textScale = () => 1 } = {}) {
    this.root = root;
    this.key = null;
    linkFromCharts(root);
    // The trade-off chart of the run at the selected value, before the entries (tradeoff.js).
    this.tradeoff = new TradeoffView(root, { textScale });
  }

  clear(message) {
    this.key = null;
    this.root.replaceChildren(cell('p', message));
    this.tradeoff.clear();
  }

  /** A list setting's slider selected `value`: the trade-off chart shows the run at it. */
  select(name, value) {
    this.tradeoff.select(name, value);
  }

  /** Draws the trade-off chart again (a resize, large text). */
  redraw() {
    this.tradeoff.redraw();
  }

  /** Draws `entries`; `auditRows`: a finished audit's rows, whose attacks the pictures show. */
  show(entries, auditRows = []) {
    this.tradeoff.show(entries, auditRows);
    // Another audit (other runs, other points) redraws the pictures too.
    const key = JSON.stringify([entries.map((e) => e.summary), auditRows.map((r) => [r.method, r.epsilon_spent, r.runs, r.bounds.points.length])]);
    if (key === this.key) return;
    this.key = key;
    if (entries.length === 0) {
      this.root.replaceChildren(cell('p', 'No private run has finished yet.'));
      return;
    }
    this.root.replaceChildren(...entries.map((e, i) => {
      const det = document.createElement('details');
      det.open = i === 0;
      det.appendChild(cell('summary', e.summary));
      if (e.attacker) det.appendChild(attackerBlock(e.attacker, auditRows));
      else if (e.reading) det.appendChild(cell('p', e.reading, { class: 'reading' }));
      const experts = document.createElement('details');
      experts.className = 'experts';
      experts.appendChild(cell('summary', 'For experts: the guarantee exactly, the noise, its sensitivity and every accountant'));
      // With the student's reading above, the exact statement (privacy loss, Φ(−ε/μ + μ/2)) is the experts'.
      if (e.attacker && e.reading) experts.appendChild(cell('p', e.reading, { class: 'reading' }));
      for (const p of e.paragraphs) experts.appendChild(cell('p', p));
      for (const t of e.tables) {
        // Wide tables scroll inside the panel: focusable, so a keyboard can scroll them.
        const table = makeTable(t, 'privacy-table');
        table.tabIndex = 0;
        experts.appendChild(table);
      }
      if (e.notes.length) {
        const ul = document.createElement('ul');
        for (const n of e.notes) ul.appendChild(cell('li', n));
        experts.appendChild(ul);
      }
      det.appendChild(experts);
      return det;
    }));
  }
}
