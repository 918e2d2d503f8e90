// The page's worker with the end-to-end tests' panic hook. Never shipped: the
// tests' server (tests/e2e/browser.mjs) serves this folder at /test-hooks/, and
// the page loads it only when a test installs `installTestHooks` (which swaps
// the page's worker.js for this module). A Run whose message the hook marked
// (`testPanic: MESSAGE`) panics inside the wasm module with MESSAGE where the
// worker starts its runner (`Configuration.shard`, `skipping` or `user_split`), through
// the export `debug_panic` that only a build with the cargo feature
// `test-hooks` has (`make build-e2e`).
import * as wasm from '../pkg/dp_explorer.js';
import '../worker.js';

let panic = null; // the marked run's message, until its runner starts

const handle = self.onmessage;
self.onmessage = (event) => {
  if (event.data && event.data.type === 'run') panic = event.data.testPanic ?? null;
  return handle(event);
};

for (const name of ['shard', 'skipping', 'user_split']) {
  const start = wasm.Configuration.prototype[name];
  wasm.Configuration.prototype[name] = function (...args) {
    if (panic === null) return start.apply(this, args);
    if (typeof wasm.debug_panic !== 'function') {
      throw new Error('www/pkg/ was built without the cargo feature test-hooks: run `make build-e2e`');
    }
    const message = panic;
    panic = null;
    return wasm.debug_panic(message);
  };
}
