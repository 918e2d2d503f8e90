// The settings form, generated from a scenario's field table (Rust
// `FieldInfo`: name, kind, label, help, group, essential, choices): the
// essential settings (n, ε, δ and the scenario's own) at once, the others by
// group under "More settings" (opened by an error at a folded field or a
// link's value that differs from the preset). Each input's id is
// the setting's name (also its URL key and the CLI's --set key), and each has
// an error slot `${name}-error` that validation fills.

import { addTargetSwitch, risksDrive } from './target-switch.js';

const INPUT_MODE = {
  integer: 'numeric',
  seed: 'numeric',
  real: 'decimal',
};

function fieldElement(f, select) {
  const wrap = document.createElement('div');
  wrap.className = 'field';
  if (f.kind === 'real-list' || f.kind === 'integer-list') wrap.classList.add('wide');
  const label = document.createElement('label');
  label.htmlFor = f.name;
  label.textContent = f.label;
  if (f.help) {
    const small = document.createElement('small');
    small.textContent = ` (${f.help})`;
    label.appendChild(small);
  }
  let input;
  if (f.kind === 'choice' || f.kind === 'switch') {
    input = document.createElement('select');
    for (const c of f.choices) {
      const opt = document.createElement('option');
      opt.value = c.value;
      opt.textContent = c.label;
      input.appendChild(opt);
    }
  } else {
    input = document.createElement('input');
    input.autocomplete = 'off';
    input.spellcheck = false;
    if (INPUT_MODE[f.kind]) input.inputMode = INPUT_MODE[f.kind];
  }
  input.id = f.name;
  input.name = f.name;
  // The scenario's default until a preset fills it: a form just built validates (an empty one would
  // mark every field, and open "More settings" for nothing).
  if (f.default !== undefined) input.value = f.default;
  input.setAttribute('aria-describedby', `${f.name}-error`);
  const error = document.createElement('span');
  error.className = 'error';
  error.id = `${f.name}-error`;
  error.setAttribute('role', 'alert');
  wrap.append(label, input);
  if (f.slider) {
    wrap.classList.add('has-slider');
    wrap.append(sliderFor(f, input, select));
  }
  wrap.append(error);
  return wrap;
}

const SLIDER_STEPS = 1000;
// A slider position this close (in steps) to a value of the list selects that value.
const SNAP_STEPS = 25;

/** A value of the slider's scale as a setting's text (2 significant digits: 3, 3.2, 45, 0.31). */
function sliderText(x) {
  return String(Number(x.toPrecision(2)));
}

/** The numbers of a list setting's text (what does not parse is left out). */
export function listValues(text) {
  return String(text).split(/[\s,;:]+/).filter(Boolean).map(Number).filter(Number.isFinite);
}

/**
 * A range input that selects one value of a list setting, never replacing the
 * list: near a value of the list it snaps to it; released elsewhere, it appends its
 * value to the list (replacing the value it added before, if the list still
 * holds it). `select(name, value, { inList, committed })` is told every move.
 */
