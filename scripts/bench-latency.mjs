// The felt latency of the default preset in the page (issue 29), measured in
// headless chromium and printed as one JSON object per line:
//   {"site", "first_point_s": [...], "done_s": [...], "slider_s": [...], medians}
// - first point: Run pressed → the first result row of the run on screen (a chart's table
//   fills with its points in the same render);
// - done: Run pressed → status "done" (the page sets it once the final charts are drawn);
// - slider: the ε slider released on a value not in the list (it is appended) → status "done"
//   again after the re-run it starts (the redrawn curve).
// Each sample is a fresh page (its workers started at load). Several sites (`--site DIR`, each
// a built www/ directory; default www/) are measured interleaved, run by run, so that the load
// of a shared machine falls on each alike. Usage:
//   node scripts/bench-latency.mjs [--runs 5] [--site DIR]...
import { serve, launch, waitStatus } from '../tests/e2e/browser.mjs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The slider position of ε on its log scale (0.1 … 100 over 0 … 1000). */
const positionOf = (v) => Math.round((Math.log(v / 0.1) / Math.log(1000)) * 1000);

/** In the page: presses Run (or releases the slider at `position`) and resolves to the
 * seconds to the first result row of the run and to status "done". Measured inside the page by
 * a MutationObserver, so nothing polls the page while it runs (a driver's per-frame polling
 * costs the main thread a frame's commit 60 times a second, CPU the workers would have had).
 * A run estimated to be long asks for a second press of Run: it is pressed again. `timeoutS`:
 * how long to wait for "done". */
export function timeInPage({ position = null, timeoutS = 60 } = {}) {
  return new Promise((ok) => {
    const rows = () => document.querySelectorAll('#charts table tbody tr').length;
    const before = rows();
    let first = null;
    let sawRunning = false;
    const t0 = performance.now();
    let confirmed = false;
    const check = () => {
      const status = document.body.dataset.status;
      if (status === 'running') sawRunning = true;
      if (!sawRunning && !confirmed && /Press Run again/.test(document.getElementById('status').textContent)) {
        confirmed = true;
        document.getElementById('run').click();
      }
      if (first === null && position === null && rows() > before) first = (performance.now() - t0) / 1000;
      if (sawRunning && (status === 'done' || status === 'error')) {
        observer.disconnect();
        ok({ first, done: (performance.now() - t0) / 1000, status, error: document.getElementById('error').textContent });
      }
    };
    const observer = new MutationObserver(check);
    // A run that never starts (e.g. a slider re-run estimated over the page's auto-run limit on a loaded
    // machine) or never ends is reported with what the status line says, not waited for forever.
    setTimeout(() => {
      observer.disconnect();
      const said = document.getElementById('status').textContent;
      ok({ first, done: NaN, status: `not done after ${timeoutS} s (${sawRunning ? 'running' : 'never started'})`, error: said });
    }, timeoutS * 1000);
    observer.observe(document.body, { attributes: true, childList: true, subtree: true });
    if (position === null) {
      document.getElementById('run').click();
    } else {
      const range = document.getElementById('epsilons-slider');
      range.value = String(position);
      range.dispatchEvent(new Event('input', { bubbles: true }));
      range.dispatchEvent(new Event('change', { bubbles: true }));
    }
    check();
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Measures `runs` samples of each site (served roots; undefined: www/) interleaved and returns one
 * result per site: `{ site, first_point_median_s, done_median_s, slider_median_s, …_s: samples }`.
 * `log(phases)`: each first run's phases from the page's marks, if given.
 */
export async function measureLatency(sites, runs, { log = null, settleMs = 300 } = {}) {
  const servers = await Promise.all(sites.map((root) => serve(root)));
  const browser = await launch();
  const results = sites.map(() => ({ first: [], done: [], slider: [] }));
  try {
    for (let r = 0; r < runs; r += 1) {
      for (let s = 0; s < sites.length; s += 1) {
        const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
        await page.goto(servers[s].url);
        await waitStatus(page, ['idle']);
        await page.waitForTimeout(settleMs); // the workers started at load have compiled the module
        const run = await page.evaluate(timeInPage, {});
        if (run.status !== 'done') throw new Error(`run ended ${run.status}: ${run.error}`);
        // The phases of the first run, from the page's marks (run.js, results-view.js, run-reports.js, pool.js), relative to Run.
        const phases = await page.evaluate(() => {
          const marks = performance.getEntriesByType('mark');
          const start = marks.find((m) => m.name === 'dp-run');
          if (!start) return null;
          const out = {};
          for (const m of marks) if (m.startTime >= start.startTime && !(m.name in out)) out[m.name] = Math.round(m.startTime - start.startTime);
          return out;
        });
        if (phases && log) log({ site: sites[s] || 'www', sample: r, phases_ms: phases });
        const slide = await page.evaluate(timeInPage, { position: positionOf(SLIDER[r % SLIDER.length]) });
        if (slide.status !== 'done') throw new Error(`slider re-run ended ${slide.status}: ${slide.error}`);
        results[s].first.push(run.first);
        results[s].done.push(run.done);
        results[s].slider.push(slide.done);
        await page.close();
      }
    }
  } finally {
    await browser.close();
    await Promise.all(servers.map((x) => x.close()));
  }
  const round = (x) => Math.round(x * 1000) / 1000;
  return sites.map((site, s) => {
    const r = results[s];
    return {
      site: site || 'www',
      first_point_median_s: round(median(r.first)),
      done_median_s: round(median(r.done)),
      slider_median_s: round(median(r.slider)),
      first_point_s: r.first.map(round),
      done_s: r.done.map(round),
      slider_s: r.slider.map(round),
    };
  });
}

// Slider values not in the default list (1, 2, 4, 6, 8), one per sample.
const SLIDER = [3, 5, 1.5, 12, 0.5, 2.5, 7, 10, 3.5, 0.7];

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  let runs = 5;
  const sites = [];
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '--runs') runs = Number(args[(i += 1)]);
    else if (args[i] === '--site') sites.push(resolve(args[(i += 1)]));
    else throw new Error(`unknown argument ${args[i]}`);
  }
  if (!sites.length) sites.push(undefined);
  const out = await measureLatency(sites, runs, {
    log: process.env.PHASES ? (p) => console.error(JSON.stringify(p)) : null,
    settleMs: Number(process.env.SETTLE_MS || 300),
  });
  for (const r of out) console.log(JSON.stringify(r));
}
