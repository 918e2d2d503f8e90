// Issue 41's small contracts: a chart canvas says the ticks it drew and its plot area (the risk
// chart's log ε axis labelled at the sweep's own ε); "Run audit" is off where the audit cannot run;
// a link's unknown preset is named and the default shown; "Copy link" gives the students' link and
// "Copy presenter link" the projector's; a phone opening a presenter link does not scroll sideways.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accessible, openPage, runToDone, servedBrowser, waitStatus } from './browser.mjs';

const env = servedBrowser();

test('after the default run the risk chart says its ticks (at the data) and its plot area', async () => {
  const { page, errors } = await openPage(env, '', { viewport: { width: 1280, height: 720 } });
  await runToDone(page);
  const drawn = await page.$eval('#risk-chart', (c) => {
    const r = c.getBoundingClientRect();
    return { x: c.dataset.xTicks, y: c.dataset.yTicks, plot: c.dataset.plot, w: r.width, h: r.height };
  });
  const xs = drawn.x.split(' ').map(Number);
  const ys = drawn.y.split(' ').map(Number);
  assert.ok(xs.every(Number.isFinite) && ys.length >= 2 && ys.every(Number.isFinite), JSON.stringify(drawn));
  const atData = [1, 2, 4, 6, 8].filter((e) => xs.includes(e));
  assert.ok(atData.length >= 3, `x ticks ${drawn.x}`);
  const [x, y, w, h] = drawn.plot.split(' ').map(Number);
  assert.ok(x >= 0 && y >= 0 && w > 0 && h > 0, drawn.plot);
  assert.ok(x + w <= drawn.w + 0.5 && y + h <= drawn.h + 0.5, `${drawn.plot} in ${drawn.w}×${drawn.h}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('"Run audit" is off where the audit cannot run, and on where it can', async () => {
  const { page, errors } = await openPage(env, '?preset=flute-c1');
  await page.waitForFunction(() => document.getElementById('audit-estimate').textContent.startsWith('The audit cannot run'),
    null, { timeout: 30_000 });
  assert.ok(await page.isDisabled('#audit-run'));
  assert.match(await page.textContent('#audit-status'), /cannot run these settings/);
  await accessible(page, 'an audit that cannot run');
  await page.selectOption('#preset', 'flute-private');
  await page.waitForFunction(() => document.getElementById('audit-estimate').dataset.seconds !== undefined
    && !document.getElementById('audit-run').disabled, null, { timeout: 30_000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a link\'s unknown preset is named, and the default preset is shown, ready to run', async () => {
  const { page, errors } = await openPage(env, '?preset=nope');
  assert.equal(await page.evaluate(() => document.body.dataset.status), 'idle');
  assert.match(await page.textContent('#status'), /No preset named “nope”: showing the default/);
  const preset = await page.evaluate(async () => (await import('./pkg/dp_explorer.js')).default_preset());
  assert.equal(await page.inputValue('#preset'), preset);
  assert.ok(!(await page.isDisabled('#run')));
  await accessible(page, 'an unknown preset');
  assert.deepEqual(errors, []);
  await page.close();
});

test('"Copy link" gives the students\' link; "Copy presenter link" the projector\'s', async () => {
  // The clipboard, as the page writes it.
  const init = () => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: async (t) => { window.copied = t; } } });
  };
  const { page, errors } = await openPage(env, '?epsilons=1,2,4&large=1', { init });
  const copy = async (id) => {
    await page.evaluate(() => { window.copied = null; });
    await page.click(id);
    await page.waitForFunction(() => window.copied !== null);
    return new URL(await page.evaluate(() => window.copied)).searchParams;
  };
  const students = await copy('#copy-link');
  assert.equal(students.get('epsilons'), '1,2,4');
  assert.ok(!students.has('large') && !students.has('present'), students.toString());
  assert.match(await page.textContent('#link-note'), /students/);
  const presenter = await copy('#copy-presenter-link');
  assert.equal(presenter.get('epsilons'), '1,2,4');
  assert.equal(presenter.get('large'), '1');
  assert.equal(presenter.get('present'), '1');
  assert.match(await page.textContent('#link-note'), /Presenter link copied/);
  // The page itself stays as it was (large text, no presenter view).
  assert.ok(await page.evaluate(() => document.body.classList.contains('large') && !document.body.classList.contains('present')));
  await accessible(page, 'links copied');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a phone opening a presenter link does not scroll sideways', async () => {
  const { page, errors } = await openPage(env, '?large=1&present=1', { viewport: { width: 390, height: 844 } });
  const wide = () => page.evaluate(() => document.scrollingElement.scrollWidth);
  assert.ok((await wide()) <= 390, `ready: ${await wide()} px wide`);
  await runToDone(page);
  assert.ok((await wide()) <= 390, `done: ${await wide()} px wide`);
  await accessible(page, 'presenter link on a phone');
  assert.deepEqual(errors, []);
  await page.close();
});
