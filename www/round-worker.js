// Module worker for "Look inside one round": replays the run of the shown
// settings to the round asked for (the registry's Scenario::round, through
// the module's `Configuration.round`, the settings checked once per message)
// off the main thread, and posts the trace. A newer request supersedes an
// older one (its answer is dropped by the page).
import init, { Configuration, last_panic } from './pkg/dp_explorer.js';
import { errorMessage } from './worker-slices.js';

const ready = init();

self.onmessage = async (event) => {
  const msg = event.data;
  try {
    await ready;
    const started = performance.now();
    const configuration = new Configuration(msg.preset, msg.fields);
    const trace = configuration.round(msg.round);
    configuration.free();
    self.postMessage({ id: msg.id, trace, ms: performance.now() - started });
  } catch (e) {
    // A refused round: its configuration is left to the module's finalizers (after a panic nothing is touched).
    self.postMessage({ id: msg.id, error: errorMessage(e, last_panic) });
  }
};
