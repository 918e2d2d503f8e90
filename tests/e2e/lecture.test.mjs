// Issue 41, the lecture layout: presenter view with large text fits a 16:9 screen (the whole first
// chart canvas, the ε slider and the lesson's step with its marks in view after the default run, the
// other charts one click or key away); with large text at 1920×1080 every canvas text is ≥ 28 px
// (the empty charts before the first run included), the risk chart is labelled at the sweep's ε and
// its plot keeps ≥ 55 % of its height; a phone opening a presenter link does not scroll sideways;
// axe finds nothing; the layout shifts at most 0.05 over a run. Needs www/pkg/ (`make build-e2e`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accessible, openPage, runToDone, servedBrowser } from './browser.mjs';

const env = servedBrowser();
const LECTURE = '?large=1&present=1';

/** Records the page's layout shifts in `window.shifts` (run before its scripts). */
function recordShifts() {
  window.shifts = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.shifts.push(e.value); })
    .observe({ type: 'layout-shift', buffered: true });
}

/** The bounding box of `selector` in CSS px, and whether it lies wholly in the viewport. */
async function inView(page, selector) {
  return page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    const box = [r.x, r.y, r.width, r.height].map((v) => Math.round(v));
    return { box, inside: r.width > 0 && r.height > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight };
  });
}

/** Every drawn canvas's smallest text (CSS px, chart-contract.js), by id. */
async function canvasFonts(page) {
  return page.evaluate(() => [...document.querySelectorAll('canvas')]
    .filter((c) => c.getBoundingClientRect().width > 0)
    .map((c) => [c.id, Number(c.dataset.minFontPx)]));
}

for (const [width, height] of [[1920, 1080], [1280, 720]]) {
  test(`presenter view with large text at ${width}×${height}: the chart, the slider and the lesson step in view`, async () => {
    const { page, errors } = await openPage(env, LECTURE, { viewport: { width, height }, states: ['idle'], init: recordShifts });
    const loaded = await page.evaluate(() => window.shifts.length);
    await runToDone(page);
    const cls = await page.evaluate((i) => window.shifts.slice(i).reduce((a, b) => a + b, 0), loaded);
    assert.ok(cls <= 0.05, `layout shift over the run: ${cls}`);
    await page.waitForFunction(() => document.querySelector('#lesson-claims li[data-status="held"], #lesson-claims li[data-status="not-held"]'));
    const boxes = {};
    for (const [name, selector] of [['canvas', '#risk-chart'], ['slider', '#epsilons-slider'],
      ['lesson step', '#lesson-step-title'], ['marks', '#lesson-claims'], ['lesson buttons', '#lesson .actions'], ['run', '#run']]) {
      const { box, inside } = await inView(page, selector);
      boxes[name] = box;
      assert.ok(inside, `${name} ${box} outside ${width}×${height}`);
    }
    console.log(`# ${width}×${height}: CLS over the run ${cls.toFixed(4)}; ${Object.entries(boxes).map(([k, v]) => `${k} ${v.join(',')}`).join('; ')}`);
    // The legend is on the canvas: the plot leaves it room (and keeps its share).
    const plot = await page.$eval('#risk-chart', (c) => Number(c.dataset.plot.split(' ')[3]) / c.getBoundingClientRect().height);
    assert.ok(plot >= 0.55, `plot ${plot}`);
    // One chart at a time; the next one a click and a key away, and back.
    assert.ok(!(await page.isVisible('#angle-chart')));
    await page.click('.lecture-nav button:last-child');
    assert.ok(await page.isVisible('#angle-chart') && !(await page.isVisible('#risk-chart')));
    assert.ok((await inView(page, '#angle-chart')).inside, 'the second chart in view');
    await page.keyboard.press('p');
    assert.ok(await page.isVisible('#risk-chart'));
    await accessible(page, `presenter view at ${width}×${height}`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('large text at 1920×1080: every canvas text ≥ 28 px, the risk chart at its ε, its plot ≥ 55 %', async () => {
  const { page, errors } = await openPage(env, '?large=1', { viewport: { width: 1920, height: 1080 }, states: ['idle'] });
  const empty = await canvasFonts(page);
  assert.ok(empty.length >= 2, JSON.stringify(empty));
  for (const [id, px] of empty) assert.ok(px >= 28, `before the run: ${id} draws ${px} px text`);
  await runToDone(page);
  const drawn = await canvasFonts(page);
  for (const [id, px] of drawn) assert.ok(px >= 28, `after the run: ${id} draws ${px} px text`);
  const risk = await page.$eval('#risk-chart', (c) => ({ x: c.dataset.xTicks, plot: c.dataset.plot, h: c.getBoundingClientRect().height }));
  const xs = risk.x.split(' ').map(Number);
  assert.ok([1, 2, 4, 6, 8].filter((e) => xs.includes(e)).length >= 3, `x ticks ${risk.x}`);
  const share = Number(risk.plot.split(' ')[3]) / risk.h;
  assert.ok(share >= 0.55, `plot ${risk.plot} in a ${risk.h} px canvas: ${share}`);
  console.log(`# large text 1920×1080: smallest text ${Math.min(...drawn.map(([, px]) => px))} px, risk plot ${(100 * share).toFixed(1)} %`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a phone opening a presenter link does not scroll sideways; axe finds nothing', async () => {
  const { page, errors } = await openPage(env, LECTURE, { viewport: { width: 390, height: 844 } });
  await runToDone(page);
  const wide = await page.evaluate(() => document.scrollingElement.scrollWidth);
  assert.ok(wide <= 390, `${wide} px wide`);
  await accessible(page, 'presenter link on a phone');
  assert.deepEqual(errors, []);
  await page.close();
});
