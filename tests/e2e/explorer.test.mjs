// The page as an explorer in class: results in view after Run at a laptop, a
// projector and a phone size; the ε slider redraws the risk chart without
// pressing Run (the median time is printed); stale results are marked;
// exports carry the config they came from; labels say the ε spent; the URL
// keeps edits across a reload; Escape stops; focus stays on a control; and
// axe-core finds no accessibility violation in any state visited.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { accessible, closeClean, closeErrorFree, openPage, waitStatus, servedBrowser, runToDone, fillField } from './browser.mjs';

const env = servedBrowser();

const open = (query = '', viewport = { width: 1366, height: 650 }, { autoRun = true } = {}) => openPage(env, query, { viewport, autoRun });

/** The element's box lies inside the viewport (no scrolling needed). */
async function inView(page, selector) {
  return page.evaluate((sel) => {
    const r = document.querySelector(sel).getBoundingClientRect();
    // Within a pixel: layout positions are fractional.
    return r.top >= -1 && r.left >= -1 && r.bottom <= window.innerHeight + 1 && r.right <= window.innerWidth + 1 && r.height > 0;
  }, selector);
}

for (const [name, viewport, query] of [
  ['a laptop (1366×650)', { width: 1366, height: 650 }, ''],
  ['a projector with large text (1920×1080)', { width: 1920, height: 1080 }, '?large=1'],
  ['a phone (390×844)', { width: 390, height: 844 }, ''],
]) {
  test(`on ${name}, the progress and the first chart are in view after Run`, async () => {
    const { page, errors } = await open(query, viewport);
    await accessible(page, `${name}, ready`);
    await page.click('#run');
    assert.equal(await waitStatus(page, ['done', 'error'], 60_000), 'done');
    assert.ok(await inView(page, '#progress'), 'the progress bar is in view');
    assert.ok(await inView(page, '#risk-chart'), 'the first chart is in view');
    await closeClean(page, errors, `${name}, done`);
  });
}

test('the ε slider adds a value to the list and redraws the risk chart without pressing Run', async () => {
  const { page, errors } = await open('?preset=fedrep-paper&altmin=off', { width: 1366, height: 900 });
  await runToDone(page);
  const base = (await page.inputValue('#epsilons')).split(',').map(Number);
  const times = [];
  // Positions between the list's values: each is added to the list (the one added before leaves it).
  for (const position of ['200', '470', '700', '300', '565']) {
    const before = await page.textContent('#risk-table');
    const t0 = Date.now();
    await page.evaluate((v) => {
      const range = document.getElementById('epsilons-slider');
      range.value = v;
      range.dispatchEvent(new Event('input', { bubbles: true }));
      range.dispatchEvent(new Event('change', { bubbles: true }));
    }, position);
    // Re-ran by itself: a new table and the charts drawn ("done" comes after the last chart).
    await page.waitForFunction((old) => document.body.dataset.status === 'done'
      && document.getElementById('risk-table').textContent !== old, before, { timeout: 30_000 });
    times.push((Date.now() - t0) / 1000);
    const list = (await page.inputValue('#epsilons')).split(',').map(Number);
    const added = list.filter((e) => !base.includes(e));
    assert.equal(added.length, 1, `one value added to ${base}: ${list}`);
    assert.ok(base.every((e) => list.includes(e)), 'the list keeps every value');
    const eps = added[0];
    assert.ok(eps >= 0.1 && eps <= 100, `ε = ${eps}`);
    assert.match(await page.textContent('#risk-table'), new RegExp(`Private FedRep${eps}`.replace('.', '\\.')));
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(`# ε slider: change → redrawn curve, median ${median.toFixed(2)} s over ${times.length} changes (${times.map((t) => t.toFixed(2)).join(', ')})`);
  assert.ok(median <= 5, `median ${median} s`);
  await closeErrorFree(page, errors);
});

test('an edit marks the results out of date, and exports carry the config of the run shown', async () => {
  const { page, errors } = await open('?preset=fedrep-paper&n=3000&epsilons=1,4', { width: 1366, height: 900 }, { autoRun: false });
  await runToDone(page);
  assert.equal(await page.evaluate(() => document.getElementById('results').classList.contains('stale')), false);
  await fillField(page, 'n', '5000');
  await page.waitForFunction(() => document.getElementById('results').classList.contains('stale'));
  assert.match(await page.textContent('#status'), /Settings changed/);
  await accessible(page, 'stale results');
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
  const config = JSON.parse(await readFile(await dl.path(), 'utf8'));
  assert.equal(config.n, '3000', 'the config of the run shown, not of the edited form');
  assert.equal(config.preset, 'fedrep-paper');
  await page.click('#pin-run');
  assert.match(await page.textContent('#pin-note'), /n = 3000/);
  await closeErrorFree(page, errors);
});

test('labels show the ε spent where it differs from the target', async () => {
  const { page, errors } = await open('?preset=fedrep-authors-code&n=3000&epsilons=1,8', { width: 1366, height: 900 });
  await runToDone(page);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#risk-chart-svg')]);
  const svg = await readFile(await dl.path(), 'utf8');
  assert.match(svg, /Private FedRep \(spends ε = [\d.]+–[\d.]+\)/);
  assert.match(await page.textContent('#risk-chart-readout, #risk-table'), /.+/);
  await closeErrorFree(page, errors);
});

test('the URL keeps an edit and the large text across a reload; Escape stops a run; focus stays on a control', async () => {
  const { page, errors } = await open('?preset=fedrep-paper', { width: 1366, height: 900 }, { autoRun: false });
  await fillField(page, 'n', '3000');
  await page.check('#large-text');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('n') === '3000');
  await page.reload();
  await waitStatus(page, ['idle']);
  assert.equal(await page.inputValue('#n'), '3000');
  assert.ok(await page.isChecked('#large-text'));
  await accessible(page, 'large text');

  await fillField(page, 'rounds', '1000');
  await page.focus('#run');
  await page.keyboard.press('Enter');
  await waitStatus(page, ['running']);
  const focused = await page.evaluate(() => document.activeElement && document.activeElement.id);
  assert.equal(focused, 'stop', 'focus moved to Stop when Run disabled itself');
  await accessible(page, 'running');
  await page.keyboard.press('Escape');
  assert.equal(await waitStatus(page, ['idle'], 10_000), 'idle');
  assert.match(await page.textContent('#status'), /Stopped/);
  assert.equal(await page.evaluate(() => document.activeElement && document.activeElement.id), 'run');
  await closeErrorFree(page, errors);
});

