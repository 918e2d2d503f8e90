// Runs the shared benchmarks in headless chromium (www/bench.html) and prints
// one JSON object per line: {"bench", "wasm_s", "wasm_peak_mb", "result"}.
import { serve, launch } from '../tests/e2e/browser.mjs';

const only = process.argv.slice(2);
const server = await serve();
const browser = await launch();
try {
  const page = await browser.newPage();
  await page.goto(`${server.url}bench.html`);
  const results = await page.evaluate((o) => window.runBenchmarks(o.length ? o : undefined), only);
  for (const r of results) {
    if (r.error) {
      console.log(JSON.stringify({ bench: r.name, error: r.error }));
    } else {
      console.log(JSON.stringify({ bench: r.name, wasm_s: r.seconds, wasm_peak_mb: r.memory_bytes / 2 ** 20, result: r.result }));
    }
  }
} finally {
  await browser.close();
  await server.close();
}
