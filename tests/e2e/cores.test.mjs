// The page uses the cores it finds (issue 44, item 3): on a machine that reports 8 cores (faked before
// the page loads) its pool runs the default preset on 8 workers, the estimate says so, and the results
// are those of one worker, byte for byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openPage, runToDone, servedBrowser } from './browser.mjs';

const env = servedBrowser();

/** Before the page's scripts: a machine of `cores` cores and 8 GB (the most Chromium reports). */
function fakeMachine(cores) {
  return `Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => ${cores} });
    Object.defineProperty(Navigator.prototype, 'deviceMemory', { get: () => 8 });`;
}

test('on an 8-core machine the default preset runs on 8 workers, with one worker\'s results', async () => {
  const { page, errors } = await openPage(env, '', { init: fakeMachine(8) });
  assert.equal(await page.evaluate(() => navigator.hardwareConcurrency), 8);
  assert.match(await page.textContent('#estimate'), /on 8 workers\./);
  await runToDone(page, 120_000);
  assert.match(await page.evaluate(() => document.body.dataset.pool), /^(runs|users):8$/);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  const pooled = readFileSync(await download.path(), 'utf8');
  // The same settings in one wasm Runner (no pool), in the page.
  const single = await page.evaluate(async () => {
    const m = await import('./pkg/dp_explorer.js');
    await m.default();
    const preset = m.default_preset();
    const fields = Object.fromEntries(m.preset_fields(preset));
    const runner = new m.Runner(preset, fields);
    runner.run_to_end();
    return runner.csv();
  });
  assert.ok(single.trim().split('\n').length > 2, single);
  assert.equal(pooled.trim(), single.trim());
  assert.deepEqual(errors, []);
  await page.close();
});

test('a machine of one core runs the default preset on one worker', async () => {
  const { page, errors } = await openPage(env, '', { init: fakeMachine(1) });
  assert.match(await page.textContent('#estimate'), /on 1 worker\./);
  await runToDone(page, 120_000);
  assert.equal(await page.evaluate(() => document.body.dataset.pool), 'runs:1');
  assert.deepEqual(errors, []);
  await page.close();
});
