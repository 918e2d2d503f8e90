// Module worker: runs a sweep in slices of ~40 ms so that progress is posted
// often and a "cancel" message is read between slices. Every error is caught and
// posted; the page stays usable.
import init, { Runner } from './pkg/dp_explorer.js';

const ready = init();
let generation = 0; // bumps on every run or cancel; a stale loop stops itself

const SLICE_MS = 40;

function errorMessage(e) {
  return String((e && e.message) || e);
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg.type === 'cancel') {
    generation += 1;
    self.postMessage({ type: 'cancelled' });
    return;
  }
  if (msg.type !== 'run') return;
  generation += 1;
  const mine = generation;
  try {
    await ready;
  } catch (e) {
    self.postMessage({ type: 'error', message: `could not load the WebAssembly module: ${errorMessage(e)}` });
    return;
  }
  let runner;
  try {
    runner = new Runner(msg.preset, msg.fields);
  } catch (e) {
    self.postMessage({ type: 'error', message: errorMessage(e) });
    return;
  }
  const started = performance.now();
  const slice = () => {
    if (mine !== generation) {
      runner.free();
      return;
    }
    try {
      const done = runner.run_for(SLICE_MS);
      const snapshot = runner.snapshot();
      if (done) {
        const csv = runner.csv();
        runner.free();
        self.postMessage({ type: 'result', snapshot, csv, seconds: (performance.now() - started) / 1000 });
      } else {
        self.postMessage({ type: 'progress', snapshot });
        setTimeout(slice, 0);
      }
    } catch (e) {
      runner.free();
      self.postMessage({ type: 'error', message: errorMessage(e) });
    }
  };
  slice();
};
