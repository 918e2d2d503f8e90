// Pinned runs: a finished run's curves kept (`Pins`, up to three) and drawn behind the live ones by
// main.js's `decorate` (through each ChartView's `decorate`); pin-controls.js has their buttons.
// A pinned run's curves are drawn behind the live ones, solid, in a colour no
// live series has (src/plot/spec.rs PIN_COLOR_BASE + its slot: black squares,
// wine triangles, olive diamonds), named with the settings in which it differs
// from the results shown.
export const PIN_COLOR_BASE = 100;
const PIN_LOOKS = ['black, with squares', 'wine red, with triangles', 'olive, with diamonds'];
const MAX_PINS = PIN_LOOKS.length;

/**
 * The settings in which run `a` ({ preset, fields }) differs from `b`, as "users n = 4000, clip ψ = 5"
 * ('' when none); `label(key)` gives a setting's label (the key itself without one).
 */
export function differences(a, b, label = (k) => k) {
  const short = (v) => { const t = String(v); return t.length > 24 ? `${t.slice(0, 23)}…` : t; };
  const out = [];
  if (b && a.preset !== b.preset) out.push(`preset = ${short(a.preset)}`);
  const keys = [...new Set([...Object.keys(a.fields || {}), ...Object.keys((b && b.fields) || {})])];
  for (const k of keys) {
    const [x, y] = [a.fields[k], b && b.fields ? b.fields[k] : undefined];
    if (x !== undefined && String(x) !== String(y)) out.push(`${label(k)} = ${short(x)}`);
  }
  const SHOWN = 3;
  return out.length > SHOWN ? `${out.slice(0, SHOWN).join(', ')} +${out.length - SHOWN} more` : out.join(', ');
}

export class Pins {
  constructor() { this.list = []; }

  get size() { return this.list.length; }

  /** Keeps a finished run ({ preset, fields }), its curves per chart id and each chart's x label
   * (`axes`); past MAX_PINS the oldest goes. */
  add(scenario, run, series, axes = {}) {
    if (this.list.length >= MAX_PINS) this.list.shift();
    const used = new Set(this.list.map((p) => p.slot));
    const slot = [...PIN_LOOKS.keys()].find((k) => !used.has(k));
    const pin = { scenario, run: { preset: run.preset, fields: { ...run.fields } }, series, axes, slot };
    this.list.push(pin);
    return pin;
  }

  clear() { this.list = []; }

  /** How pin `pin` is drawn, in words. */
  static looks(pin) { return PIN_LOOKS[pin.slot]; }

  /**
   * `spec` of chart `chartId` with the pinned runs of `scenario` behind its
   * curves, each named with what differs from `current` (the run shown, the settings by their
   * labels: `label(key)`); series whose name starts with `skip` are left out.
   */
  decorate(scenario, chartId, spec, current, skip, label) {
    const old = [];
    for (const p of this.list) {
      if (p.scenario !== scenario || !p.series[chartId]) continue;
      // A pin drawn on another x axis (ε against the attacker's success) would sit at wrong places.
      if (p.axes[chartId] !== undefined && p.axes[chartId] !== spec.x_label) continue;
      const diff = current ? differences(p.run, current, label) : '';
      const tag = ` (pinned): ${diff || 'same settings'}`;
      for (const s of p.series[chartId]) {
        if (skip && s.name.startsWith(skip)) continue;
        old.push({ ...s, name: `${s.name}${tag}`, color: PIN_COLOR_BASE + p.slot, faded: false, band: [] });
      }
    }
    return old.length ? { ...spec, series: [...old, ...(spec.series || [])] } : spec;
  }
}