function sliderFor(f, input, select) {
  const { min, max, log } = f.slider;
  const toValue = (pos) => {
    const t = pos / SLIDER_STEPS;
    return log ? min * (max / min) ** t : min + t * (max - min);
  };
  const toPos = (v) => {
    const t = log ? Math.log(v / min) / Math.log(max / min) : (v - min) / (max - min);
    return Math.round(Math.min(1, Math.max(0, t)) * SLIDER_STEPS);
  };
  const wrap = document.createElement('div');
  wrap.className = 'slider';
  const line = document.createElement('div');
  line.className = 'slider-line';
  const range = document.createElement('input');
  range.type = 'range';
  range.id = `${f.name}-slider`;
  range.min = '0';
  range.max = String(SLIDER_STEPS);
  range.setAttribute('aria-label', `${f.label}: select one (a value not in the list is added to it)`);
  const shown = document.createElement('output');
  shown.htmlFor = range.id;
  shown.id = `${f.name}-selected`;
  const readout = document.createElement('p');
  readout.className = 'slider-readout';
  readout.id = `${f.name}-readout`;
  readout.setAttribute('aria-live', 'polite');
  // Until a value is selected, what the slider is for (the values at it replace this).
  readout.textContent = `Move the slider to select one of the ${f.label}: the charts mark it and its values are read out here.`;
  range.setAttribute('aria-describedby', readout.id);
  let added = null; // the value this slider added to the list (null: none, or edited away by hand)
  let selected = null;
  /** The list's value the position is near, else the position's own value. */
  const pick = () => {
    const pos = Number(range.value);
    const list = listValues(input.value);
    let near = null;
    for (const v of list) {
      if (v > 0 && Math.abs(toPos(v) - pos) <= SNAP_STEPS && (near === null || Math.abs(toPos(v) - pos) < Math.abs(toPos(near) - pos))) near = v;
    }
    return near === null ? { value: Number(sliderText(toValue(pos))), inList: false } : { value: near, inList: true };
  };
  const show = (value, inList) => {
    selected = value;
    shown.textContent = `selected: ${value}${inList ? '' : ' (not in the list)'}`;
  };
  range.addEventListener('input', () => {
    const { value, inList } = pick();
    show(value, inList);
    select(f.name, value, { inList, committed: false });
  });
  // Released (or a key press): a value of the list stays selected; another is added to the list.
  const commit = () => {
    const { value, inList } = pick();
    if (!inList) {
      let list = listValues(input.value);
      if (added !== null) list = list.filter((v) => v !== added);
      // At the end: a sweep's runs draw their noise by their place in the list, so every value
      // already there keeps its numbers (the charts sort their points by x).
      list = [...list, value];
      input.value = list.join(',');
      added = value;
      input.dispatchEvent(new CustomEvent('input', { bubbles: true, detail: { slider: true } }));
    }
    range.value = String(toPos(value));
    show(value, true);
    select(f.name, value, { inList: true, committed: true });
  };
  range.addEventListener('change', commit);
  // Keys walk along the curve: the arrows go to the next value of the list (past its ends, a
  // twentieth of the scale further, which adds a value), Home and End to its first and last;
  // Page Up and Down move a tenth of the scale as usual.
  range.addEventListener('keydown', (e) => {
    const list = [...new Set(listValues(input.value).filter((v) => v > 0))].sort((a, b) => a - b);
    const pos = Number(range.value);
    const here = selected ?? toValue(pos);
    let target = null;
    if (e.key === 'ArrowRight' || e.key === 'ArrowUp') {
      const next = list.find((v) => v > here * (1 + 1e-9));
      target = next !== undefined ? toPos(next) : pos + 50;
    } else if (e.key === 'ArrowLeft' || e.key === 'ArrowDown') {
      const next = [...list].reverse().find((v) => v < here * (1 - 1e-9));
      target = next !== undefined ? toPos(next) : pos - 50;
    } else if ((e.key === 'Home' || e.key === 'End') && list.length) {
      target = toPos(e.key === 'Home' ? list[0] : list[list.length - 1]);
    }
    if (target === null) return;
    e.preventDefault();
    range.value = String(Math.min(SLIDER_STEPS, Math.max(0, target)));
    commit();
  });
  // A hand edit of the list: the slider no longer owns any of its values.
  input.addEventListener('input', (e) => { if (!(e.detail && e.detail.slider)) added = null; });
  const sync = () => {
    if (selected !== null) {
      show(selected, listValues(input.value).includes(selected));
      return;
    }
    const first = listValues(input.value).find((v) => v > 0);
    if (first !== undefined) range.value = String(toPos(first));
    shown.textContent = 'move to select a value';
  };
  input.addEventListener('change', sync);
  line.append(range, shown);
  wrap.append(line, readout);
  // After the form is filled (fill() dispatches nothing): sync on the next frame.
  requestAnimationFrame(sync);
  input.syncSlider = sync;
  // A value selected from outside (a link's): the slider goes to it, as if moved there and released.
  input.selectSlider = (text) => {
    const value = Number(text);
    if (!(value > 0) || !Number.isFinite(value)) return false;
    range.value = String(toPos(value));
    const inList = listValues(input.value).includes(value);
    show(value, inList);
    select(f.name, value, { inList, committed: true });
    return true;
  };
  return wrap;
}

// Whether "More settings" was left open, kept for the next visit (no storage: closed).
const MORE_KEY = 'dp-explorer:more-settings';
function remembered() {
  try {
    return window.localStorage.getItem(MORE_KEY);
  } catch {
    return null;
  }
}
function remember(state) {
  try {
    window.localStorage.setItem(MORE_KEY, state);
  } catch {
    // storage refused (private mode, a policy): the choice lasts until the page is left
  }
}

export class SettingsForm {
  /**
   * @param {HTMLElement} root where the fieldsets go
   * @param {(name: string, value: number, o: {inList: boolean, committed: boolean}) => void} [onSelect]
   *   a list setting's slider selected a value
   */
  constructor(root, onSelect = () => {}) {
    this.root = root;
    this.fields = [];
    this.onSelect = onSelect;
  }

  /**
   * Builds the inputs of one scenario (replacing the previous ones): its essential settings (n, ε, δ
   * and its own, marked in its Rust field table) in one fieldset, every other under "More settings",
   * by group, open or closed as the reader last left it.
   */
  build(info) {
    this.fields = info.fields;
    const field = (f) => fieldElement(f, (...a) => this.onSelect(...a));
    const fieldset = (legendText, fields) => {
      const fs = document.createElement('fieldset');
      const legend = document.createElement('legend');
      legend.textContent = legendText;
      fs.append(legend, ...fields.map(field));
      return fs;
    };
    // The short fields first, two to a row; a list (with its slider and readout) under them.
    const wide = (f) => f.kind === 'real-list' || f.kind === 'integer-list';
    const essential = [...info.fields.filter((f) => f.essential && !wide(f)), ...info.fields.filter((f) => f.essential && wide(f))];
    const folded = new Map();
    for (const f of info.fields.filter((x) => !x.essential)) {
      if (!folded.has(f.group)) folded.set(f.group, []);
      folded.get(f.group).push(f);
    }
    const nodes = essential.length ? [fieldset('Main settings', essential)] : [];
    this.more = null;
    if (folded.size) {
      const details = document.createElement('details');
      details.className = 'more';
      details.id = 'more-settings';
      const summary = document.createElement('summary');
      const count = info.fields.length - essential.length;
      summary.textContent = `More settings (${count})`;
      details.append(summary, ...[...folded].map(([g, fs]) => fieldset(g, fs)));
      details.open = remembered() === 'open';
      // Only the reader's own clicks are remembered (an error or a link opening it is not).
      summary.addEventListener('click', () => remember(details.open ? 'closed' : 'open'));
      nodes.push(details);
      this.more = details;
    }
    this.root.replaceChildren(...nodes);
    this.syncTarget = addTargetSwitch(this.root);
  }