test('a lesson step sets the controls, and the presenter view keeps the charts', async () => {
  const { page, errors } = await open('?preset=fedrep-paper', { width: 1366, height: 900 });
  await page.click('#lesson summary');
  await page.click('#lesson-next');
  await page.click('#lesson-next');
  assert.match(await page.textContent('#lesson-step-title'), /More users/);
  await page.click('#lesson-apply');
  assert.equal(await page.inputValue('#n'), '4000');
  // The step also turns Priv-AltMin off, a setting folded under "More settings": it is opened, so the
  // reader sees what the step set.
  assert.equal(await page.evaluate(() => document.getElementById('more-settings').open), true);
  assert.equal(await page.isVisible('#altmin'), true);
  assert.equal(await waitStatus(page, ['done', 'error'], 60_000), 'done');
  // The step's claims are marked on this run: both hold at n = 4000, each with its numbers.
  const marks = page.locator('#lesson-claims li');
  assert.equal(await marks.count(), 2);
  for (let i = 0; i < 2; i++) {
    assert.equal(await marks.nth(i).getAttribute('data-status'), 'held');
    assert.match(await marks.nth(i).textContent(), /Holds in this run: .*\(.*ε = 8/);
  }
  // Set n back to 20000: the n = 4000 claim is off its scope (not decided, never ✗), and the page says why.
  await page.uncheck('#auto-run');
  await fillField(page, 'n', '20000');
  await page.click('#run');
  assert.equal(await waitStatus(page, ['done', 'error'], 60_000), 'done');
  const far = page.locator('#lesson-claims li[data-claim="fedrep-far-at-every-eps"]');
  assert.equal(await far.getAttribute('data-status'), 'undecided');
  assert.match(await far.textContent(), /not this run's setting: stated for n ≤ 5000 users \(here n = 20000\)/);
  // The next step states the after-state as its own claim, and it holds here.
  await page.click('#lesson-next');
  assert.match(await page.textContent('#lesson-step-title'), /Back to 20000 users/);
  await page.click('#lesson-apply');
  assert.equal(await page.inputValue('#n'), '20000');
  await page.click('#run');
  assert.equal(await waitStatus(page, ['done', 'error'], 60_000), 'done');
  const close = page.locator('#lesson-claims li[data-claim="fedrep-close-with-many-users"]');
  assert.equal(await close.getAttribute('data-status'), 'held');
  assert.match(await close.textContent(), /Holds in this run/);
  await accessible(page, 'lesson');
  await page.check('#present');
  assert.ok(!(await page.isVisible('#n')), 'presenter view hides the settings');
  assert.ok(await page.isVisible('#run') && await page.isVisible('#risk-chart'));
  assert.match(page.url(), /present=1/);
  await closeErrorFree(page, errors);
});

test('the DP-GD scenario is accessible when done, with its explain-ε entries open', async () => {
  const { page, errors } = await open('?preset=dpgd-quick', { width: 1366, height: 900 });
  await page.click('#run');
  assert.equal(await waitStatus(page, ['done', 'error'], 60_000), 'done');
  await closeClean(page, errors, 'DP-GD done');
});
