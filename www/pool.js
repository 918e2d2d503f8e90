// A pool of module workers sharing one sweep. A sweep whose scenario splits
// (ScenarioInfo.splits) is cut into shards, one per worker; each worker draws
// the same seeded data and computes its runs, and posts its snapshot and its
// compact `part`. The main thread merges the parts with the scenario's Rust
// merge, so the result is exactly the single-worker one. A sweep of few large
// runs (the scenario's `split_by_users` says when) is instead computed by every
// worker together, each its share of every pass over the users: after a pass
// each posts its partial sums ('exchange'), the pool sends every worker's to
// all ('deliver'), and each applies them in user order (in Rust), so every
// worker ends with the single-worker view; worker 0's is shown. Stop cancels every
// worker; one that does not answer (inside a long step) is terminated and
// replaced, and so is one that reports an internal error. Results kept from
// the previous run (run.js's result cache) join every merge, and the
// workers compute only the other jobs. No SharedArrayBuffer: works on any
// static host.

import { ChunkCounter } from './worker-slices.js';

/** How much a shard's snapshot shows (a change in any chart's points changes this). */
function contentSize(snapshot, part) {
  // A light report (worker.js) holds no view: its part's size changes with its results.
  if (!snapshot.charts) return String(part ? part.byteLength : 0);
  const points = (snapshot.charts || []).reduce(
    (sum, chart) => sum + (chart.series || []).reduce((s, series) => s + (series.points || []).length, 0),
    0,
  );
  return `${(snapshot.tables || []).map((t) => t.rows.length).join('/')}/${points}`;
}

/** The machine's cores, as the browser reports them (2 where it does not). */
export function machineCores() {
  return Math.max(1, navigator.hardwareConcurrency || 2);
}

/** The machine's memory in bytes where the browser says (Chromium's navigator.deviceMemory, in GB,
 * rounded down and at most 8), else undefined. */
function machineMemoryBytes() {
  return navigator.deviceMemory ? navigator.deviceMemory * 2 ** 30 : undefined;
}

/** Workers before any settings are known: every core. */
export function defaultPoolSize() {
  return machineCores();
}

export class SweepPool {
  /**
   * @param {object} o
   * @param {number} o.size  workers for a splittable sweep
   * @param {(run: {configuration}, parts: Uint8Array[], finished: boolean, kept: object|null) => object} o.merge
   *   the merged view (of the run's `configuration`, run.js) (finished: every worker is done, so the Rust merge checks the parts, beside
   *   the `kept` results of the previous run, hold the whole sweep)
   * @param {(p: {done: number, total: number, phase: string, changed: boolean, snapshot: () => object}) => void} o.onProgress
   * @param {(snapshot: object, seconds: number, run: {run, parts, kept}) => void} o.onResult
   * @param {(message: string) => void} o.onError
   * @param {(partial: object|null) => void} o.onCancelled  with the last snapshot, if any
   */
  constructor(o) {
    Object.assign(this, o);
    this.workers = [];
    this.generation = 0;
    this.active = null;
  }

  /** Sizes the pool for a sweep of a checked `configuration` (wasm `Configuration`): every core, as
   * far as the cost model's per-worker peak memory allows (its `workers_for`); 1 for a sweep that
   * does not split. Returns it. */
  sizeFor(configuration) {
    this.size = configuration.workers_for(machineCores(), machineMemoryBytes());
    return this.size;
  }

  worker(i) {
    while (this.workers.length <= i) {
      const index = this.workers.length;
      const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
      w.onmessage = (e) => this.receive(index, e.data);
      w.onerror = (e) => this.fail(`worker error: ${e.message || 'unknown'}`, true);
      this.workers.push(w);
    }
    return this.workers[i];
  }

