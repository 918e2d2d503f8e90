// Module worker: runs one shard of a sweep in slices of ~40 ms so that
// progress is posted often and a "cancel" message is read between slices.
// Every message carries the run's generation, so the pool can ignore stale
// ones. Every error is caught and posted. After a panic inside the wasm
// module the runner is not touched again (even `free()` would throw): the
// worker says so (`fatal`), and the pool replaces it.
// The worker checks the settings it is sent once per message: one wasm
// `Configuration`, which starts its runner (`shard`, `skipping`, `user_split`).
// A run split by users (msg.split === 'users', Configuration.user_split) stops after
// each pass over its share of the users: the worker posts its partials
// ('exchange') and parks until the pool sends every worker's ('deliver').
import init, { Configuration, last_panic } from './pkg/dp_explorer.js';
import { errorMessage, isPanic, sendClaims, turnTaker, yieldThen } from './worker-slices.js';

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

/** The runner of a message's share: its settings checked once (a `Configuration`), then started as
 * the message asks (throws with `field: message` lines for settings that do not check). */
function startRunner(msg) {
  const configuration = new Configuration(msg.preset, msg.fields);
  try {
    const [shard, shards] = [msg.shard ?? 0, msg.shards ?? 1];
    if (msg.split === 'users') return configuration.user_split(shard, shards);
    // The jobs kept from the previous run (the page's result cache) are not computed again.
    if (msg.skip && msg.skip.length) return configuration.skipping(shard, shards, Uint32Array.from(msg.skip));
    return configuration.shard(shard, shards);
  } finally {
    // The runner holds what it needs of the configuration; after a panic nothing may be touched.
    freeQuietly(configuration);
  }
}

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
  // Any message ends the warm-up at once (a run waits for at most the slice in progress).
  if (msg.type !== 'warm') stopWarm();
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
    runner = startRunner(msg);
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

// The warm-up at page load (below): a thrown-away run of the shown settings' share in short
// slices, each followed by a turn of the message loop, so that a run posted meanwhile
// starts after at most the slice in progress.
const WARM_SLICE_MS = 10;
// The warm-up's total (wall time from its start). V8 runs a wasm function in its baseline tier
// first and compiles a hot one with its optimizing tier in the background: a share's first
// ~10 ms leave most of the hot code in the baseline tier; about 1 s of a share brings a Run
// close to a second Run's time (measured: docs/performance.md, "The first Run's tier-up").
// On a phone: at most this much CPU per worker, once per page load, and only for a short run
// (main.js).
const WARM_BUDGET_MS = 1000;
let warming = null; // the warm-up in progress: { runner, started, slices }
// Its own turns of the message loop, so that a stopped warm-up's pending turn never calls a
// run's slice.
const warmThen = turnTaker();

/** At page load: the shown settings' share (`msg.shard` of `msg.shards`), run in slices of
 * WARM_SLICE_MS for at most WARM_BUDGET_MS (or `msg.budget`), or until the share is done, then
 * thrown away. The module's functions are compiled on their first call (about 0.15 s for a
 * sweep's start, step and snapshot) and the hot ones tiered up as they run: paid here, not by
 * the first Run. Not when a run (or a cancel) came first; every message ends it at once
 * (stopWarm); an error only ends it (a setting that does not run: the run reports it). Its end
 * is posted, `{ type: 'warmed', ended: 'done' | 'budget' | 'message' | 'error', ms, slices }`
 * (no generation: the pool only marks it, for the benchmarks' phases). */
async function warm(msg) {
  try {
    await ready;
  } catch {
    return; // the run reports it
  }
  if (poisoned || current !== 0 || warming) return; // a run came first, or one warm-up is enough
  const started = performance.now();
  let runner;
  try {
    runner = startRunner(msg);
  } catch {
    return; // settings that do not run: nothing to warm
  }
  const w = { runner, started, slices: 0 };
  warming = w;
  const budget = msg.budget ?? WARM_BUDGET_MS;
  const slice = () => {
    let ended = null;
    try {
      if (w.slices === 1) {
        // What a run's reports call, compiled once (a slice of its own: a few ms cold).
        runner.snapshot();
        runner.part();
      } else if (runner.run_for(WARM_SLICE_MS)) {
        ended = 'done';
      }
      w.slices += 1;
      if (!ended && performance.now() - w.started >= budget) ended = 'budget';
    } catch (e) {
      if (isPanic(e)) poisoned = true;
      ended = 'error';
    }
    if (ended) stopWarm(ended);
    else next();
  };
  // The next slice, unless this warm-up has been stopped meanwhile.
  const next = () => warmThen(() => { if (warming === w) slice(); });
  // The runner's start (the share's data: tens of ms cold) was a slice too.
  next();
}

/** Ends the warm-up in progress, if any (`ended`: why), frees its runner and says so. */
function stopWarm(ended = 'message') {
  const w = warming;
  if (!w) return;
  warming = null;
  freeQuietly(w.runner);
  self.postMessage({ type: 'warmed', ended, ms: performance.now() - w.started, slices: w.slices });
}
