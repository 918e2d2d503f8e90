// The settings form, generated from a scenario's field table (Rust
// `FieldInfo`: name, kind, label, help, group, essential, choices): the
// essential settings (n, ε, δ and the scenario's own) at once, the others by
// group under "More settings" (opened by an error at a folded field or a
// link's value that differs from the preset). Each input's id is
// the setting's name (also its URL key and the CLI's --set key), and each has
// an error slot `${name}-error` that validation fills.

import { sliderFor } from './slider.js';
import { addTargetSwitch } from './target-switch.js';

const INPUT_MODE = {
  integer: 'numeric',
  seed: 'numeric',
  real: 'decimal',
};

function fieldElement(f, select, text) {
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
    wrap.append(sliderFor(f, input, select, text));
  }
  wrap.append(error);
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

/** A field's text before any preset fills it: its default, else a menu's first choice. */
function initialText(f) {
  if (f.default !== undefined) return String(f.default);
  return f.choices && f.choices.length ? f.choices[0].value : '';
}

export class SettingsForm {
  /**
   * @param {HTMLElement} root where the fieldsets go
   * @param {{fields: object}} state the page state (page-state.js): every input's text flows into
   *   `state.fields` as it is typed, and `fill` writes both; the form never reads its inputs back
   * @param {(name: string, value: number, o: {inList: boolean, committed: boolean}) => void} [onSelect]
   *   a list setting's slider selected a value
   */
  constructor(root, state, onSelect = () => {}) {
    this.root = root;
    this.state = state;
    this.fields = [];
    this.onSelect = onSelect;
    // Before the page's own listeners (on the form around it): they see the state with this input in it.
    root.addEventListener('input', (e) => {
      const { name } = e.target;
      if (name && Object.hasOwn(this.state.fields, name)) this.state.fields[name] = e.target.value;
    });
  }

  /**
   * Builds the inputs of one scenario (replacing the previous ones): its essential settings (n, ε, δ
   * and its own, marked in its Rust field table) in one fieldset, every other under "More settings",
   * by group, open or closed as the reader last left it.
   */
  build(info) {
    this.fields = info.fields;
    this.state.fields = Object.fromEntries(info.fields.map((f) => [f.name, initialText(f)]));
    const field = (f) => fieldElement(f, (...a) => this.onSelect(...a), () => this.state.fields[f.name]);
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
   * { name: text } of every setting (a copy of the page state's). A privacy target given as risks
   * derives the ε list (Rust's field/target.rs: an ε list beside risks must be the one they imply),
   * so then the form sends the risks and not the ε list it shows.
   */
  read() {
    return this.state.sentFields();
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
      this.state.fields[name] = String(value);
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