  /** Starts the workers now, so that each has compiled the wasm module before the first Run;
   * with `settings` ({ preset, fields, shards }), each also runs its share of them for a while
   * (worker.js: at most WARM_BUDGET_MS, in slices that any message preempts) and throws it away,
   * so that the module's code a run calls is compiled, its hot code tiered up, before the Run. */
  warm(settings = null) {
    this.worker(this.size - 1);
    if (!settings) return;
    const n = Math.max(1, Math.min(settings.shards, this.size));
    for (let i = 0; i < n; i += 1) {
      this.workers[i].postMessage({ type: 'warm', preset: settings.preset, fields: settings.fields, shard: i, shards: n });
    }
  }

  /** Starts a sweep of `run` ({ preset, fields, configuration }) over `shards` workers (1 for a sweep that does not split);
   * `byUsers`: the workers share every run's users instead of taking runs;
   * `kept`: `{ part, jobs }`, results kept from the previous run (wasm `reuse`):
   * the workers compute only the other jobs, and every view merges them in. */
  run(run, shards, byUsers = false, kept = null) {
    const { preset, fields } = run;
    this.generation += 1;
    const n = Math.max(1, shards);
    this.active = {
      generation: this.generation,
      run,
      snapshots: Array.from({ length: n }, () => null),
      parts: Array.from({ length: n }, () => null),
      finished: Array.from({ length: n }, () => false),
      started: performance.now(),
      cancelled: 0,
      byUsers: byUsers && n > 1,
      exchange: Array.from({ length: n }, () => null),
      kept: kept && kept.jobs.length && !(byUsers && n > 1) ? kept : null,
      chunks: new ChunkCounter(),
    };
    const skip = this.active.kept ? Array.from(this.active.kept.jobs) : null;
    // The page draws the merge of the parts (never a worker's own view) unless one worker computes all;
    // split by users it draws worker 0's view, so the others report only their progress.
    const lightRuns = !this.active.byUsers && (n > 1 || !!this.active.kept);
    const split = this.active.byUsers ? 'users' : 'runs';
    for (let i = 0; i < n; i += 1) {
      const light = lightRuns || (this.active.byUsers && i > 0);
      this.worker(i).postMessage({
        type: 'run', generation: this.generation, preset, fields, shard: i, shards: n, split, skip, light,
      });
    }
  }

  receive(index, msg) {
    // A worker's warm-up ended (the latency's phases: scripts/bench-latency.mjs reads the marks).
    if (msg.type === 'warmed') {
      performance.mark(`dp-worker-${index}-warmed`, { detail: msg });
      return;
    }
    const a = this.active;
    if (!a || msg.generation !== a.generation) return; // a stale message from an earlier run
    switch (msg.type) {
      case 'progress':
      case 'result': {
        // The latency's phases (scripts/bench-latency.mjs reads them): each worker's first report and result.
        if (a.snapshots[index] === null) performance.mark(`dp-worker-${index}-first`);
        if (msg.type === 'result') performance.mark(`dp-worker-${index}-result`);
        a.snapshots[index] = msg.snapshot;
        a.parts[index] = msg.part;
        if (msg.type === 'result') a.finished[index] = true;
        if (a.snapshots.some((p) => p === null)) return;
        if (a.finished.every(Boolean)) {
          let merged;
          try {
            merged = this.combine(a);
          } catch (e) {
            this.fail(String(e.message || e));
            return;
          }
          this.active = null;
          // What the page's result cache keeps of this run (result-cache.js).
          this.onResult(merged, (performance.now() - a.started) / 1000, { run: a.run, parts: a.parts, kept: a.kept });
        } else {
          // Progress is cheap to sum; the merge is done only when the page
          // actually draws (`snapshot()`), and only when a shard's results
          // changed: redrawing the same charts only takes CPU from the workers.
          const content = a.snapshots.map((p, i) => contentSize(p, a.parts[i])).join(',');
          const changed = content !== a.content;
          a.content = content;
          this.onProgress({
            done: a.snapshots.reduce((s, p) => s + p.done, 0),
            total: a.snapshots.reduce((s, p) => s + p.total, 0),
            phase: this.phase(a),
            changed,
            snapshot: () => this.combine(a),
          });
        }
        break;
      }
      case 'claim':
        // Split by users: the next chunk of the pass to the worker that asks.
        this.workers[index].postMessage({ type: 'grant', generation: a.generation, chunk: a.chunks.grant() });
        break;
      case 'exchange': {
        // Every worker's partials of a pass, in worker order, to every worker.
        a.exchange[index] = msg.part;
        if (a.exchange.some((p) => p === null)) return;
        const parts = a.exchange;
        a.exchange = parts.map(() => null);
        a.chunks.passDone();
        for (let i = 0; i < parts.length; i += 1) {
          this.workers[i].postMessage({ type: 'deliver', generation: a.generation, parts });
        }
        break;
      }
      case 'cancelled':
        a.cancelled += 1;
        if (a.cancelled === a.snapshots.length) {
          clearTimeout(this.stopTimer);
          this.active = null;
          this.onCancelled(this.partial(a));
        }
        break;
      case 'error':
        if (msg.fatal) this.replace(index);
        this.fail(msg.message);
        break;
      default:
        break;
    }
  }

