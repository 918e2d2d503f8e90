// Module worker: runs one shard of a sweep in slices of ~40 ms so that
// progress is posted often and a "cancel" message is read between slices.
// Every message carries the run's generation, so the pool can ignore stale
// ones. Every error is caught and posted. After a panic inside the wasm
// module the runner is not touched again (even `free()` would throw): the
// worker says so (`fatal`), and the pool replaces it.
// A run split by users (msg.split === 'users', Runner.user_split) stops after
// each pass over its share of the users: the worker posts its partials
// ('exchange') and parks until the pool sends every worker's ('deliver').
import init, { Runner, last_panic } from './pkg/dp_explorer.js';
import { errorMessage, isPanic, sendClaims, yieldThen } from './worker-slices.js';

const ready = init();
let current = 0; // generation of the run this worker should be doing
let poisoned = false; // a panic happened: the module's state can no longer be trusted
// A run split by users waiting for the other workers' partials:
// { runner, generation, resume(parts) }.
let parked = null;
// A run split by users whose chunks are handed out: { generation, grant(chunk), stop() }.
let handed = null;

const SLICE_MS = 40;
const PROGRESS_MS = 120;
const PHASE_MS = 500;

function freeQuietly(runner) {
  if (poisoned || !runner) return;
  try {
    runner.free();
  } catch {
    poisoned = true;
  }
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg.type === 'cancel') {
    current = -1;
    unpark();
    unhand();
    self.postMessage({ type: 'cancelled', generation: msg.generation });
    return;
  }
  if (msg.type === 'deliver') {
    const p = parked;
    if (!p || p.generation !== msg.generation || current !== msg.generation) return; // stale
    parked = null;
    p.resume(msg.parts);
    return;
  }
  if (msg.type === 'warm') {
    warm(msg);
    return;
  }
  if (msg.type === 'grant') {
    if (handed && handed.generation === msg.generation && current === msg.generation) handed.grant(msg.chunk);
    return;
  }
  if (msg.type !== 'run') return;
  unpark();
  unhand();
  const generation = msg.generation;
  current = generation;
  const post = (m, transfer = []) => self.postMessage({ ...m, generation }, transfer);
  const fail = (e) => {
    const message = errorMessage(e, last_panic);
    if (isPanic(e)) poisoned = true;
    post({ type: 'error', message, fatal: poisoned });
  };
  if (poisoned) {
    post({ type: 'error', message: 'this worker stopped after an internal error', fatal: true });
    return;
  }
  try {
    await ready;
  } catch (e) {
    post({ type: 'error', message: `could not load the WebAssembly module: ${errorMessage(e, last_panic)}`, fatal: true });
    return;
  }
  let runner;
  try {
    if (msg.split === 'users') {
      runner = Runner.user_split(msg.preset, msg.fields, msg.shard ?? 0, msg.shards ?? 1);
    } else if (msg.skip && msg.skip.length) {
      // The jobs kept from the previous run (the page's result cache) are not computed again.
      runner = Runner.skipping(msg.preset, msg.fields, msg.shard ?? 0, msg.shards ?? 1, Uint32Array.from(msg.skip));
    } else {
      runner = Runner.shard(msg.preset, msg.fields, msg.shard ?? 0, msg.shards ?? 1);
    }
  } catch (e) {
    fail(e);
    return;
  }
  // Split by users: this worker asks for each pass's chunks as it frees up
  // ('claim', answered by 'grant'); `idle` while it waits for one.
  let idle = false;
  try {
    if (msg.split === 'users' && runner.hand_out_chunks()) {
      handed = {
        generation,
        grant(chunk) {
          try {
            runner.grant(chunk);
          } catch (e) {
            fail(e);
            if (!poisoned) freeQuietly(runner);
            handed = null;
            return;
          }
          if (idle) {
            idle = false;
            slice();
          }
        },
        stop() {
          if (idle) freeQuietly(runner);
        },
      };
    }
  } catch (e) {
    fail(e);
    return;
  }
  const started = performance.now();
  let lastPost = -Infinity;
  // msg.light: the pool draws the merge of the workers' parts, never this worker's view, so a
  // report is the part (~0.1 ms) with the progress, and the view (~4 ms for the default sweep,
  // a tenth of a slice) is built only for the phase's words, every PHASE_MS.
  const light = !!msg.light;
  let phase = null;
  let lastPhase = -Infinity;
  let postedBytes = -1; // the size of the last part posted: a finished job makes it grow
  const report = (type, part = runner.part()) => {
    postedBytes = part.byteLength;
    let snapshot;
    if (light) {
      const now = performance.now();
      if (phase === null || (type !== 'result' && now - lastPhase >= PHASE_MS)) {
        phase = runner.snapshot().phase;
        lastPhase = now;
      }
      const [done, total] = runner.progress();
      snapshot = { done, total, phase, finished: type === 'result' };
    } else {
      snapshot = runner.snapshot();
    }
    post({ type, snapshot, part, seconds: (performance.now() - started) / 1000 }, [part.buffer]);
  };
  const slice = () => {
    if (current !== generation) {
      freeQuietly(runner);
      return;
    }
    try {
      const done = runner.run_for(SLICE_MS);
      if (done) {
        report('result');
        freeQuietly(runner);
      } else {
        // A snapshot (charts, tables) costs time: post one at most every
        // PROGRESS_MS, or at once when a job has finished (its results are
        // in the part, ~0.1 ms to take): the page draws a new point without
        // waiting for the next report. The slices in between only compute
        // (and read "cancel").
        const now = performance.now();
        const part = runner.part();
        if (now - lastPost >= PROGRESS_MS || part.byteLength !== postedBytes) {
          lastPost = now;
          report('progress', part);
        }
        const out = runner.outbox();
        if (out) {
          // A pass of a run split by users is done here: send the partials,
          // wait for everyone's (a cancel frees the runner meanwhile).
          parked = { runner, generation, resume };
          post({ type: 'exchange', part: out }, [out.buffer]);
        } else {
          if (handed) sendClaims(runner, post);
          // Handed out and no chunk yet: the next 'grant' resumes.
          if (handed && runner.waiting()) idle = true;
          else yieldThen(slice);
        }
      }
    } catch (e) {
      fail(e);
      if (!poisoned) freeQuietly(runner);
    }
  };
  const resume = (parts) => {
    try {
      runner.deliver(parts);
    } catch (e) {
      fail(e);
      if (!poisoned) freeQuietly(runner);
      return;
    }
    yieldThen(slice);
  };
  slice();
};

/** Frees a run idle for want of a chunk (cancelled, or replaced by a new run). */
function unhand() {
  if (handed) handed.stop();
  handed = null;
}

/** Frees a parked run (cancelled, or replaced by a new run). */
function unpark() {
  if (parked) freeQuietly(parked.runner);
  parked = null;
}

/** At page load: one short slice of the settings shown, thrown away. The module's
 * functions are compiled on their first call (about 0.15 s for a sweep's
 * start, step and snapshot): paid here, not by the first Run. */
async function warm(msg) {
  try {
    await ready;
  } catch {
    return; // the run reports it
  }
  if (poisoned || current !== 0) return; // a run came first
  let runner = null;
  try {
    runner = Runner.shard(msg.preset, msg.fields, msg.shard ?? 0, msg.shards ?? 1);
    runner.run_for(msg.ms ?? 10);
    runner.snapshot();
    runner.part();
  } catch {
    // settings that do not run: nothing to warm
  }
  freeQuietly(runner);
}
