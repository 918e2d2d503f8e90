// The result cache: the last finished run's results ({ run, parts, kept }, `run` holding its checked
// wasm `Configuration`, and their `whole` part, computed once, off the run's path). A run of a
// configuration that shares jobs with it (an ε appended to the list, the slider's value moved) keeps
// their results and computes only the others (`Configuration.reuse`).

export class ResultCache {
  constructor() {
    this.last = null;
  }

  /** Keeps a finished run's results ({ run: { configuration, … }, parts, kept }). */
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
          ? c.run.configuration.whole_part(c.parts, c.kept.part, c.kept.jobs)
          : c.run.configuration.whole_part(c.parts);
      } catch {
        this.last = null; // nothing to keep: the next run computes everything
        return null;
      }
    }
    return c.whole;
  }

  /** The results of the last finished run that a run of `configuration` keeps ({ part, jobs }), or null. */
  keptFor(configuration) {
    const whole = this.whole();
    if (!whole) return null;
    try {
      const kept = configuration.reuse(this.last.run.configuration, whole);
      return kept.jobs.length ? kept : null;
    } catch {
      return null;
    }
  }
}