  /** Opens "More settings" if setting `name` is folded there (true if it is). */
  reveal(name) {
    const el = document.getElementById(name);
    const details = el && el.closest('details.more');
    if (details) details.open = true;
    return !!details;
  }

  /**
   * Opens "More settings" when a folded setting's value differs from `defaults` ([[name, text], …],
   * the preset's): a link's settings are never hidden. Returns the names that differ.
   */
  revealChanged(defaults) {
    const now = this.read();
    const changed = defaults
      .filter(([name, value]) => now[name] !== undefined && String(now[name]) !== String(value))
      .map(([name]) => name)
      .filter((name) => !this.fields.find((f) => f.name === name)?.essential);
    if (changed.length && this.more) this.more.open = true;
    return changed;
  }

  /**
   * Selects `value` on the slider of list setting `name` (a link's selected ε): true if the setting
   * has a slider and the value is a positive number.
   */
  select(name, value) {
    const el = document.getElementById(name);
    return !!(el && el.selectSlider && el.selectSlider(value));
  }

  get names() {
    return this.fields.map((f) => f.name);
  }

  /** The setting called `name` or one of its older names, or undefined. */
  canonical(name) {
    const f = this.fields.find((x) => x.name === name || x.aliases.includes(name));
    return f && f.name;
  }

  /**
   * { name: text } of every setting. A privacy target given as risks derives the ε list
   * (Rust's field/target.rs: an ε list beside risks must be the one they imply), so then the
   * form sends the risks and not the ε list it shows.
   */
  read() {
    const out = {};
    for (const name of this.names) {
      const el = document.getElementById(name);
      if (el) out[name] = el.value;
    }
    if (risksDrive(out)) delete out.epsilons;
    return out;
  }

  /** Sets values from [[name, text], …]. A value a menu does not offer (e.g.
   * from a link) is added to it, so that validation names it instead of the
   * menu silently dropping it. */
  fill(pairs) {
    for (const [name, value] of pairs) {
      const el = document.getElementById(name);
      if (!el) continue;
      if (el.tagName === 'SELECT' && ![...el.options].some((o) => o.value === value)) {
        const opt = document.createElement('option');
        opt.value = value;
        opt.textContent = value;
        el.appendChild(opt);
      }
      el.value = value;
      if (el.syncSlider) el.syncSlider();
    }
    if (this.syncTarget) this.syncTarget();
  }

  /** The label a person reads for setting `name` (the name itself if it has none). */
  label(name) {
    const f = this.fields.find((x) => x.name === name);
    return f ? f.label : name;
  }

  /**
   * A message as shown at its field, under the field's label: without the setting's internal
   * name in front ("n: n must …" → "users n must …"), other settings' internal names
   * (those with an underscore) replaced by their labels.
   */
  messageAt(field, message) {
    let text = String(message);
    if (text.startsWith(`${field}: `)) text = text.slice(field.length + 2);
    if (text.startsWith(`${field} `) && this.label(field) !== field) text = `${this.label(field)}${text.slice(field.length)}`;
    for (const f of this.fields) {
      if (f.name.includes('_')) text = text.replace(new RegExp(`\\b${f.name}\\b`, 'g'), f.label);
    }
    return text;
  }

  /** An error for the status and the error box: "the field's label: its message". */
  describe({ field, message }) {
    const text = this.messageAt(field, message);
    return text.startsWith(this.label(field)) ? text : `${this.label(field)}: ${text}`;
  }

  clearErrors() {
    for (const el of this.root.querySelectorAll('.error')) el.textContent = '';
    for (const el of this.root.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
  }

  /** Shows each { field, message } at its field; returns the messages that
   * have no field on the form. */
  markErrors(errors) {
    this.clearErrors();
    const unplaced = [];
    for (const { field, message } of errors) {
      const slot = document.getElementById(`${field}-error`);
      const input = document.getElementById(field);
      if (slot && input) {
        const text = this.messageAt(field, message);
        slot.textContent = slot.textContent ? `${slot.textContent} ${text}` : text;
        input.setAttribute('aria-invalid', 'true');
        const details = input.closest('details');
        if (details) details.open = true;
      } else {
        unplaced.push(message);
      }
    }
    return unplaced;
  }
}
