// The workers' warm-up at page load (www/worker.js `warm`): a thrown-away run of the shown
// settings' share in short slices, so that the first Run finds the module's hot code tiered up.
// It must never hold a Run back: a run posted meanwhile ends it after the slice in progress; it
// is bounded (its budget, or the share's end); it does not start once a run has come.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { servedBrowser, waitStatus } from './browser.mjs';

const env = servedBrowser();

// A share far longer than any test (a Private FedRep run at n = 10^6: ~20 s in one worker;
// one step, a chunk of users, ~0.1 s), and a quick one (~0.15 s).
const LONG = { preset: 'fedrep-paper', fields: { n: '1000000', epsilons: '1', altmin: 'off' }, shard: 0, shards: 1 };
const QUICK = { preset: 'fedrep-paper', fields: { n: '2000', epsilons: '1' }, shard: 0, shards: 1 };

/** In a page of the site: a module worker of www/worker.js, with `next(type)`, the next
 * message of that type and the page time it arrived (`at`). */
function workerInPage() {
  const w = new Worker(new URL('./worker.js', window.location.href), { type: 'module' });
  const seen = [];
  const waiting = [];
  w.onmessage = (e) => {
    const m = { ...e.data, at: performance.now() };
    const i = waiting.findIndex((x) => x.type === m.type);
    if (i >= 0) waiting.splice(i, 1)[0].ok(m);
    else seen.push(m);
  };
  window.warmTest = {
    w,
    next: (type, ms = 60_000) => new Promise((ok, fail) => {
      const i = seen.findIndex((m) => m.type === type);
      if (i >= 0) { ok(seen.splice(i, 1)[0]); return; }
      waiting.push({ type, ok });
      setTimeout(() => fail(new Error(`no '${type}' message within ${ms} ms`)), ms);
    }),
    seen: () => seen.map((m) => m.type),
  };
}

async function sitePage() {
  const page = await env.browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${env.server.url}bench.html`);
  await page.evaluate(workerInPage);
  return { page, errors };
}

test('a run posted during the warm-up ends it after the slice in progress and runs', async () => {
  const { page, errors } = await sitePage();
  const r = await page.evaluate(async ({ long, quick }) => {
    const { w, next } = window.warmTest;
    w.postMessage({ type: 'warm', ...long, budget: 600_000 });
    // The module loads and the warm-up runs a while.
    await new Promise((ok) => { setTimeout(ok, 2000); });
    const warmedEarly = window.warmTest.seen().includes('warmed');
    const posted = performance.now();
    w.postMessage({ type: 'run', generation: 1, ...quick });
    const warmed = await next('warmed');
    const result = await next('result', 120_000);
    return { warmedEarly, warmed: { ...warmed, after: warmed.at - posted }, resultAfter: result.at - posted };
  }, { long: LONG, quick: QUICK });
  assert.equal(r.warmedEarly, false, 'the warm-up of a 20 s share with a 600 s budget had ended before the run');
  assert.equal(r.warmed.ended, 'message');
  assert.ok(r.warmed.slices >= 3, `the warm-up had run ${r.warmed.slices} slices in 2 s`);
  // One slice: 10 ms and the step in progress (~0.1 s here); generous for a loaded machine, and
  // far from the warm-up's 600 s budget and its share's ~20 s.
  assert.ok(r.warmed.after < 1500, `the warm-up ended ${r.warmed.after.toFixed(0)} ms after the run was posted`);
  assert.ok(r.resultAfter < 30_000, `the run's result came ${r.resultAfter.toFixed(0)} ms after it was posted`);
  console.log(`# the warm-up ended ${r.warmed.after.toFixed(0)} ms after the run was posted (${r.warmed.slices} slices); the run's result after ${r.resultAfter.toFixed(0)} ms`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the warm-up ends at its budget or at the end of its share, and not after a run', async () => {
  const { page, errors } = await sitePage();
  const r = await page.evaluate(async ({ long, quick }) => {
    const { w, next } = window.warmTest;
    w.postMessage({ type: 'warm', ...long, budget: 300 });
    const budget = await next('warmed');
    w.postMessage({ type: 'warm', ...quick, budget: 600_000 });
    const done = await next('warmed');
    // A run came: a warm-up posted after it does nothing.
    w.postMessage({ type: 'run', generation: 1, ...quick });
    await next('result');
    w.postMessage({ type: 'warm', ...quick, budget: 600_000 });
    const late = await next('warmed', 1500).catch(() => null);
    return { budget, done, late };
  }, { long: LONG, quick: QUICK });
  assert.equal(r.budget.ended, 'budget');
  assert.ok(r.budget.ms >= 300 && r.budget.ms < 1500, `a 300 ms budget ended after ${r.budget.ms.toFixed(0)} ms`);
  assert.equal(r.done.ended, 'done');
  assert.ok(r.done.ms < 30_000);
  assert.equal(r.late, null, 'a warm-up started after a run');
  assert.deepEqual(errors, []);
  await page.close();
});

test('at load the page warms each worker on its share of the shown settings', async () => {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(env.server.url);
  await waitStatus(page, ['idle']);
  const workers = await page.evaluate(() => Math.max(1, navigator.hardwareConcurrency || 2));
  // The page warms only for a short run (main.js with edits.js's AUTO_RUN_SECONDS: estimated within AUTO_RUN_SECONDS, 3 s).
  const estimate = Number(await page.getAttribute('#estimate', 'data-seconds'));
  assert.ok(estimate > 0 && estimate <= 3, `the default preset is estimated at ${estimate} s here`);
  await page.waitForFunction((n) => performance.getEntriesByType('mark')
    .filter((m) => /^dp-worker-\d+-warmed$/.test(m.name)).length === n, workers, { timeout: 30_000 });
  const ends = await page.evaluate(() => performance.getEntriesByType('mark')
    .filter((m) => m.name.endsWith('-warmed')).map((m) => m.detail));
  for (const e of ends) {
    assert.ok(e.ended === 'done' || e.ended === 'budget', `a worker's warm-up ended: ${e.ended}`);
    assert.ok(e.slices >= 1);
  }
  await page.close();
});
