// Module worker for "Look inside one round": replays the run of the shown
// settings to the round asked for (the registry's Scenario::round, through
// the module's round_trace) off the main thread, and posts the trace. A
// newer request supersedes an older one (its answer is dropped by the page).
import init, { round_trace, last_panic } from './pkg/dp_explorer.js';
import { errorMessage } from './worker-slices.js';

const ready = init();

self.onmessage = async (event) => {
  const msg = event.data;
  try {
    await ready;
    const started = performance.now();
    const trace = round_trace(msg.preset, msg.fields, msg.round);
    self.postMessage({ id: msg.id, trace, ms: performance.now() - started });
  } catch (e) {
    self.postMessage({ id: msg.id, error: errorMessage(e, last_panic) });
  }
};
