// Module worker: runs one shard of a sweep in slices of ~40 ms so that progress
// is posted often and a "cancel" message is read between slices. Every message
// carries the run's generation, so the pool can ignore stale ones. Every error
// is caught and posted; the page stays usable.
import init, { Runner } from './pkg/dp_explorer.js';

const ready = init();
let current = 0; // generation of the run this worker should be doing

const SLICE_MS = 40;
const PROGRESS_MS = 120;

// Yields to the event loop (so a "cancel" message is read) and continues.
// A message to ourselves rather than setTimeout(0): nested timeouts are
// clamped to at least 4 ms, a tenth of every 40 ms slice.
const channel = new MessageChannel();
let next = null;
channel.port1.onmessage = () => {
  const f = next;
  next = null;
  if (f) f();
};
function yieldThen(f) {
  next = f;
  channel.port2.postMessage(null);
}

function errorMessage(e) {
  return String((e && e.message) || e);
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg.type === 'cancel') {
    current = -1;
    self.postMessage({ type: 'cancelled', generation: msg.generation });
    return;
  }
  if (msg.type !== 'run') return;
  const generation = msg.generation;
  current = generation;
  const post = (m) => self.postMessage({ ...m, generation });
  try {
    await ready;
  } catch (e) {
    post({ type: 'error', message: `could not load the WebAssembly module: ${errorMessage(e)}` });
    return;
  }
  let runner;
  try {
    runner = Runner.shard(msg.preset, msg.fields, msg.shard ?? 0, msg.shards ?? 1);
  } catch (e) {
    post({ type: 'error', message: errorMessage(e) });
    return;
  }
  const started = performance.now();
  let lastPost = -Infinity;
  const slice = () => {
    if (current !== generation) {
      runner.free();
      return;
    }
    try {
      const done = runner.run_for(SLICE_MS);
      if (done) {
        const snapshot = runner.snapshot();
        const csv = runner.csv();
        runner.free();
        post({ type: 'result', snapshot, csv, seconds: (performance.now() - started) / 1000 });
      } else {
        // A snapshot (rows, charts, tables) costs time: post one at most every
        // PROGRESS_MS; the slices in between only compute (and read "cancel").
        const now = performance.now();
        if (now - lastPost >= PROGRESS_MS) {
          lastPost = now;
          post({ type: 'progress', snapshot: runner.snapshot() });
        }
        yieldThen(slice);
      }
    } catch (e) {
      runner.free();
      post({ type: 'error', message: errorMessage(e) });
    }
  };
  slice();
};
