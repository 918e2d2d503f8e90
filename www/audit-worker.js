// Module worker for the audit: builds an Auditor (the scenario's canary and
// score, from the registry) of the settings it is sent, checked once per
// message (`new Configuration(preset, fields).auditor(…)`), plays the game in ~40 ms slices so progress is
// posted and a "cancel" is read between slices, and posts the view at the end.
// A "plan" builds the Auditor without playing it: its runs per side, the
// records it runs at (a default may run at fewer than the preset's), its
// estimate and (broken runs) which ε its size can catch, shown before the
// audit starts.
// Errors are caught and posted; after a panic the worker is not reused.
import init, { Configuration, last_panic } from './pkg/dp_explorer.js';
import { errorMessage, isPanic, yieldThen } from './worker-slices.js';

const ready = init();
let current = 0;

/** The audit a message asks for: its settings checked once, then the game's options. */
function auditorOf(msg) {
  const configuration = new Configuration(msg.preset, msg.fields);
  try {
    return configuration.auditor(msg.runs, msg.mode, msg.broken, msg.seed);
  } finally {
    configuration.free(); // the Auditor holds what it needs of it
  }
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg.type === 'cancel') {
    current = -1;
    self.postMessage({ type: 'cancelled', generation: msg.generation });
    return;
  }
  if (msg.type === 'plan') {
    // The audit these settings would run, not run: its runs per side (the
    // default when asked for 0) and its estimate, for the panel before it starts.
    try {
      await ready;
      const a = auditorOf(msg);
      const [, total] = a.progress();
      self.postMessage({
        type: 'plan', plan: msg.plan, runs: a.runs(), wanted: a.runs_wanted(), estimate: a.estimated_seconds(msg.machine ?? undefined), total,
        sized: a.size_words() ?? null, resized: a.resized(),
        // Broken runs whose attack knows its chances: which ε this size catches, said before the run.
        reach: a.reach() ?? null,
      });
      a.free();
    } catch (e) {
      self.postMessage({ type: 'plan', plan: msg.plan, error: errorMessage(e, last_panic) });
    }
    return;
  }
  if (msg.type !== 'audit') return;
  const generation = msg.generation;
  current = generation;
  const post = (m) => self.postMessage({ ...m, generation });
  const fail = (e) => post({ type: 'error', message: errorMessage(e, last_panic), fatal: isPanic(e) });
  let auditor = null;
  try {
    await ready;
    auditor = auditorOf(msg);
  } catch (e) {
    fail(e);
    return;
  }
  const started = performance.now();
  post({
    type: 'progress', done: 0, total: auditor.progress()[1], estimate: auditor.estimated_seconds(msg.machine ?? undefined), runs: auditor.runs(),
    sized: auditor.size_words() ?? null,
  });
  const slice = () => {
    if (current !== generation) {
      auditor.free();
      return;
    }
    try {
      const done = auditor.run_for(40);
      const [d, total] = auditor.progress();
      if (done) {
        post({ type: 'result', view: auditor.view(), seconds: (performance.now() - started) / 1000 });
        auditor.free();
        return;
      }
      post({ type: 'progress', done: d, total });
      yieldThen(slice);
    } catch (e) {
      fail(e);
    }
  };
  slice();
};
