// The page's state in one place (as TF Playground's one `State` object drives its URL): what the reader
// chose, kept here and nowhere else. Input flows in (the form writes `fields` on every input, the boxes
// their key on change); the DOM is written from it, and never read back. The keys of `URL_KEYS` make
// the address (url-state.js writes and reads them); the others last as long as the page.
//
// A new page feature with a choice of its own (a switch in the form, a box) adds its key here, with its
// default; when a copied link should keep it, also to `URL_KEYS` (and url-state.js's two loops).
//
// Beside the choices, one derived value: the settings checked, as one wasm `Configuration` built once
// per edit (`checked()`, as ruff's wasm `Workspace` parses its options once and then serves its
// methods). Validation (its constructor's errors are the form's field errors), the estimate, the
// pool's workers, the empty charts and a run's start all ask it; none parses the settings' text again.
import { Configuration } from './pkg/dp_explorer.js';

/** The keys the address holds (`fields` as one parameter per setting, `selected` as `<name>-selected`). */
export const URL_KEYS = ['preset', 'fields', 'selected', 'large', 'present'];

export class PageState {
  constructor() {
    /** The preset's canonical name (null until the page has painted). */
    this.preset = null;
    /** { name: text } of every setting of the scenario shown, in the form's order (form.js writes it). */
    this.fields = {};
    /** { name, value }: the value a list setting's slider selected (the ε marked on the charts), or null. */
    this.selected = null;
    /** Large text (for a projector) and presenter view: the two screens (links.js). */
    this.large = false;
    this.present = false;
    /** A short run re-runs by itself after an edit (the "re-run on change" box). */
    this.autoRun = true;
    /** The step of the scenario's lesson shown (lesson.js). */
    this.lessonStep = 0;
    /** The audit panel's choices (audit.js): runs per side as typed (null: the scenario's default,
     * which the panel shows once planned), the game's mode, and whether the runs are deliberately broken. */
    this.audit = { runs: null, mode: 'white-box', broken: false };
    /** "Look inside one round" (round-view.js): the round asked for (1-based) and the stage shown (0-based). */
    this.round = { number: 1, stage: 0 };
    /** The checked settings of `checked()`, and the text they were checked from. */
    this.checkedNow = null;
    this.checkedKey = null;
  }

  /**
   * The settings as a run's, checked once per edit (the module loaded): `{ settings, configuration,
   * errors }`, `configuration` the wasm `Configuration` of `settings` (null when refused) and
   * `errors` its constructor's `FieldError[]` (empty when it checks). Asked again without an edit
   * between, it is the same object. Not freed here: a run and the result cache may hold it (the
   * module's finalizers free it once nothing does).
   */
  checked() {
    const settings = this.settings();
    const key = JSON.stringify(settings);
    if (key !== this.checkedKey) {
      this.checkedKey = key;
      this.checkedNow = check(settings);
    }
    return this.checkedNow;
  }

  /** The settings as a run's: { preset, fields } (a copy: a later edit does not change it). */
  settings() {
    return { preset: this.preset, fields: this.sentFields() };
  }

  /**
   * { name: text } as the module is sent them: a privacy target given as risks derives the ε list
   * (Rust's field/target.rs: an ε list beside risks must be the one they imply), so then the ε list
   * the form shows is left out. Validation, estimates, runs and the address all read this.
   */
  sentFields() {
    const out = { ...this.fields };
    if (risksDrive(out)) delete out.epsilons;
    return out;
  }
}

/** `{ settings, configuration, errors }` of `settings` ({ preset, fields }): see `PageState.checked`. */
function check(settings) {
  try {
    return { settings, configuration: new Configuration(settings.preset, settings.fields), errors: [] };
  } catch (e) {
    // A refusal lists its field errors; anything else (settings that are not text) is the preset's.
    const errors = Array.isArray(e.errors) ? e.errors : [{ field: 'preset', message: String(e.message || e) }];
    return { settings, configuration: null, errors };
  }
}

/** Whether settings `fields` ({ name: text }) give the privacy target as risks (not "none"). */
export function risksDrive(fields) {
  const risks = fields.risks;
  return risks !== undefined && !/^\s*(none)?\s*$/i.test(String(risks));
}

/** Whether two runs' settings ({ preset, fields }) are the same text, setting by setting. */
export function sameSettings(a, b) {
  if (!a || !b || a.preset !== b.preset) return false;
  const ka = Object.keys(a.fields);
  return ka.length === Object.keys(b.fields).length && ka.every((k) => String(a.fields[k]) === String(b.fields[k]));
}
