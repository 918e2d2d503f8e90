// Module worker for the audit: builds an Auditor (the scenario's canary and
// score, from the registry), plays the game in ~40 ms slices so progress is
// posted and a "cancel" is read between slices, and posts the view at the end.
// A "plan" builds the Auditor without playing it: its runs per side, the
// records it runs at (a default may run at fewer than the preset's), its
// estimate and (broken runs) which ε its size can catch, shown before the
// audit starts.
// Errors are caught and posted; after a panic the worker is not reused.
import init, { Auditor, audit_reach, last_panic } from './pkg/dp_explorer.js';
import { errorMessage, isPanic, yieldThen } from './worker-slices.js';

const ready = init();
let current = 0;

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
      const a = new Auditor(msg.preset, msg.fields, msg.runs, msg.mode, msg.broken, msg.seed);
      const [, total] = a.progress();
      self.postMessage({
        type: 'plan', plan: msg.plan, runs: a.runs(), wanted: a.runs_wanted(), estimate: a.estimated_seconds(msg.machine ?? undefined), total,
        sized: a.size_words() ?? null, resized: a.resized(),
        // Broken runs whose attack knows its chances: which ε this size catches, said before the run.
        reach: msg.broken ? audit_reach(msg.preset, msg.fields, a.runs(), msg.mode, msg.broken, msg.seed) ?? null : null,
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
    auditor = new Auditor(msg.preset, msg.fields, msg.runs, msg.mode, msg.broken, msg.seed);
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
