// What the sweep worker (worker.js) and the audit worker (audit-worker.js)
// share: how they give the event loop a turn between slices of work, and how
// they word an error, a panic inside the wasm module included.

/** A function `then(f)` that yields to the event loop (so a "cancel" message is read) and
 * then calls `f`, the last `f` given if called again meanwhile. A message to ourselves rather
 * than setTimeout(0): nested timeouts are clamped to at least 4 ms, a tenth of every 40 ms
 * slice. Each has its own channel, so one loop's pending turn never calls another's `f`. */
export function turnTaker() {
  const channel = new MessageChannel();
  let next = null;
  channel.port1.onmessage = () => {
    const f = next;
    next = null;
    if (f) f();
  };
  return (f) => {
    next = f;
    channel.port2.postMessage(null);
  };
}

/** The slices' turns of the sweep's (or the audit's) run. */
export const yieldThen = turnTaker();

/** A wasm panic surfaces as a RuntimeError ("unreachable"); a JsError from
 * Rust (a refused setting) is a plain Error. */
export function isPanic(e) {
  return e instanceof WebAssembly.RuntimeError;
}

/** The message to show for `e`; for a panic, the module's own message
 * (`lastPanic`, the export `last_panic`) when it can still answer. */
export function errorMessage(e, lastPanic) {
  if (isPanic(e)) {
    let message = '';
    try {
      message = lastPanic();
    } catch {
      // the module cannot answer any more: keep the runtime's message
    }
    return `internal error (a bug, not your settings): ${message || String(e.message || e)}`;
  }
  return String((e && e.message) || e);
}

// Chunks handed out (a run split by users whose workers ask for the chunks of
// each pass as they free up, so a slower or busier worker takes fewer): the
// pool numbers a pass's chunks 0, 1, … in the order the claims arrive and
// starts again at 0 after each exchange; a number past the pass's last chunk
// tells a worker there are none left. The Rust run adds every worker's
// partials in chunk order, so the result does not depend on who took which.

/** The pool's side: the next chunk number of the pass in progress. */
export class ChunkCounter {
  constructor() {
    this.next = 0;
  }

  /** The answer to one claim. */
  grant() {
    const chunk = this.next;
    this.next += 1;
    return chunk;
  }

  /** Every worker posted its partials: the next pass starts at chunk 0. */
  passDone() {
    this.next = 0;
  }
}

/** The worker's side: sends one claim for each chunk the run asks for
 * (`runner.claim()` counts it as sent; it asks a little ahead of its work). */
export function sendClaims(runner, post) {
  while (runner.claim()) post({ type: 'claim' });
}
