// "Look inside one round": one private round of the shown run in slow motion (this project's teaching
// extension, after GAN Lab's step-by-step view). Rust replays the run to the round asked for from its own
// data and noise (round-worker.js → Configuration.round) and gives every stage's numbers and a 2-D picture: the
// plane of the clipped sum (first axis) and of the noise's part orthogonal to it. This module draws one
// stage at a time (Previous / Next, the arrow keys), with one sentence and its numbers, and rescales the
// same noise draw when the ε slider moves (σ from the run's calibration at that ε). It knows no scenario:
// the panel shows where the scenario's description says `round`. The round asked for and the stage shown
// are the page state's `round` (page-state.js): the controls write them, and are written from them.
import { fmt } from './format.js';

const STAGES = ['contributions', 'clipped', 'summed', 'noise added', 'step taken'];
const COLORS = { raw: '#7a7a7a', kept: '#1f77b4', cut: '#d62728', sum: '#2ca02c', noise: '#9467bd', release: '#111', plain: '#ff7f0e' };

const el = (tag, props = {}, ...children) => {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
};

export class RoundView {
  /** `after`: the element the panel follows; `o.largeScale`: the text scale of large text (the body's `large` class);
   * `o.choices`: the page state's `round`, `{ number, stage }`. */
  constructor(after, o) {
    this.o = o;
    this.choices = o.choices;
    this.trace = null;
    this.epsilon = null; // the slider's ε (null: the run's own)
    this.request = 0;
    this.settings = null;
    this.worker = null;
    this.build(after);
  }

