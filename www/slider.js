// A list setting's slider (form.js puts one beside each list setting that declares one): it selects
// one value of the list, never replacing the list; a value not in it is appended.
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
 * holds it). `select(name, value, { inList, committed })` is told every move; `text()` is the list's
 * text (the page state's).
 */
export function sliderFor(f, input, select, text) {
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
    const list = listValues(text());
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
      let list = listValues(text());
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
    const list = [...new Set(listValues(text()).filter((v) => v > 0))].sort((a, b) => a - b);
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
      show(selected, listValues(text()).includes(selected));
      return;
    }
    const first = listValues(text()).find((v) => v > 0);
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
  input.selectSlider = (wanted) => {
    const value = Number(wanted);
    if (!(value > 0) || !Number.isFinite(value)) return false;
    range.value = String(toPos(value));
    const inList = listValues(text()).includes(value);
    show(value, inList);
    select(f.name, value, { inList, committed: true });
    return true;
  };
  return wrap;
}
