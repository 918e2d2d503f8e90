// The page's worker with the end-to-end tests' panic hook. Never shipped: the
// tests' server (tests/e2e/browser.mjs) serves this folder at /test-hooks/, and
// the page loads it only when a test installs `installTestHooks` (which swaps
// the page's worker.js for this module). A Run whose preset the hook marked
// ("test-panic:MESSAGE") panics inside the wasm module with MESSAGE, through
// the export `debug_panic` that only a build with the cargo feature
// `test-hooks` has (`make build-e2e`).
import * as wasm from '../pkg/dp_explorer.js';
import '../worker.js';

const PANIC = 'test-panic:';

for (const name of ['shard', 'user_split']) {
  const start = wasm.Runner[name];
  wasm.Runner[name] = (preset, ...rest) => {
    if (!String(preset).startsWith(PANIC)) return start.call(wasm.Runner, preset, ...rest);
    if (typeof wasm.debug_panic !== 'function') {
      throw new Error('www/pkg/ was built without the cargo feature test-hooks: run `make build-e2e`');
    }
    return wasm.debug_panic(preset.slice(PANIC.length));
  };
}
