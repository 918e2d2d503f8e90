// Benchmark worker: runs one shared Rust benchmark (experiment::bench) in wasm,
// inside a module worker as the page does, and reports its fastest time and
// the wasm memory size (wasm memory never shrinks, so this is the peak).
import init, { run_bench, bench_names } from './pkg/dp_explorer.js';

const ready = init();
/** A run longer than this is timed once. */
const LONG_RUN_SECONDS = 4;

self.onmessage = async (event) => {
  const { name, repeat = 3 } = event.data;
  try {
    const wasm = await ready;
    if (name === '__names') {
      self.postMessage({ names: bench_names() });
      return;
    }
    // Fastest of `repeat` runs, as natively (`dp-explorer bench`, best of 3):
    // the first run also pays for the engine's tier-up of the hot code, which
    // a run of several seconds amortizes, so such a run is timed once.
    let seconds = Infinity;
    let result = null;
    for (let i = 0; i < repeat; i += 1) {
      const t0 = performance.now();
      result = run_bench(name);
      const s = (performance.now() - t0) / 1000;
      seconds = Math.min(seconds, s);
      if (s > LONG_RUN_SECONDS) break;
    }
    self.postMessage({ name, seconds, result, memory_bytes: wasm.memory.buffer.byteLength });
  } catch (e) {
    self.postMessage({ name, error: String((e && e.message) || e) });
  }
};