  build(after) {
    this.panel = el('details', { id: 'round-panel', className: 'round-panel' });
    const title = el('h2', { id: 'round-title', textContent: 'Look inside one round' });
    title.style.display = 'inline';
    const summary = el('summary', {}, title);
    this.help = el('p', {
      className: 'help',
      textContent: 'One round of the private run at the first ε, replayed from the run’s own data and noise (this project’s ' +
        'teaching extension): each contribution is clipped, the clipped ones are summed, Gaussian noise is added, and the model ' +
        'steps with the noisy sum. The picture is the plane of the sum and of the noise; each contribution is drawn as its shadow on it.',
    });
    this.roundInput = el('input', { id: 'round-number', type: 'number', min: '1', step: '1', value: '1' });
    const roundLabel = el('label', { htmlFor: 'round-number', textContent: 'Round ' });
    const jump = (name, pick) => {
      const b = el('button', { type: 'button', textContent: name });
      b.addEventListener('click', () => {
        if (!this.trace) return;
        this.choices.number = pick(this.trace.rounds);
        this.load();
      });
      return b;
    };
    this.roundInput.addEventListener('change', (e) => {
      this.choices.number = Math.max(1, Math.floor(Number(e.target.value) || 1));
      this.load();
    });
    const controls = el('div', { className: 'round-controls' }, roundLabel, this.roundInput,
      jump('First', () => 1), jump('Middle', (t) => Math.max(1, Math.round(t / 2))), jump('Last', (t) => t));
    this.prev = el('button', { type: 'button', id: 'round-prev', textContent: '← Previous' });
    this.next = el('button', { type: 'button', id: 'round-next', textContent: 'Next →' });
    this.prev.addEventListener('click', () => this.go(this.choices.stage - 1));
    this.next.addEventListener('click', () => this.go(this.choices.stage + 1));
    this.stageName = el('span', { id: 'round-stage', className: 'round-stage' });
    const steps = el('div', { className: 'round-steps' }, this.prev, this.stageName, this.next);
    this.canvas = el('canvas', { id: 'round-canvas', className: 'round-canvas', tabIndex: 0 });
    this.canvas.setAttribute('role', 'img');
    this.canvas.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowRight') this.go(this.choices.stage + 1);
      else if (e.key === 'ArrowLeft') this.go(this.choices.stage - 1);
      else return;
      e.preventDefault();
    });
    this.text = el('p', { id: 'round-text', className: 'round-text' });
    this.text.setAttribute('aria-live', 'polite');
    this.status = el('p', { id: 'round-status', className: 'help' });
    this.runWords = el('p', { id: 'round-run', className: 'help' });
    this.panel.append(summary, this.help, controls, steps, this.canvas, this.text, this.runWords, this.status);
    this.panel.addEventListener('toggle', () => { if (this.panel.open && !this.trace) this.load(); });
    // Its few styles here (the page's stylesheet is the layout's): the canvas as wide as the panel.
    Object.assign(this.canvas.style, { display: 'block', width: '100%', maxWidth: '900px', border: '1px solid #ccc' });
    after.after(this.panel);
    new ResizeObserver(() => this.draw()).observe(this.canvas);
    // Large text is a class on the body (set from the link before the first paint, then by its box).
    new MutationObserver(() => this.draw()).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  }

  /** A scenario was chosen: the panel shows only where it has a round. */
  scenario(info) {
    this.panel.hidden = !info.round;
    this.forget();
  }

  /** The settings of the shown results (null: none); an open panel replays their round. */
  show(settings) {
    const same = settings && this.settings && JSON.stringify(settings) === JSON.stringify(this.settings);
    if (same) return;
    this.settings = settings;
    this.forget();
    if (this.panel.open && settings) this.load();
  }

  forget() {
    this.trace = null;
    this.request += 1;
    this.text.textContent = '';
    this.runWords.textContent = '';
    this.status.textContent = this.settings ? 'Open to replay a round of the shown run.' : 'Run the sweep to look inside one of its rounds.';
    delete this.panel.dataset.ready;
    this.draw();
  }

  /** The ε slider selected `value`: the same noise draw at the σ the run's calibration gives there. */
  selectEpsilon(value) {
    this.epsilon = value;
    this.draw();
  }

  load() {
    if (!this.settings) return;
    if (!this.worker) {
      this.worker = new Worker(new URL('./round-worker.js', import.meta.url), { type: 'module' });
      this.worker.onmessage = (e) => this.onTrace(e.data);
    }
    this.request += 1;
    const round = this.choices.number;
    this.roundInput.value = String(round);
    this.status.textContent = `Replaying the run to round ${round}…`;
    this.worker.postMessage({ id: this.request, ...this.settings, round });
  }

  onTrace(m) {
    if (m.id !== this.request) return;
    if (m.error) {
      this.status.textContent = `This round cannot be shown: ${m.error.replace(/^round: /, '')}`;
      if (m.error.startsWith('internal error')) {
        this.worker.terminate();
        this.worker = null;
      }
      return;
    }
    this.trace = m.trace;
    this.roundInput.max = String(m.trace.rounds);
    this.status.textContent = `Replayed in ${Math.round(m.ms)} ms.`;
    const shown = m.trace.plane.drawn.length;
    const count = m.trace.raw_norms.length;
    this.runWords.textContent = `${m.trace.method}: ${m.trace.run}.` +
      (shown < count ? ` The picture draws ${shown} of the ${count} ${m.trace.unit}s (evenly spaced); every count and norm is over all of them.` : '');
    this.panel.dataset.ready = String(m.trace.round);
    this.go(this.choices.stage);
  }

  go(stage) {
    this.choices.stage = Math.min(STAGES.length - 1, Math.max(0, stage));
    this.writeStage();
    this.draw();
  }

  /** The stage's controls as the state says. */
  writeStage() {
    const { stage } = this.choices;
    this.prev.disabled = stage === 0;
    this.next.disabled = stage === STAGES.length - 1;
    this.stageName.textContent = `${stage + 1} of ${STAGES.length}: ${STAGES[stage]}`;
    this.panel.dataset.stage = String(stage);
  }

  /** σ at the slider's ε: the run's calibration table, exact at its entries, log-log between them (≈). */
  sigmaAt() {
    const t = this.trace;
    if (this.epsilon === null || this.epsilon === t.epsilon) return { sigma: t.sigma, exact: true, epsilon: t.epsilon };
    const table = t.sigma_by_epsilon;
    const hit = table.find((p) => Math.abs(p[0] - this.epsilon) <= 1e-12 * this.epsilon);
    if (hit) return { sigma: hit[1], exact: true, epsilon: this.epsilon };
    const i = table.findIndex((p) => p[0] > this.epsilon);
    if (i <= 0) return { sigma: t.sigma, exact: true, epsilon: t.epsilon }; // off the table: the run's own
    const [a, b] = [table[i - 1], table[i]];
    const f = Math.log(this.epsilon / a[0]) / Math.log(b[0] / a[0]);
    return { sigma: Math.exp(Math.log(a[1]) + f * Math.log(b[1] / a[1])), exact: false, epsilon: this.epsilon };
  }

  /** The stage's sentence with its numbers (also the canvas's description for a screen reader). */
  words(s) {
    const t = this.trace;
    const n = t.raw_norms.length;
    const cut = Math.round(t.clipped_fraction * n);
    const largest = t.raw_norms.reduce((m, x) => Math.max(m, x), 0);
    const noiseNorm = t.noise_norm * s.sigma / t.sigma;
    const at = s.epsilon === t.epsilon ? `at the run’s ε = ${fmt(t.epsilon)}` : `at ε = ${fmt(s.epsilon)} (the slider; σ ${s.exact ? '' : '≈ '}from the run’s calibration, the same noise draw rescaled)`;
    switch (this.choices.stage) {
      case 0: return `Round ${t.round} of ${t.rounds}: each of the ${n} ${t.unit}s computes its gradient; their norms run up to ${fmt(largest)}. The circle is the clip bound ${fmt(t.clip)}.`;
      case 1: return `Clipped: ${cut} of ${n} (${fmt(100 * t.clipped_fraction, 3)} %) were longer than ${fmt(t.clip)} and are cut to it (red); the others pass unchanged. Adding or removing one ${t.unit} now moves the sum by at most the bound, replacing one by at most twice it: the noise is sized to that.`;
      case 2: return `Summed: ‖Σ clip(g)‖ = ${fmt(t.sum_norm)} (green); without clipping the sum would be ${fmt(t.non_private_sum_norm)} (orange, dashed).`;
      case 3: return `Noise added ${at}: σ = ${fmt(s.sigma)} in each of ${t.noise_dims} coordinates, so ‖noise‖ = ${fmt(noiseNorm)} (purple; the ring is σ·√${t.noise_dims}); signal to noise ${fmt(t.sum_norm / noiseNorm, 3)}. Only the noisy sum (black) is released.`;
      default: return `Step taken with the noisy sum (the run’s own ε): ${t.step.measure} ${fmt(t.step.before)} → ${fmt(t.step.after)}; the model moved by ${fmt(t.step.change_norm)}.`;
    }
  }

  draw() {
    const c = this.canvas;
    const css = c.getBoundingClientRect();
    if (!css.width) return;
    const dpr = window.devicePixelRatio || 1;
    const scale = document.body.classList.contains('large') ? this.o.largeScale : 1;
    const height = Math.round(Math.min(css.width * 0.62, 560 * scale));
    c.style.height = `${height}px`;
    c.width = Math.round(css.width * dpr);
    c.height = Math.round(height * dpr);
    const ctx = c.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, css.width, height);
    // Large text (the projector): the picture's words at 28 px at least, as the charts'.
    const font = scale > 1 ? Math.max(28, Math.round(15 * scale)) : 15;
    ctx.font = `${font}px system-ui, sans-serif`;
    c.dataset.font = String(font);
    c.dataset.minFontPx = String(font); // the charts' contract (chart-contract.js): the smallest text drawn
    if (!this.trace) {
      ctx.fillStyle = '#555';
      ctx.fillText(this.settings ? 'Open the panel to replay a round.' : 'No run yet.', 12, font * 2);
      c.setAttribute('aria-label', 'No round shown yet.');
      return;
    }
    const s = this.sigmaAt();
    const text = this.words(s);
    this.text.textContent = text;
    c.setAttribute('aria-label', text);
    const t = this.trace;
    const p = t.plane;
    const k = s.sigma / t.sigma;
    const noise = [p.noise[0] * k, p.noise[1] * k];
    const release = [p.sum[0] + noise[0], p.sum[1] + noise[1]];
    const ring = s.sigma * Math.sqrt(t.noise_dims);
    // The contributions' scale (stages 1–2) or the sum's (3–5): each fills the picture.
    const few = this.choices.stage <= 1;
    const reach = few
      ? Math.max(t.clip, ...p.contributions.map(([x, y]) => Math.hypot(x, y)))
      : Math.max(t.sum_norm, t.non_private_sum_norm, this.choices.stage >= 3 ? Math.hypot(...release) + ring : 0);
    const w = css.width;
    const half = Math.min(w, height) / 2 - font;
    const cx = w / 2;
    const cy = height / 2;
    const unit = half / (reach * 1.05 || 1);
    const at = ([x, y]) => [cx + x * unit, cy - y * unit];
    const arrow = (from, to, color, dashed = false) => {
      const [x0, y0] = at(from);
      const [x1, y1] = at(to);
      ctx.strokeStyle = color;
      ctx.fillStyle = color;
      ctx.lineWidth = 2.5 * scale;
      ctx.setLineDash(dashed ? [8 * scale, 5 * scale] : []);
      ctx.beginPath();
      ctx.moveTo(x0, y0);
      ctx.lineTo(x1, y1);
      ctx.stroke();
      ctx.setLineDash([]);
      const a = Math.atan2(y1 - y0, x1 - x0);
      const h = 10 * scale;
      ctx.beginPath();
      ctx.moveTo(x1, y1);
      ctx.lineTo(x1 - h * Math.cos(a - 0.4), y1 - h * Math.sin(a - 0.4));
      ctx.lineTo(x1 - h * Math.cos(a + 0.4), y1 - h * Math.sin(a + 0.4));
      ctx.fill();
    };
    const circle = (center, r, color, dashed) => {
      const [x, y] = at(center);
      ctx.strokeStyle = color;
      ctx.lineWidth = 1.5 * scale;
      ctx.setLineDash(dashed ? [6 * scale, 4 * scale] : []);
      ctx.beginPath();
      ctx.arc(x, y, r * unit, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.setLineDash([]);
    };
    const label = (point, words, color) => {
      const [x, y] = at(point);
      ctx.fillStyle = color;
      ctx.fillText(words, Math.min(x + 6, w - ctx.measureText(words).width - 4), Math.max(font, y - 6));
    };
    if (few) {
      circle([0, 0], t.clip, '#333', true);
      label([0, t.clip], `clip bound ${fmt(t.clip)}`, '#333');
      p.contributions.forEach((q, i) => {
        const f = t.raw_norms[p.drawn[i]] > t.clip;
        const shown = this.choices.stage === 0 ? q : p.clipped[i];
        const [x, y] = at(shown);
        ctx.fillStyle = this.choices.stage === 0 ? COLORS.raw : f ? COLORS.cut : COLORS.kept;
        ctx.beginPath();
        ctx.arc(x, y, 3 * scale, 0, 2 * Math.PI);
        ctx.fill();
      });
      return;
    }
    arrow([0, 0], p.non_private_sum, COLORS.plain, true);
    arrow([0, 0], p.sum, COLORS.sum);
    label(p.sum, 'Σ clip(g)', COLORS.sum);
    if (this.choices.stage >= 3) {
      circle(p.sum, ring, COLORS.noise, true);
      arrow(p.sum, release, COLORS.noise);
      arrow([0, 0], release, COLORS.release);
      label(release, 'released', COLORS.release);
    }
  }
}
