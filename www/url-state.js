// The page's address is its state (page-state.js `URL_KEYS`, as TF Playground's one state object
// drives its URL): the preset, every setting as text, the value a list's slider selected
// (`epsilons-selected=2`), and the two screens (`large=1`, `present=1`). Written from the state
// after every edit; read once at load, into the state (through the form and the screens' boxes).
import { missingPresetText } from './links.js';

// A list setting's selected value in the link: `epsilons-selected=2`.
const SELECTED_SUFFIX = '-selected';

/** Writes the address of the page state `state` (page-state.js). */
export function writeSettingsUrl(state) {
  const params = new URLSearchParams();
  params.set('preset', state.preset);
  // The settings a run is sent (risks that drive it leave the ε list they imply out).
  const fields = state.sentFields();
  for (const [name, text] of Object.entries(fields)) params.set(name, text);
  // The ε the slider selected (marked on the charts, read out under the slider): a copied link selects it too.
  const { selected } = state;
  if (selected && selected.name in state.fields) params.set(`${selected.name}${SELECTED_SUFFIX}`, String(selected.value));
  if (state.large) params.set('large', '1');
  if (state.present) params.set('present', '1');
  history.replaceState(null, '', `${location.pathname}?${params}`);
}

/**
 * Applies the link's preset and settings (through `loadPreset(name)` and the form, which write the
 * state) and its screens (`setMode(name, on)`); returns `notes`, what it could not use, and `missing`,
 * the link's preset where the registry `reg` has none of that name (null otherwise).
 */
export function readSettingsUrl({ reg, form, loadPreset, setMode }) {
  const params = new URLSearchParams(location.search);
  const notes = [];
  const preset = params.get('preset');
  let chosen = reg.default_preset();
  if (preset !== null) {
    try {
      chosen = reg.find_preset(preset).preset;
    } catch {
      notes.push(`${missingPresetText(preset)}, without the link's settings`);
      loadPreset(chosen);
      // The link's screen still applies (early.js has applied it already): its boxes say so.
      for (const key of ['large', 'present']) if (params.has(key)) setMode(key, params.get(key) === '1');
      return { notes, missing: preset };
    }
  }
  loadPreset(chosen);
  const extra = [];
  const selections = [];
  for (const [key, value] of params) {
    if (key === 'preset') continue;
    if (key.endsWith(SELECTED_SUFFIX) && form.canonical(key.slice(0, -SELECTED_SUFFIX.length))) {
      selections.push([form.canonical(key.slice(0, -SELECTED_SUFFIX.length)), value]);
      continue;
    }
    if (key === 'large' || key === 'present') {
      setMode(key, value === '1');
      continue;
    }
    const name = form.canonical(key);
    if (name) form.fill([[name, value]]);
    else extra.push(key.slice(0, 40));
  }
  if (extra.length) notes.push(`ignored unknown settings in the link: ${extra.join(', ')}`);
  // Once the lists are filled: the selected values (one the slider cannot select is said, not hidden).
  for (const [name, value] of selections) {
    if (!form.select(name, value)) notes.push(`ignored the link's selected ${form.label(name)} "${value.slice(0, 20)}" (not a positive number on the slider)`);
  }
  // A folded setting the link changes from the preset is shown: "More settings" opens.
  form.revealChanged(reg.preset_fields(chosen));
  return { notes, missing: null };
}
