// Benchmark worker: runs one shared Rust benchmark (experiment::bench) in wasm,
// inside a module worker as the page does, and reports its time and the wasm
// memory size (wasm memory never shrinks, so this is the peak).
import init, { run_bench, bench_names } from './pkg/dp_explorer.js';

const ready = init();

self.onmessage = async (event) => {
  const { name } = event.data;
  try {
    const wasm = await ready;
    if (name === '__names') {
      self.postMessage({ names: bench_names() });
      return;
    }
    const t0 = performance.now();
    const result = run_bench(name);
    const seconds = (performance.now() - t0) / 1000;
    self.postMessage({ name, seconds, result, memory_bytes: wasm.memory.buffer.byteLength });
  } catch (e) {
    self.postMessage({ name, error: String((e && e.message) || e) });
  }
};