  phase(a) {
    if (a.snapshots.length === 1) return a.snapshots[0].phase;
    const running = a.snapshots.find((p, i) => !a.finished[i]) || a.snapshots[0];
    const how = a.byUsers ? ' sharing the users' : '';
    return `${a.snapshots.length} workers${how}; ${running.phase}`;
  }

  combine(a) {
    // One worker's snapshot is the view, unless results kept from the previous run join it.
    if (a.snapshots.length === 1 && !a.kept) return a.snapshots[0];
    return {
      ...a.snapshots[0],
      // Split by users, every worker holds the whole view: nothing to merge.
      ...(a.byUsers ? {} : this.merge(a.run, a.parts, a.finished.every(Boolean), a.kept)),
      done: a.snapshots.reduce((s, p) => s + p.done, 0),
      total: a.snapshots.reduce((s, p) => s + p.total, 0),
      finished: a.finished.every(Boolean),
      phase: this.phase(a),
    };
  }

  /** What a stopped sweep had finished (null if no worker had reported). */
  partial(a) {
    if (a.snapshots.some((p) => p === null)) return null;
    try {
      return { ...this.combine(a), finished: false };
    } catch {
      return null;
    }
  }

  /** Ends worker `index` (after an internal error); a fresh one starts on the next run. */
  replace(index) {
    const w = this.workers[index];
    if (!w) return;
    w.terminate();
    const fresh = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    fresh.onmessage = (e) => this.receive(index, e.data);
    fresh.onerror = (e) => this.fail(`worker error: ${e.message || 'unknown'}`, true);
    this.workers[index] = fresh;
  }

  fail(message, fatal = false) {
    if (fatal) {
      for (const w of this.workers) w.terminate();
      this.workers = [];
    }
    if (!this.active) return;
    this.cancelWorkers();
    this.active = null;
    this.onError(message);
  }

  cancelWorkers() {
    this.generation += 1; // stale loops stop; their messages are ignored
    for (const w of this.workers) w.postMessage({ type: 'cancel', generation: this.generation });
  }

  /** Stops the running sweep; answers through onCancelled. */
  cancel() {
    const a = this.active;
    if (!a) return;
    for (let i = 0; i < a.snapshots.length; i += 1) this.workers[i].postMessage({ type: 'cancel', generation: a.generation });
    // A worker inside a long step cannot read the message: if the pool is not
    // all stopped soon, end the workers and start fresh ones on the next run.
    clearTimeout(this.stopTimer);
    this.stopTimer = setTimeout(() => {
      if (this.active !== a) return;
      for (const w of this.workers) w.terminate();
      this.workers = [];
      this.active = null;
      this.onCancelled(this.partial(a));
    }, 1500);
  }
}
