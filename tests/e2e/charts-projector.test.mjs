// Charts a lecture hall can read (issue 30, item 2): with large text on a
// 1920×1080 projector the smallest text every chart draws is at least 28 CSS
// px (plain and presenter view); a laptop's charts draw no text under 13 px;
// a pinned run is drawn solid in a colour of its own and its legend names the
// settings that differ; long per-round tables start collapsed behind a
// summary with their row count, and the page stays accessible (axe).
// Needs www/pkg/ (`make build-e2e` or `make build`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { accessible, openPage, runToDone as runUntilDone, servedBrowser, fillField } from './browser.mjs';

const env = servedBrowser();

const open = (query, viewport) => openPage(env, query, { viewport, states: ['idle'] });
const runToDone = (page, timeout = 120_000) => runUntilDone(page, timeout);

/**
 * The smallest text of every visible chart of the scenario shown, in CSS px
 * as rendered: the smallest font the drawing used (device px, from the Rust
 * layout) times the canvas's CSS width over its pixel width, as the page
 * writes it on the canvas; checked here against the same product computed
 * from the canvas's own sizes and the scale it was drawn at.
 */
async function chartText(page) {
  return page.evaluate(() => [...document.querySelectorAll('#charts canvas')]
    .filter((c) => c.getBoundingClientRect().width > 0)
    .map((c) => ({
      id: c.id,
      minFontPx: Number(c.dataset.minFontPx),
      scale: Number(c.dataset.scale),
      cssPerPixel: c.getBoundingClientRect().width / c.width,
      dpr: window.devicePixelRatio,
    })));
}

/** Every visible chart draws no text under `min` CSS px (and at least one chart is drawn). */
async function assertChartText(page, min, state) {
  const charts = await chartText(page);
  assert.ok(charts.length > 0, `${state}: no chart drawn`);
  for (const c of charts) {
    assert.ok(Number.isFinite(c.minFontPx) && c.minFontPx > 0, `${state}: ${c.id} gives no text size`);
    // 13 px at scale 1 (src/plot/draw.rs), times the scale, over the device pixel ratio: what the layout said.
    const expected = 13 * c.scale * c.dpr * c.cssPerPixel;
    assert.ok(Math.abs(c.minFontPx - expected) < 0.6, `${state}: ${c.id} says ${c.minFontPx} px, sizes give ${expected}`);
    assert.ok(c.minFontPx >= min, `${state}: ${c.id} draws ${c.minFontPx} px text (want ≥ ${min})`);
  }
  return Math.min(...charts.map((c) => c.minFontPx));
}

for (const [query, state] of [['?large=1', 'large text'], ['?large=1&present=1', 'large text, presenter view']]) {
  test(`with ${state} at 1920×1080 every chart's text is at least 28 CSS px`, async () => {
    const { page, errors } = await open(query, { width: 1920, height: 1080 });
    await runToDone(page);
    const smallest = await assertChartText(page, 28, state);
    console.log(`# ${state} at 1920×1080: smallest chart text ${smallest.toFixed(1)} CSS px`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('a laptop\'s charts (1366×768) draw no text under 13 CSS px', async () => {
  const { page, errors } = await open('', { width: 1366, height: 768 });
  await runToDone(page);
  const smallest = await assertChartText(page, 13, 'laptop');
  console.log(`# laptop 1366×768: smallest chart text ${smallest.toFixed(1)} CSS px`);
  assert.deepEqual(errors, []);
  await page.close();
});

async function svgOf(page, selector) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return (await readFile(await dl.path())).toString('utf8');
}

test('a pinned run is drawn solid in a colour of its own, its legend naming what differs by the setting\'s label', async () => {
  const { page, errors } = await open('?preset=fedrep-paper&epsilons=1,4,8&altmin=off', { width: 1366, height: 768 });
  await runToDone(page);
  const clip = await page.inputValue('#clip');
  await page.click('#pin-run');
  assert.match(await page.textContent('#pin-note'), /Pinned/);
  await fillField(page, 'clip', String(Number(clip) * 2));
  await runToDone(page);
  const svg = await svgOf(page, '#risk-chart-svg');
  // The legend names the pinned run once, with the setting that differs at its pinned value.
  assert.equal(svg.split(`\npinned: clip ψ = ${clip}\n`).length, 2, 'one legend entry for the pin');
  // Drawn solid in the first pin's colour (black), never in a pale tint.
  assert.match(svg, /<polyline fill="none" opacity="1" stroke="#000000"/);
  assert.doesNotMatch(svg, /stroke-dasharray[^>]*stroke="#000000"/);
  // A second pin gets a second colour (wine), and the first keeps its own.
  await page.click('#pin-run');
  await fillField(page, 'clip', String(Number(clip) * 3));
  await runToDone(page);
  const two = await svgOf(page, '#risk-chart-svg');
  assert.match(two, new RegExp(`\\npinned: clip ψ = ${clip}\\n`));
  assert.match(two, new RegExp(`\\npinned: clip ψ = ${Number(clip) * 2}\\n`));
  assert.match(two, /stroke="#000000"/);
  assert.match(two, /stroke="#882255"/);
  // The readout names a pinned point's curve and what differs (pinned curves come first).
  await page.focus('#risk-chart');
  await page.keyboard.press('Home');
  assert.match(await page.textContent('#risk-chart-readout'), new RegExp(`\\(pinned\\): clip ψ = ${clip}\\b`));
  // The button says what it removes (its accessible name is its text).
  assert.equal((await page.textContent('#clear-pin')).trim(), 'Clear 2 pins');
  await page.click('#clear-pin');
  assert.equal(await page.isDisabled('#clear-pin'), true);
  assert.doesNotMatch(await svgOf(page, '#risk-chart-svg'), /\npinned/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('long per-round tables start collapsed behind a summary with their row count; axe finds nothing', async () => {
  const { page, errors } = await open('?preset=flute-c1', { width: 1366, height: 768 });
  await runToDone(page);
  const tables = await page.evaluate(() => [...document.querySelectorAll('#charts details.chart-table')]
    .filter((d) => d.closest('figure').getBoundingClientRect().width > 0)
    .map((d) => ({ open: d.open, summary: d.querySelector('summary').textContent, rows: d.querySelectorAll('tbody tr').length })));
  assert.ok(tables.some((t) => t.rows > 12), `no long table: ${JSON.stringify(tables)}`);
  for (const t of tables) {
    assert.equal(t.open, t.rows <= 12, JSON.stringify(t));
    if (t.rows) assert.match(t.summary, new RegExp(`\\(${t.rows} rows?\\)`));
  }
  // Reachable: the summary opens it from the keyboard, and it stays open on a redraw.
  const summary = await page.locator('#charts details.chart-table:not([open]) summary').first().elementHandle();
  await summary.focus();
  await page.keyboard.press('Enter');
  assert.ok(await summary.evaluate((s) => s.parentElement.open));
  await accessible(page, 'a FLUTE table opened');
  assert.deepEqual(errors, []);
  await page.close();
});
