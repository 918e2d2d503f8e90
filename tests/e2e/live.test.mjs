// The page while it works (issue 30): a run does not move the page (summed layout shift over one
// default run at a laptop and a phone size, and none when ?large=1 / ?present=1 load); the ε slider
// selects an ε along the whole curve (snaps to the list, or adds its value to it), marks it on the
// risk chart with the values at it, and stays in presenter view; a re-run keeps the curves (never a
// blank chart); an edit during a long run marks the results out of date at once, and a run that
// finishes after an edit does not say plain "Done"; messages name the field's label; on a phone the
// slider does not scroll the page away. axe-core finds no violation in the states visited.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accessible, closeClean, closeErrorFree, openPage, waitStatus, inkFraction, servedBrowser, fillField, startLongRun } from './browser.mjs';

const env = servedBrowser();

/** A page in a context of its own (axe asks for it), recording every layout shift from the start. */
function open(query = '', viewport = { width: 1366, height: 768 }, { wait = true, deviceScaleFactor = 1, autoRun = true } = {}) {
  return openPage(env, query, { viewport, deviceScaleFactor, states: wait ? ['idle', 'error'] : null, init: recordShifts, autoRun });
}

function recordShifts() {
  window.shifts = [];
  new PerformanceObserver((list) => {
    // Every shift, with or without recent input: the runs below are started without input.
    for (const e of list.getEntries()) {
      window.shifts.push({ value: e.value, sources: e.sources.map((s) => (s.node && (s.node.id || s.node.className || s.node.nodeName)) || '?') });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

async function shiftSince(page, since) {
  return page.evaluate((i) => {
    const s = window.shifts.slice(i);
    return { sum: s.reduce((a, b) => a + b.value, 0), sources: s.map((x) => `${x.value.toFixed(3)}: ${x.sources.join(', ')}`) };
  }, since);
}

/** Moves the ε slider to `position` (0–1000) as a drag does: input events, then change on release. */
async function slide(page, position, release = true) {
  await page.evaluate(([v, up]) => {
    const range = document.getElementById('epsilons-slider');
    range.value = String(v);
    range.dispatchEvent(new Event('input', { bubbles: true }));
    if (up) range.dispatchEvent(new Event('change', { bubbles: true }));
  }, [position, release]);
}

/** The slider position of a value on its log scale (the fedrep field: 0.1 … 100). */
const positionOf = (v) => Math.round((Math.log(v / 0.1) / Math.log(1000)) * 1000);

/** The risk table's Private FedRep rows: { ε: the row's text }. */
const privateRows = (page) => page.$$eval('#risk-table tbody tr', (rs) => Object.fromEntries(rs
  .map((r) => [...r.children].map((c) => c.textContent))
  .filter((r) => r[0] === 'Private FedRep')
  .map((r) => [Number(r[1]), r.join('|')])));

for (const [name, viewport] of [['1366×768', { width: 1366, height: 768 }], ['390×844', { width: 390, height: 844 }]]) {
  test(`one default run at ${name} moves nothing: summed layout shift ≤ 0.05`, async () => {
    const { page, errors } = await open('', viewport);
    await page.waitForTimeout(200);
    const since = await page.evaluate(() => window.shifts.length);
    // Run pressed without input (a click would exempt the next 0.5 s from the count).
    await page.evaluate(() => document.getElementById('run').click());
    assert.equal(await waitStatus(page, ['done', 'error'], 120_000), 'done', await page.textContent('#error'));
    await page.waitForTimeout(300);
    const { sum, sources } = await shiftSince(page, since);
    console.log(`# layout shift over one default run at ${name}: ${sum.toFixed(4)} (${sources.length} shifts)`);
    assert.ok(sum <= 0.05, `summed layout shift ${sum}: ${sources.join(' | ')}`);
    // The status line sits beside (or, on a phone, under) the bar in a box of its own: one row.
    const [bar, status] = await Promise.all(['#progress', '#status'].map((s) => page.$eval(s, (e) => e.getBoundingClientRect().toJSON())));
    if (viewport.width > 640) assert.ok(status.left >= bar.right - 1 && status.top < bar.bottom, 'the status is beside the bar');
    await closeErrorFree(page, errors);
  });
}

for (const query of ['?large=1', '?large=1&present=1']) {
  test(`${query} is laid out in its mode before the module loads: no reflow after`, async () => {
    const context = await env.browser.newContext({ viewport: { width: 1920, height: 1080 } });
    const page = await context.newPage();
    // The module 1.5 s late: the page has painted from the description first.
    await page.route('**/*.wasm', async (route) => { await new Promise((ok) => setTimeout(ok, 1500)); return route.continue(); });
    await page.addInitScript(() => {
      window.shifts = [];
      new PerformanceObserver((list) => { for (const e of list.getEntries()) window.shifts.push(e.value); })
        .observe({ type: 'layout-shift', buffered: true });
      document.addEventListener('DOMContentLoaded', () => { window.earlyClasses = document.body.className; });
    });
    await page.goto(`${env.server.url}${query}`);
    await waitStatus(page, ['idle'], 30_000);
    await page.waitForTimeout(300);
    const classes = await page.evaluate(() => window.earlyClasses);
    assert.match(classes, /\blarge\b/, 'large text applied before the modules ran');
    if (query.includes('present')) assert.match(classes, /\bpresent\b/);
    const cls = await page.evaluate(() => window.shifts.reduce((a, b) => a + b, 0));
    assert.ok(cls <= 0.05, `layout shift while loading ${query}: ${cls}`);
    await context.close();
  });
}

test('the ε slider selects along the curve: it snaps to the list, adds a value without replacing the list, and the chart keeps its curves', async () => {
  const { page, errors } = await open('?preset=fedrep-paper&n=3000&altmin=off', { width: 1366, height: 900 });
  await page.evaluate(() => document.getElementById('run').click());
  await waitStatus(page, ['done'], 60_000);
  const list = await page.inputValue('#epsilons');
  const rows = await privateRows(page);
  assert.deepEqual(Object.keys(rows).map(Number), [1, 2, 4, 6, 8]);
  const inkBefore = await inkFraction(page, 'risk-chart');

  // Near a value of the list: it is selected, nothing re-runs, the list stays.
  await slide(page, positionOf(4) + 10);
  await page.waitForFunction(() => /At ε = 4\b/.test(document.getElementById('epsilons-readout').textContent));
  assert.equal(await page.inputValue('#epsilons'), list);
  await page.waitForTimeout(500); // past the 250 ms after which an edit re-runs
  assert.equal(await page.evaluate(() => document.body.dataset.status), 'done', 'selecting a value of the list runs nothing');
  assert.match(await page.textContent('#epsilons-readout'), /Private FedRep [\d.e-]+/);
  assert.match(await page.textContent('#epsilons-selected'), /selected: 4$/);
  // The marker is drawn: the canvas has more ink than without it.
  assert.ok(await inkFraction(page, 'risk-chart') > inkBefore, 'the selected ε is marked on the chart');
  await accessible(page, 'an ε selected');
  // The keyboard walks along the curve: the arrows go to the list's next and previous values.
  await page.focus('#epsilons-slider');
  await page.keyboard.press('ArrowRight');
  assert.match(await page.textContent('#epsilons-selected'), /selected: 6$/);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.match(await page.textContent('#epsilons-selected'), /selected: 2$/);
  assert.equal(await page.inputValue('#epsilons'), list, 'stepping along the list adds nothing');
  assert.equal(await page.evaluate(() => document.body.dataset.status), 'done');

  // Between two values (ε ≈ 3): while dragging it is not in the list; released, it is added and re-run.
  await slide(page, positionOf(3), false);
  assert.match(await page.textContent('#epsilons-selected'), /not in the list/);
  assert.equal(await page.inputValue('#epsilons'), list, 'dragging does not edit the list');
  await slide(page, positionOf(3));
  assert.equal(await page.inputValue('#epsilons'), '1,2,4,6,8,3', 'the value joins the list (at its end); no value is lost');
  // It re-runs at once, and only the new ε's run: the 7 others (FedRep, local GD, Private FedRep at
  // the 5 ε of the list) are kept from the run before (the result cache), so it may be done at once.
  await page.waitForFunction(() => document.body.dataset.kept === '7', null, { timeout: 10_000 });
  // While it re-runs the chart keeps its curves (the previous run's, faded, until the new points arrive).
  let minInk = Infinity;
  while (await page.evaluate(() => document.body.dataset.status) === 'running') {
    minInk = Math.min(minInk, await inkFraction(page, 'risk-chart'));
    await page.waitForTimeout(60);
  }
  assert.equal(await waitStatus(page, ['done'], 60_000), 'done');
  assert.ok(minInk > 0.5 * inkBefore, `the chart was never blank during the re-run (ink ${minInk} vs ${inkBefore})`);
  const after = await privateRows(page);
  assert.deepEqual(Object.keys(after).map(Number).sort((a, b) => a - b), [1, 2, 3, 4, 6, 8], 'every ε of the list has its point');
  // The points already there keep their numbers (each run's noise follows its place in the list).
  for (const eps of [1, 2, 4, 6, 8]) assert.equal(after[eps], rows[eps], `ε = ${eps}`);
  assert.match(await page.textContent('#epsilons-readout'), /At ε = 3, .*Private FedRep [\d.e-]+/);

  // A second value between two others replaces the one the slider added (the list does not grow without end).
  await slide(page, positionOf(5));
  assert.equal(await page.inputValue('#epsilons'), '1,2,4,6,8,5');
  await page.waitForFunction(() => document.body.dataset.status === 'done'
    && [...document.querySelectorAll('#risk-table tbody tr')].some((r) => r.children[0].textContent === 'Private FedRep' && Number(r.children[1].textContent) === 5),
  null, { timeout: 60_000 });
  const moved = await privateRows(page);
  assert.deepEqual(Object.keys(moved).map(Number).sort((a, b) => a - b), [1, 2, 4, 5, 6, 8], 'ε = 3 made way for 5');
  for (const eps of [1, 2, 4, 6, 8]) assert.equal(moved[eps], rows[eps], `ε = ${eps} after the second move`);
  await closeErrorFree(page, errors);
});

test('presenter view keeps the ε slider and its readout', async () => {
  const { page, errors } = await open('?present=1', { width: 1920, height: 1080 });
  assert.ok(await page.isVisible('#epsilons-slider'), 'the slider is visible in presenter view');
  assert.ok(await page.isVisible('#epsilons-readout'));
  assert.ok(!(await page.isVisible('#n')), 'the other settings stay hidden');
  await page.evaluate(() => document.getElementById('run').click());
  await waitStatus(page, ['done'], 120_000);
  await slide(page, positionOf(2));
  await page.waitForFunction(() => /At ε = 2\b/.test(document.getElementById('epsilons-readout').textContent));
  await closeClean(page, errors, 'presenter view, ε selected');
});

test('an edit during a long run marks it out of date at once; the link says what it holds', async () => {
  // 1000 rounds: a run estimated well over the 3 s of a re-run on change.
  const { page, errors } = await open('?preset=fedrep-paper&rounds=1000', { width: 1366, height: 900 });
  await startLongRun(page);
  await page.waitForFunction(() => document.getElementById('progress').value > 0, null, { timeout: 30_000 });
  assert.equal(await page.evaluate(() => document.getElementById('results').classList.contains('stale')), false);
  // The moment of the edit, in the page: the mark is there in the same task as the input.
  const marked = await page.evaluate(() => {
    const n = document.getElementById('n');
    n.value = '4000';
    n.dispatchEvent(new Event('input', { bubbles: true }));
    return {
      stale: document.getElementById('results').classList.contains('stale'),
      note: !document.getElementById('stale-note').hidden,
      status: document.getElementById('status').textContent,
    };
  });
  assert.ok(marked.stale && marked.note, 'the results are marked out of date at once');
  assert.match(marked.status, /Settings changed/);
  assert.ok(await page.isVisible('#stale-note'));
  // Later progress keeps saying so.
  await page.waitForTimeout(400);
  assert.equal(await page.evaluate(() => document.body.dataset.status), 'running', 'a long run is not restarted');
  assert.match(await page.textContent('#status'), /Settings changed/);
  await accessible(page, 'a run out of date');
  // The link holds the edit; copying it says that the results on screen are of other settings.
  // (The note is written once the clipboard has answered: after the click's own task.)
  await page.click('#copy-link');
  await page.waitForFunction(() => document.getElementById('link-note').textContent !== '', null, { timeout: 5_000 });
  assert.match(await page.textContent('#link-note'), /not the results on screen/);
  assert.equal(new URL(page.url()).searchParams.get('n'), '4000');
  // Edited back: the mark goes.
  await fillField(page, 'n', '20000');
  assert.equal(await page.evaluate(() => document.getElementById('results').classList.contains('stale')), false);
  await page.click('#stop');
  await waitStatus(page, ['idle'], 10_000);
  await closeErrorFree(page, errors);
});

test('a run that finishes after an edit is not shown as plain "Done"', async () => {
  const { page, errors } = await open('?preset=fedrep-paper&n=3000&rounds=60', { width: 1366, height: 900 }, { autoRun: false });
  await page.click('#run');
  await waitStatus(page, ['running']);
  await fillField(page, 'd', '30');
  assert.equal(await waitStatus(page, ['done'], 60_000), 'done');
  assert.match(await page.textContent('#status'), /for the previous settings/);
  assert.equal(await page.evaluate(() => document.getElementById('results').classList.contains('stale')), true);
  assert.ok(await page.isVisible('#stale-note'));
  await closeErrorFree(page, errors);
});

test('messages name the field by its label, and the status names the field to fix', async () => {
  const { page, errors } = await open('', { width: 1366, height: 900 }, { autoRun: false });
  await fillField(page, 'n', 'abc');
  await page.waitForSelector('#n[aria-invalid="true"]');
  assert.match(await page.textContent('#n-error'), /^users n must be a whole number/);
  await waitStatus(page, ['error']);
  assert.match(await page.textContent('#status'), /^Fix “users n” to run: users n must be a whole number/);
  assert.doesNotMatch(await page.textContent('#status'), /Ready/);
  await fillField(page, 'n', '20000');
  await fillField(page, 'd', '10');
  await fillField(page, 'k', '20');
  await page.waitForSelector('#k[aria-invalid="true"]');
  // Rust says "k: k must be ≤ d …": shown at its field without the key in front.
  assert.match(await page.textContent('#k-error'), /^representation k must be ≤ d/);
  await fillField(page, 'k', '2');
  await fillField(page, 'delta', '1');
  await page.waitForSelector('#delta[aria-invalid="true"]');
  assert.match(await page.textContent('#delta-error'), /^δ must be/);
  await page.selectOption('#preset', 'dpgd-quick');
  await fillField(page, 'p_grid', '0');
  await page.waitForSelector('#p_grid[aria-invalid="true"]');
  assert.doesNotMatch(await page.textContent('#p_grid-error'), /p_grid/);
  await closeClean(page, errors, 'invalid fields');
});

test('on a phone, moving the ε slider keeps the page where it is', async () => {
  const { page, errors } = await open('?n=3000&altmin=off', { width: 390, height: 844 }, { deviceScaleFactor: 2 });
  await page.evaluate(() => document.getElementById('run').click());
  await waitStatus(page, ['done'], 60_000);
  await page.evaluate(() => document.getElementById('epsilons').scrollIntoView({ block: 'start' }));
  const y0 = await page.evaluate(() => window.scrollY);
  await slide(page, positionOf(3));
  await waitStatus(page, ['running'], 10_000);
  await waitStatus(page, ['done'], 60_000);
  await page.waitForTimeout(200);
  assert.equal(await page.evaluate(() => window.scrollY), y0, 'the page did not scroll');
  const r = await page.$eval('#epsilons-slider', (e) => e.getBoundingClientRect().toJSON());
  assert.ok(r.top >= 0 && r.bottom <= 844, 'the slider is in view');
  await closeErrorFree(page, errors);
});
