// The settings form, generated from a scenario's field table (Rust
// `FieldInfo`: name, kind, label, help, group, essential, choices): one
// fieldset per group, folded fields under "More settings". Each input's id is
// the setting's name (also its URL key and the CLI's --set key), and each has
// an error slot `${name}-error` that validation fills.

const INPUT_MODE = {
  integer: 'numeric',
  seed: 'numeric',
  real: 'decimal',
};

function fieldElement(f) {
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
  input.setAttribute('aria-describedby', `${f.name}-error`);
  const error = document.createElement('span');
  error.className = 'error';
  error.id = `${f.name}-error`;
  error.setAttribute('role', 'alert');
  wrap.append(label, input);
  if (f.slider) wrap.append(sliderFor(f, input));
  wrap.append(error);
  return wrap;
}

const SLIDER_STEPS = 1000;

/** A value of the slider's scale as a setting's text (3 significant digits). */
function sliderText(x) {
  return String(Number(x.toPrecision(x < 1 ? 2 : 3)));
}

/** A range input that sets one value of a list setting, in a gesture. */
function sliderFor(f, input) {
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
  const range = document.createElement('input');
  range.type = 'range';
  range.id = `${f.name}-slider`;
  range.min = '0';
  range.max = String(SLIDER_STEPS);
  range.setAttribute('aria-label', `${f.label}: try one value`);
  const shown = document.createElement('output');
  shown.htmlFor = range.id;
  const sync = () => {
    const first = Number(String(input.value).split(/[\s,;:]+/)[0]);
    if (Number.isFinite(first) && first > 0) range.value = String(toPos(first));
    shown.textContent = `one value: ${sliderText(toValue(Number(range.value)))}`;
  };
  range.addEventListener('input', () => {
    input.value = sliderText(toValue(Number(range.value)));
    shown.textContent = `one value: ${input.value}`;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  input.addEventListener('change', sync);
  wrap.append(range, shown);
  // After the form is filled (fill() dispatches nothing): sync on the next frame.
  requestAnimationFrame(sync);
  input.syncSlider = sync;
  return wrap;
}

export class SettingsForm {
  /** @param {HTMLElement} root where the fieldsets go */
  constructor(root) {
    this.root = root;
    this.fields = [];
  }

  /** Builds the inputs of one scenario (replacing the previous ones). */
  build(info) {
    this.fields = info.fields;
    const groups = new Map();
    const folded = new Map();
    for (const f of info.fields) {
      const target = f.essential ? groups : folded;
      if (!target.has(f.group)) target.set(f.group, []);
      target.get(f.group).push(f);
    }
    const fieldset = (group, fields) => {
      const fs = document.createElement('fieldset');
      const legend = document.createElement('legend');
      legend.textContent = group;
      fs.append(legend, ...fields.map(fieldElement));
      return fs;
    };
    const nodes = [...groups].map(([g, fs]) => fieldset(g, fs));
    if (folded.size) {
      const details = document.createElement('details');
      details.className = 'more';
      const summary = document.createElement('summary');
      summary.textContent = 'More settings';
      details.append(summary, ...[...folded].map(([g, fs]) => fieldset(g, fs)));
      nodes.push(details);
    }
    this.root.replaceChildren(...nodes);
  }

  get names() {
    return this.fields.map((f) => f.name);
  }

  /** The setting called `name` or one of its older names, or undefined. */
  canonical(name) {
    const f = this.fields.find((x) => x.name === name || x.aliases.includes(name));
    return f && f.name;
  }

  /** { name: text } of every setting. */
  read() {
    const out = {};
    for (const name of this.names) {
      const el = document.getElementById(name);
      if (el) out[name] = el.value;
    }
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
        slot.textContent = slot.textContent ? `${slot.textContent} ${message}` : message;
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
