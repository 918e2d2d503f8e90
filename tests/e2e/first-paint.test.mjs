// First paint without the module: the page draws its menu, lede, form, lesson
// and chart titles from pkg/describe.json (written by the build from the
// registry) before the wasm module has arrived; the Run button says the module
// is not ready; and nothing moves when it is. Needs `make build` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { servedBrowser, waitStatus } from './browser.mjs';

const env = servedBrowser();
const description = JSON.parse(readFileSync(new URL('../../www/pkg/describe.json', import.meta.url), 'utf8'));
const first = description.scenarios.find((s) => s.presets.some((p) => p.name === description.default_preset));
const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;

test('with the .wasm request blocked, the menu, what to look at, the lede, form and lesson are painted from the description', async () => {
  const page = await env.browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  const blocked = [];
  await page.route('**/*.wasm', (route) => { blocked.push(route.request().url()); return route.abort(); });
  await page.goto(env.server.url);
  await page.waitForSelector('body[data-painted]', { timeout: 20_000 });
  assert.ok(blocked.length >= 1, 'the page asked for the wasm module');

  // The menu: every preset of every scenario, grouped by scenario.
  const menu = await page.$$eval('#preset optgroup', (groups) => groups.map((g) => ({
    label: g.label, presets: [...g.querySelectorAll('option')].map((o) => o.value),
  })));
  assert.deepEqual(menu, description.scenarios.map((s) => ({ label: s.title, presets: s.presets.map((p) => p.name) })));
  assert.equal(await page.inputValue('#preset'), description.default_preset);
  // What to look at, visible; the whole lede one click away.
  assert.equal(await page.textContent('#scenario-look'), first.look_at);
  assert.equal(await page.textContent('#scenario-lede'), first.lede);
  assert.ok(await page.isVisible('#scenario-look') && await page.isVisible('#config'));
  // The form: every field of the scenario, filled with the default preset's settings.
  const filled = await page.evaluate((names) => names.map((n) => document.getElementById(n)?.value ?? null),
    first.fields.map((f) => f.name));
  assert.deepEqual(filled, first.preset_settings[description.default_preset].fields.map(([, v]) => v));
  // The lesson and the charts' captions.
  if (first.lesson.length) assert.equal(await page.textContent('#lesson-step-title'), first.lesson[0].title);
  for (const c of first.charts) {
    assert.equal(await page.$eval(`#${c.id}`, (el) => el.closest('figure').querySelector('figcaption').firstChild.textContent), c.caption);
  }
  // The chart title is drawn on the canvas (some ink), though no module can draw the chart.
  const ink = await page.$eval(`#${first.charts[0].id}`, (c) => {
    const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] < 200) n += 1;
    return n;
  });
  assert.ok(ink > 100, `${ink} dark pixels on the chart's canvas`);
  // Nothing can run: the Run button says so (its visible label) and is disabled.
  assert.equal(await page.isDisabled('#run'), true);
  assert.equal(await page.isVisible('#run > .when-loading'), true);
  assert.equal(await page.isVisible('#run > .when-ready'), false);
  // Without the module the page says it could not load it (and keeps what it painted).
  assert.equal(await waitStatus(page, ['error'], 20_000), 'error');
  assert.match(await page.textContent('#status'), /WebAssembly/);
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}first-paint-no-wasm.png` });
  await page.close();
});

test('the module arriving later moves nothing: the Run button keeps its box, layout shift stays under 0.05', async () => {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  // The wasm answers 1.5 s late, so the page has painted from the description first.
  await page.route('**/*.wasm', async (route) => { await new Promise((ok) => setTimeout(ok, 1500)); return route.continue(); });
  await page.addInitScript(() => {
    window.shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!e.hadRecentInput) window.shifts.push(e.value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(env.server.url);
  await page.waitForSelector('body[data-painted]', { timeout: 20_000 });
  assert.equal(await page.evaluate(() => document.body.dataset.status), 'loading');
  const before = await page.$eval('#run', (b) => b.getBoundingClientRect().toJSON());
  const lede = await page.$eval('#scenario-look', (p) => p.getBoundingClientRect().toJSON());
  assert.equal(await waitStatus(page, ['idle'], 30_000), 'idle');
  await page.waitForTimeout(300);
  const after = await page.$eval('#run', (b) => b.getBoundingClientRect().toJSON());
  assert.deepEqual(after, before, 'the Run button did not move or resize');
  assert.deepEqual(await page.$eval('#scenario-look', (p) => p.getBoundingClientRect().toJSON()), lede);
  assert.equal(await page.isDisabled('#run'), false);
  assert.equal(await page.isVisible('#run > .when-ready'), true);
  const cls = await page.evaluate(() => window.shifts.reduce((a, b) => a + b, 0));
  assert.ok(cls <= 0.05, `cumulative layout shift ${cls}`);
  await page.close();
});
