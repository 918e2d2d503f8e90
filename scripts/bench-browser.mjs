// Runs the shared benchmarks in headless chromium and prints one JSON object
// per line:
//   {"bench", "wasm_s", "wasm_peak_mb", "result"}  one wasm worker (www/bench.html),
//   {"bench", "page_s", "longest_task_ms", "workers", "split"}  the real page: Run → done,
//      with its pool of workers (Run pressed 0.3 s after the page says idle, timed inside the
//      page with nothing polling it), and the longest main-thread task during the run
//      (PerformanceObserver "longtask"; the page stays responsive if < 100 ms),
//   {"bench": "fedrep-default-latency", "first_point_s", "done_s", "slider_s", "runs"}  the felt
//      latency of the default preset (scripts/bench-latency.mjs; medians of 5 fresh pages):
//      Run → first point, Run → done, an ε slider release → the redrawn curve.
import { serve, launch, waitStatus } from '../tests/e2e/browser.mjs';
import { measureLatency, timeInPage } from './bench-latency.mjs';

const only = process.argv.slice(2);
const PAGE_RUNS = [
  ['fedrep-default-sweep', ''],
  ['dpgd-browser-sweep', '?preset=dpgd-browser'],
  ['private-fedrep-run-1m', '?preset=fedrep-paper&n=1000000&epsilons=1&altmin=off'],
  // Page only (no wasm benchmark of that name): the whole paper-size DP-GD
  // preset, run only when asked for by name.
  ['dpgd-paper-preset', '?preset=dpgd-paper'],
];
const ON_REQUEST = ['dpgd-paper-preset'];
/** After the page says idle, before Run (ms), as scripts/bench-latency.mjs waits. */
const SETTLE_MS = 300;

const server = await serve();
const browser = await launch();
try {
  const page = await browser.newPage();
  await page.goto(`${server.url}bench.html`);
  const results = only.length && only.every((o) => ON_REQUEST.includes(o) || o === 'fedrep-default-latency')
    ? []
    : await page.evaluate((o) => window.runBenchmarks(o.length ? o : undefined), only);
  for (const r of results) {
    if (r.error) {
      console.log(JSON.stringify({ bench: r.name, error: r.error }));
    } else {
      console.log(JSON.stringify({ bench: r.name, wasm_s: r.seconds, wasm_peak_mb: r.memory_bytes / 2 ** 20, result: r.result }));
    }
  }
  for (const [name, query] of PAGE_RUNS) {
    if (only.length ? !only.includes(name) : ON_REQUEST.includes(name)) continue;
    const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await p.addInitScript(() => {
      window.longestTask = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.longestTask = Math.max(window.longestTask, e.duration);
      }).observe({ type: 'longtask', buffered: false });
    });
    await p.goto(`${server.url}${query}`);
    await waitStatus(p, ['idle']);
    // As the latency benchmark: the workers started at load have compiled the module.
    await p.waitForTimeout(SETTLE_MS);
    const workers = await p.evaluate(() => Math.max(1, navigator.hardwareConcurrency || 2));
    await p.evaluate(() => { window.longestTask = 0; });
    // Timed in the page, with nothing polling it meanwhile (scripts/bench-latency.mjs timeInPage).
    const run = await p.evaluate(timeInPage, { timeoutS: 1800 });
    if (run.status !== 'done') {
      console.log(JSON.stringify({ bench: name, error: `${run.status}: ${run.error}` }));
      await p.close();
      continue;
    }
    const seconds = Math.round(run.done * 1000) / 1000;
    const longest = await p.evaluate(() => window.longestTask);
    // How the pool split the sweep: "runs:2" (whole runs per worker) or "users:2" (every run's users shared).
    const split = await p.evaluate(() => document.body.dataset.pool);
    console.log(JSON.stringify({ bench: name, page_s: seconds, longest_task_ms: longest, workers, split }));
    await p.close();
  }
} finally {
  await browser.close();
  await server.close();
}
if (!only.length || only.includes('fedrep-default-latency')) {
  const [r] = await measureLatency([undefined], 5);
  console.log(JSON.stringify({
    bench: 'fedrep-default-latency', first_point_s: r.first_point_median_s, done_s: r.done_median_s, slider_s: r.slider_median_s, runs: 5,
  }));
}
