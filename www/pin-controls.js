// Pin a run: the Pin and Clear buttons and their note. `page` gives what is shown ({ finished, scenario,
// run, series: chart id -> series }, or null), the preset's fields, a setting's label and a redraw.
import { Pins } from './pins.js';

const $ = (id) => document.getElementById(id);

/** A run in words: its preset and the settings that differ from the preset's. */
function describeRun(r, presetFields, label) {
  const changed = presetFields(r.preset)
    .filter(([name, value]) => r.fields[name] !== undefined && r.fields[name] !== value)
    .map(([name]) => `${label(name)} = ${r.fields[name]}`);
  return changed.length ? `${r.preset} with ${changed.join(', ')}` : r.preset;
}

/** The Clear button names what it removes: "Clear pin", "Clear 2 pins" (the note says which runs). */
function showPinCount(pins) {
  $('clear-pin').disabled = pins.size === 0;
  $('clear-pin').textContent = pins.size > 1 ? `Clear ${pins.size} pins` : 'Clear pin';
}

/** Wires the Pin and Clear buttons to `pins`. */
export function wirePins(pins, page) {
  $('pin-run').addEventListener('click', () => {
    const shown = page.shown();
    if (!shown || !shown.finished) return;
    const pin = pins.add(shown.scenario, shown.run, shown.series, shown.axes);
    showPinCount(pins);
    const which = describeRun(shown.run, page.presetFields, page.label);
    $('pin-note').textContent = `Pinned: ${which}. Drawn ${Pins.looks(pin)}, named “(pinned)” with the settings that differ.`;
    page.redraw();
  });
  $('clear-pin').addEventListener('click', () => {
    pins.clear();
    showPinCount(pins);
    $('pin-note').textContent = '';
    page.redraw();
  });
}
