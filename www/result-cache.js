// The result cache: the last finished run's results ({ preset, fields, parts, kept }, and their `whole`
// part, computed once, off the run's path). A run of settings that share jobs with it (an ε appended to
// the list, the slider's value moved) keeps their results and computes only the others (wasm `reuse`).
import { reuse, whole_part } from './pkg/dp_explorer.js';

export class ResultCache {
  constructor() {
    this.last = null;
  }

  /** Keeps a finished run's results ({ preset, fields, parts, kept }). */
  keep(finishedRun) {
    this.last = { ...finishedRun, whole: null };
  }

  /** The last finished run's results as one part (null: none, or they do not merge). */
  whole() {
    const c = this.last;
    if (!c) return null;
    if (c.whole === null) {
      try {
        c.whole = c.kept
          ? whole_part(c.preset, c.fields, c.parts, c.kept.part, c.kept.jobs)
          : whole_part(c.preset, c.fields, c.parts);
      } catch {
        this.last = null; // nothing to keep: the next run computes everything
        return null;
      }
    }
    return c.whole;
  }

  /** The results of the last finished run that a run of `settings` keeps ({ part, jobs }), or null. */
  keptFor(settings) {
    const whole = this.whole();
    if (!whole) return null;
    try {
      const kept = reuse(this.last.preset, this.last.fields, whole, settings.preset, settings.fields);
      return kept.jobs.length ? kept : null;
    } catch {
      return null;
    }
  }
}
