// A pool of module workers sharing one sweep. A Private FedRep sweep is split
// into shards (run number r goes to worker r mod N); each worker draws the
// same seeded data and computes its runs, and the main thread merges the
// shards' rows in sweep order with the Rust merge (so the result is exactly
// the single-worker one). A DP-GD sweep runs in one worker. Stop cancels every
// worker; one that does not answer (inside a long step) is terminated and
// replaced. No SharedArrayBuffer: works on any static host.

/** How much a shard's snapshot shows: rows, curves, and points on its charts
 * (a change in any of them changes this). */
function contentSize(part) {
  const points = (part.charts || []).reduce(
    (sum, chart) => sum + (chart.series || []).reduce((s, series) => s + (series.points || []).length, 0),
    0,
  );
  return `${(part.rows || []).length}/${(part.curves || part.trace || []).length}/${points}`;
}

/** Workers to use: the machine's cores, at least 1, at most 4. */
export function defaultPoolSize() {
  return Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 4));
}

export class SweepPool {
  /**
   * @param {object} o
   * @param {number} o.size  workers for a splittable sweep
   * @param {(parts: object[]) => object} o.merge  merges the shards' snapshots into one
   * @param {(p: {done: number, total: number, phase: string, changed: boolean, snapshot: () => object}) => void} o.onProgress
   * @param {(snap: object, csv: string, seconds: number) => void} o.onResult
   * @param {(message: string) => void} o.onError
   * @param {() => void} o.onCancelled
   */
  constructor(o) {
    Object.assign(this, o);
    this.workers = [];
    this.generation = 0;
    this.active = null;
  }

  worker(i) {
    while (this.workers.length <= i) {
      const index = this.workers.length;
      const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
      w.onmessage = (e) => this.receive(index, e.data);
      w.onerror = (e) => this.fail(`worker error: ${e.message || 'unknown'}`);
      this.workers.push(w);
    }
    return this.workers[i];
  }

  /** Starts the workers now, so that each has loaded and compiled the wasm
   * module before the first Run. */
  warm() {
    this.worker(this.size - 1);
  }

  /** Starts a sweep; `shards` is 1 for a sweep that does not split. */
  run(preset, fields, shards) {
    this.generation += 1;
    const n = Math.max(1, shards);
    this.active = {
      generation: this.generation,
      preset,
      fields,
      parts: Array.from({ length: n }, () => null),
      finished: Array.from({ length: n }, () => false),
      csv: null,
      started: performance.now(),
      cancelled: 0,
    };
    for (let i = 0; i < n; i += 1) {
      this.worker(i).postMessage({ type: 'run', generation: this.generation, preset, fields, shard: i, shards: n });
    }
  }

  receive(index, msg) {
    const a = this.active;
    if (!a || msg.generation !== a.generation) return; // a stale message from an earlier run
    switch (msg.type) {
      case 'progress':
      case 'result': {
        a.parts[index] = msg.snapshot;
        if (msg.type === 'result') {
          a.finished[index] = true;
          if (a.parts.length === 1) a.csv = msg.csv;
        }
        if (a.parts.some((p) => p === null)) return;
        if (a.finished.every(Boolean)) {
          const merged = this.combine(a);
          this.active = null;
          this.onResult(merged, merged.csv ?? a.csv, (performance.now() - a.started) / 1000);
        } else {
          // Progress is cheap to sum; the merge (rows, charts) is done only
          // when the page actually draws (`snapshot()`), at most every 150 ms,
          // and only when a shard's results changed: at n = 10⁶ a run takes
          // seconds, and redrawing the same charts meanwhile only takes CPU
          // from the workers.
          const content = a.parts.map(contentSize).join(',');
          const changed = content !== a.content;
          a.content = content;
          this.onProgress({
            done: a.parts.reduce((s, p) => s + p.done, 0),
            total: a.parts.reduce((s, p) => s + p.total, 0),
            phase: this.phase(a),
            changed,
            snapshot: () => this.combine(a),
          });
        }
        break;
      }
      case 'cancelled':
        a.cancelled += 1;
        if (a.cancelled === a.parts.length) {
          clearTimeout(this.stopTimer);
          this.active = null;
          this.onCancelled();
        }
        break;
      case 'error':
        this.fail(msg.message);
        break;
      default:
        break;
    }
  }

  phase(a) {
    if (a.parts.length === 1) return a.parts[0].phase;
    const running = a.parts.find((p, i) => !a.finished[i]) || a.parts[0];
    return `${a.parts.length} workers; ${running.phase}`;
  }

  combine(a) {
    if (a.parts.length === 1) return a.parts[0];
    return {
      ...a.parts[0],
      ...this.merge(a.preset, a.fields, a.parts),
      done: a.parts.reduce((s, p) => s + p.done, 0),
      total: a.parts.reduce((s, p) => s + p.total, 0),
      finished: a.finished.every(Boolean),
      phase: this.phase(a),
    };
  }

  fail(message) {
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
    for (let i = 0; i < a.parts.length; i += 1) this.workers[i].postMessage({ type: 'cancel', generation: a.generation });
    // A worker inside a long step cannot read the message: if the pool is not
    // all stopped soon, end the workers and start fresh ones on the next run.
    clearTimeout(this.stopTimer);
    this.stopTimer = setTimeout(() => {
      if (this.active !== a) return;
      for (const w of this.workers) w.terminate();
      this.workers = [];
      this.active = null;
      this.onCancelled();
    }, 1500);
  }
}
