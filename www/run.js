// The lifecycle of a run: started from the page state's settings with their wasm `Configuration`
// (the state's, built once per edit: the pool's size and merges, the user split and the result cache
// ask it, never the settings' text again), handed to the worker pool, reported to the page as it progresses,
// finished, stopped or failed; and the result cache (result-cache.js) it keeps beside. What the
// reports draw is results-view.js's: this module touches no element but the body's test marks.
import { ResultCache } from './result-cache.js';
import { SweepPool, defaultPoolSize } from './pool.js';
import { sameSettings } from './page-state.js';

export class RunLifecycle {
  /**
   * @param {object} hooks what the page does with a run's reports (main.js hands results-view.js's):
   *   `progress(p)` while it runs, `result(snapshot, seconds, token)` once its results are whole (and
   *   kept in the cache), `cancelled(partial)` (the finished part, or null), `error(message)`
   */
  constructor(hooks) {
    this.running = false;
    this.token = 0; // counts the runs started: a finished run's last drawing belongs to the newest only
    this.run = null; // { preset, fields } of the results shown (while running: of the run)
    this.configuration = null; // the run's checked wasm `Configuration` (the page state's, page-state.js `checked`)
    this.snapshot = null; // what the charts show now (null: empty axes)
    this.previous = null; // while a run has not drawn its own: { scenario, charts } of the results it replaces
    this.drawnOwn = false; // the running sweep has drawn its own results once (its first points)
    this.stale = false; // the results shown are marked as of other settings than the form's
    this.confirmed = null; // the settings of a long run the reader was warned about
    this.cache = new ResultCache(); // the last finished run's results, which a new run may keep
    this.pool = new SweepPool({
      size: defaultPoolSize(),
      merge: (run, parts, finished, kept) => (kept
        ? run.configuration.merge(parts, finished, kept.part, kept.jobs)
        : run.configuration.merge(parts, finished)),
      onProgress: (p) => { if (this.running) hooks.progress(p); },
      onResult: (snap, seconds, finishedRun) => {
        // The whole run replaces the previous results; it counts as running until its charts are drawn.
        this.previous = null;
        this.cache.keep(finishedRun);
        hooks.result(snap, seconds, this.token);
      },
      onCancelled: (partial) => {
        this.running = false;
        hooks.cancelled(partial);
      },
      onError: (message) => {
        this.running = false;
        hooks.error(message);
      },
    });
  }

  /** The results shown (finished, or being computed) are of other settings than `settings`. */
  outOfDate(settings) {
    return this.run !== null && (this.running || this.snapshot !== null) && !sameSettings(this.run, settings);
  }

  /** `settings` are those of the results shown (finished) or being computed: nothing to re-run. */
  isCurrent(settings) {
    return this.run !== null && !this.outOfDate(settings) && (this.running || !!(this.snapshot && this.snapshot.finished));
  }

  /** Already computing exactly `settings` (a press of Run has nothing to do). */
  computing(settings) {
    return this.running && sameSettings(this.run, settings);
  }

  /** A run of `settings` estimated `est` seconds, over `long`, asks for a second press: true the first time. */
  needsConfirming(settings, est, long) {
    if (est === null || est <= long || sameSettings(this.confirmed, settings)) return false;
    this.confirmed = settings;
    return true;
  }

  /**
   * Starts a run of `settings` ({ preset, fields }) of scenario `info` with their checked `configuration`
   * (page-state.js `checked()`, not refused): the results shown become `previous` (drawn faded until
   * the run draws its own), and the workers start. Returns the run's configuration.
   */
  start({ settings, configuration }, info) {
    const before = this.snapshot && this.snapshot.finished ? this.snapshot : (this.previous || this.snapshot);
    this.previous = before ? { scenario: info.id, charts: before.charts } : null;
    this.snapshot = null;
    this.run = settings;
    this.configuration = configuration;
    this.token += 1;
    this.running = true;
    this.drawnOwn = false;
    performance.mark('dp-run');
    // The workers start first: the page's own drawing runs while they compute.
    // Every core the machine's memory allows for these settings (the cost model's per-worker peak).
    const shards = info.splits ? this.pool.sizeFor(configuration) : 1;
    // Few large runs: the workers share each run's users (the scenario's cost model decides).
    const byUsers = shards > 1 && !!info.user_split && configuration.split_by_users(shards);
    // How the sweep is split, for tests and benchmarks: "users:2", "runs:2", "runs:1".
    document.body.dataset.pool = `${byUsers ? 'users' : 'runs'}:${shards}`;
    // Runs that the last finished run computed with the same numbers are kept, not computed again.
    const kept = byUsers ? null : this.cache.keptFor(configuration);
    document.body.dataset.kept = kept ? String(kept.jobs.length) : '0';
    this.pool.run({ ...settings, configuration }, shards, byUsers, kept);
    return configuration;
  }

  /** The run of `token` has drawn its results: true (and no longer running) if it is still the newest. */
  finish(token) {
    if (token !== this.token) return false; // a newer run has started meanwhile
    this.running = false;
    // The cache's single part, computed now that the page is idle (not when the next run waits).
    setTimeout(() => this.cache.whole(), 0);
    return true;
  }

  /** Asks the workers to stop (they report what they finished: `cancelled`). */
  stop() {
    if (this.running) this.pool.cancel();
  }

  /** No results shown (another scenario, a preset loaded). */
  clear() {
    this.snapshot = null;
    this.run = null;
    this.configuration = null;
    this.previous = null;
  }

  /** The workers start now; with `settings` ({ preset, fields, shards }) they also warm up on them. */
  warm(settings) {
    this.pool.warm(settings);
  }

  get workers() {
    return this.pool.size;
  }

  /** The pool's size for a checked `configuration`: every core, as far as memory allows. */
  workersFor(configuration) {
    return this.pool.sizeFor(configuration);
  }
}
