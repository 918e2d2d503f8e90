// The page as a teaching tool: every fast preset of every scenario (read from
// the registry, so a new scenario is tested without an edit here) runs to the
// end with every chart its view fills drawn; the CSV, PNG and SVG exports download what they say; the
// log/linear toggles redraw; a pinned run is overlaid on the next one; the
// readout names the nearest point (pointer and keyboard); the large-text mode
// enlarges page and charts; no request leaves the page's origin; and the
// `make dist` build, when present, runs the default preset.
// Needs www/pkg/ (`make build-e2e` or `make build`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { serve, waitStatus, inkFraction, servedBrowser, runToDone, fillField } from './browser.mjs';

// The registry as the page reads it: the page's wasm module, in Node.
const wasm = await import('../../www/pkg/dp_explorer.js');
wasm.initSync({ module: readFileSync(new URL('../../www/pkg/dp_explorer_bg.wasm', import.meta.url)) });
const SCENARIOS = wasm.scenarios();
// A fast preset: estimated at most this many seconds in one worker (the page runs it without asking).
const FAST_SECONDS = 10;
const FAST = SCENARIOS.flatMap((s) => s.presets
  .filter((p) => new wasm.Configuration(p.name, {}).estimated_seconds() <= FAST_SECONDS)
  .map((p) => ({ preset: p.name, scenario: s })));

/** The ids of the charts that the preset's finished view fills (a series with a
 * point), from a run of the same module in Node (once per preset): what the page must draw. */
const filledByPreset = new Map();
function filledCharts(preset) {
  if (!filledByPreset.has(preset)) {
    const scenario = SCENARIOS.find((s) => s.presets.some((p) => p.name === preset));
    const runner = new wasm.Runner(preset, {});
    const view = runner.run_to_end();
    runner.free();
    assert.equal(view.charts.length, scenario.charts.length);
    filledByPreset.set(preset, scenario.charts
      .filter((_, i) => view.charts[i].series.some((s) => s.points.length > 0))
      .map((c) => c.id));
  }
  return filledByPreset.get(preset);
}

test('the registry has fast presets, and each scenario\'s every chart is filled by one of them', () => {
  const filled = new Set(FAST.flatMap((f) => filledCharts(f.preset)));
  for (const s of SCENARIOS) {
    assert.ok(FAST.some((f) => f.scenario.id === s.id), `${s.id} has no preset estimated under ${FAST_SECONDS} s`);
    for (const c of s.charts) assert.ok(filled.has(c.id), `${s.id}: no fast preset fills ${c.id}`);
  }
});

const DIST = resolve(new URL('../../dist', import.meta.url).pathname);

// Every request any page of this file made that left its origin.
const foreign = [];
const env = servedBrowser();

async function openPage(query = '', { viewport = { width: 1280, height: 900 }, base = env.server.url } = {}) {
  const page = await env.browser.newPage({ viewport, acceptDownloads: true });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(base) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
  });
  await page.goto(`${base}${query}`);
  await waitStatus(page, ['idle']);
  return { page, errors };
}


async function download(page, selector) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: dl.suggestedFilename(), bytes: await readFile(await dl.path()) };
}

// A cheap fingerprint of a canvas's pixels.
async function canvasHash(page, id) {
  return page.evaluate((canvasId) => {
    const c = document.getElementById(canvasId);
    const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
    let h = 0;
    for (let i = 0; i < data.length; i += 7) h = (h * 31 + data[i]) >>> 0;
    return h;
  }, id);
}

function parseCsv(text) {
  const lines = text.trim().split('\n');
  const header = lines[0].split(',');
  return { header, rows: lines.slice(1).map((l) => Object.fromEntries(l.split(',').map((v, i) => [header[i], v]))) };
}

for (const { preset, scenario } of FAST) {
  test(`the ${preset} preset runs to done with every chart drawn`, async () => {
    const filled = filledCharts(preset);
    assert.ok(filled.length > 0, `${preset} fills no chart`);
    const { page, errors } = await openPage(`?preset=${preset}`);
    assert.equal(await page.inputValue('#preset'), preset);
    const t0 = Date.now();
    await runToDone(page);
    const seconds = (Date.now() - t0) / 1000;
    assert.ok(seconds < 30, `${preset} took ${seconds} s`);
    for (const { id } of scenario.charts) {
      if (filled.includes(id)) {
        const ink = await inkFraction(page, id);
        assert.ok(ink > 0.02, `${id} has ink (${ink})`);
      }
      // Every chart has its tools: both axis toggles, PNG and SVG export.
      for (const suffix of ['logx', 'logy', 'png', 'svg']) {
        assert.ok(await page.isVisible(`#${id}-${suffix}`), `${id}-${suffix}`);
      }
      assert.equal(await page.getAttribute(`#${id}`, 'tabindex'), '0');
    }
    // Every caption's claims are judged on the finished run: none is left pending,
    // and each mark carries the numbers that decided it.
    const marks = page.locator('figcaption ul.claims li');
    for (let i = 0; i < await marks.count(); i++) {
      const m = marks.nth(i);
      if (!(await m.isVisible())) continue;
      assert.ok(['held', 'not-held', 'undecided'].includes(await m.getAttribute('data-status')),
        `${preset}: claim ${await m.getAttribute('data-claim')} is ${await m.getAttribute('data-status')}`);
      assert.match(await m.textContent(), /\(.+\)$/);
    }
    if (preset === 'fedrep-linear-sim') {
      // Collins et al.'s setting, with a random start and no Priv-AltMin.
      assert.equal(await page.inputValue('#init'), 'random');
      assert.equal(await page.inputValue('#altmin'), 'off');
      assert.equal(await page.locator('#angle-table thead th').count(), 502); // run + t = 0…500
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('the CSV export has the accounting columns filled; PNG and SVG exports are images', async () => {
  const { page, errors } = await openPage('?preset=fedrep-paper');
  await runToDone(page);
  const csv = await download(page, '#export-csv');
  assert.equal(csv.name, 'results.csv');
  const { header, rows } = parseCsv(csv.bytes.toString('utf8'));
  for (const col of ['method', 'epsilon', 'excess_risk', 'sigma', 'epsilon_spent', 'epsilon_rdp', 'epsilon_zcdp',
    'relation', 'calibration', 'sensitivity', 'noise_multiplier', 'steps']) {
    assert.ok(header.includes(col), `column ${col}`);
  }
  // FedRep, local GD, then Private FedRep and Priv-AltMin at 5 ε each.
  assert.equal(rows.length, 12);
  const priv = rows.filter((r) => r.epsilon !== 'inf');
  assert.equal(priv.length, 10);
  for (const r of priv) {
    for (const col of ['sigma', 'epsilon_spent', 'epsilon_rdp', 'epsilon_zcdp', 'sensitivity', 'noise_multiplier', 'steps']) {
      assert.ok(Number.isFinite(Number(r[col])) && Number(r[col]) > 0, `${r.method} ε=${r.epsilon}: ${col} = ${r[col]}`);
    }
    assert.equal(r.relation, 'replace-one');
    assert.equal(r.calibration, 'exact');
    assert.ok(Math.abs(Number(r.epsilon_spent) - Number(r.epsilon)) < 1e-6 * Number(r.epsilon));
  }

  const png = await download(page, '#risk-chart-png');
  assert.equal(png.name, 'risk-chart.png');
  assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  // The image is the canvas at its device-pixel size.
  const width = png.bytes.readUInt32BE(16);
  assert.equal(width, await page.evaluate(() => document.getElementById('risk-chart').width));

  const svg = await download(page, '#angle-chart-svg');
  assert.equal(svg.name, 'angle-chart.svg');
  assert.match(svg.bytes.toString('utf8'), /^<svg[\s\S]*Principal angle/);
  // The risk chart's SVG carries the fitted guide; the checkbox removes it.
  assert.match((await download(page, '#risk-chart-svg')).bytes.toString('utf8'), /theory guide/);
  await page.uncheck('#risk-chart-toggle');
  assert.doesNotMatch((await download(page, '#risk-chart-svg')).bytes.toString('utf8'), /theory guide/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('log/linear toggles redraw the chart; a pinned run is overlaid on the next one', async () => {
  const { page, errors } = await openPage('?preset=fedrep-paper&epsilons=1,4,8&altmin=off');
  await runToDone(page);
  assert.ok(await page.isChecked('#risk-chart-logy'), 'the risk chart starts on a log y axis');
  const before = await canvasHash(page, 'risk-chart');
  await page.uncheck('#risk-chart-logy');
  const linear = await canvasHash(page, 'risk-chart');
  assert.notEqual(linear, before, 'linear y redraws');
  await page.check('#risk-chart-logx');
  assert.notEqual(await canvasHash(page, 'risk-chart'), linear, 'log x redraws');
  await page.uncheck('#risk-chart-logx');
  await page.check('#risk-chart-logy');
  assert.equal(await canvasHash(page, 'risk-chart'), before, 'back to the first drawing');

  await page.click('#pin-run');
  assert.ok(!(await page.isDisabled('#clear-pin')));
  assert.match(await page.textContent('#pin-note'), /Pinned/);
  await fillField(page, 'epsilons', '2,6');
  await fillField(page, 'clip', '5');
  await runToDone(page);
  const overlaid = (await download(page, '#risk-chart-svg')).bytes.toString('utf8');
  // The pinned run: one legend entry naming what differs, its curves in the pin's colour (black).
  assert.match(overlaid, /\npinned: ε values = 1,4,8/);
  assert.match(overlaid, /stroke="#000000"/);
  const angles = (await download(page, '#angle-chart-svg')).bytes.toString('utf8');
  assert.match(angles, /\npinned: ε values = 1,4,8/);
  assert.match(angles, /Private FedRep ε = 6\n/);
  await page.click('#clear-pin');
  assert.doesNotMatch((await download(page, '#risk-chart-svg')).bytes.toString('utf8'), /\npinned/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the readout names the nearest point under the pointer and follows the arrow keys', async () => {
  const { page, errors } = await openPage('?preset=fedrep-paper&altmin=off');
  await runToDone(page);
  const prompt = await page.textContent('#risk-chart-readout');
  const box = await page.locator('#risk-chart').boundingBox();
  await page.locator('#risk-chart').hover({ position: { x: box.width * 0.5, y: box.height * 0.5 } });
  await page.waitForFunction((p) => document.getElementById('risk-chart-readout').textContent !== p, prompt);
  assert.match(await page.textContent('#risk-chart-readout'), /: excess risk \d/);
  assert.equal(await page.getAttribute('#risk-chart-readout', 'aria-live'), 'polite');

  // Keyboard: focus, then Home/Right walk the first series in order of ε.
  await page.focus('#risk-chart');
  await page.keyboard.press('Home');
  const first = await page.textContent('#risk-chart-readout');
  assert.match(first, /^Private FedRep, user-level target ε = 1: excess risk \d/);
  await page.keyboard.press('ArrowRight');
  assert.match(await page.textContent('#risk-chart-readout'), /^Private FedRep, user-level target ε = 2: excess risk/);
  await page.keyboard.press('ArrowDown');
  assert.doesNotMatch(await page.textContent('#risk-chart-readout'), /^Private FedRep,/);
  // The number shown is the table's.
  const tableRisk = await page.locator('#risk-table tbody tr', { hasText: 'Private FedRep' }).first().locator('td').nth(1).textContent();
  assert.equal(Number(first.split('excess risk ')[1]).toPrecision(2), Number(tableRisk).toPrecision(2));
  assert.deepEqual(errors, []);
  await page.close();
});

test('the large-text mode enlarges the page text and the charts\' text', async () => {
  const { page, errors } = await openPage('?preset=dpgd-quick');
  await runToDone(page);
  const size = () => page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('figcaption')).fontSize));
  const small = await size();
  // Inked pixels (the canvas also grows in this mode, so count, not fraction).
  const ink = async () => (await inkFraction(page, 'dpgd-eps-chart'))
    * (await page.evaluate(() => { const c = document.getElementById('dpgd-eps-chart'); return c.width * c.height; }));
  const before = await ink();
  await page.check('#large-text');
  assert.ok(await size() > small * 1.25, `${await size()} vs ${small}`);
  // Larger fonts and thicker lines put more ink on the chart.
  const after = await ink();
  assert.ok(after > before * 1.3, `${after} vs ${before}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a phone-width page has no horizontal scroll; charts are full width', async () => {
  const { page, errors } = await openPage('', { viewport: { width: 390, height: 844 } });
  await runToDone(page);
  const [scrollWidth, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(scrollWidth <= inner, `page scrolls sideways: ${scrollWidth} > ${inner}`);
  const box = await page.locator('#risk-chart').boundingBox();
  assert.ok(box.width > 340, `chart width ${box.width}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('no page of this file requested anything outside its own origin', async () => {
  // Opens a page of its own, so the check has something to check even when
  // this test runs alone; with the whole file it covers every page above too.
  const opened = foreign.length;
  const { page } = await openPage();
  await page.close();
  assert.equal(foreign.length, opened);
  assert.deepEqual(foreign, []);
});

// dist/ from `make dist`, served on its own.

test('the make-dist build runs the default preset on its own', {
  skip: existsSync(join(DIST, 'index.html')) ? false : 'dist/ is not built: run `make dist` to check the hosted build',
}, async () => {
  // dist/ names its assets by content hash (bench.3f….js): look at every file, not at fixed names.
  const files = (await readdir(DIST, { recursive: true })).map((f) => f.split('\\').join('/'));
  assert.ok(files.includes('index.html') && files.some((f) => /^pkg\/dp_explorer_bg\.[0-9a-f]+\.wasm$/.test(f)), 'dist/ holds the page and its module');
  for (const dev of [/^bench\./, /^pkg\/package\.json$/, /\.d\.ts$/]) {
    assert.deepEqual(files.filter((f) => dev.test(f)), [], `dist/ leaves out ${dev}`);
  }
  // The tests' hooks stay out of the hosted page (they live in tests/e2e/hooks/ and `make build-e2e`).
  const shipped = files.filter((f) => /\.(js|wasm|html)$/.test(f));
  assert.ok(shipped.length > 10, `${shipped.length} files`);
  for (const file of shipped) {
    const text = await readFile(join(DIST, file), 'latin1');
    assert.ok(!/dpExplorerTest|debug_panic/.test(text), `dist/${file} carries no test hook`);
  }
  const site = await serve(DIST);
  try {
    const { page, errors } = await openPage('', { base: site.url });
    await runToDone(page);
    for (const id of filledCharts(wasm.default_preset())) assert.ok(await inkFraction(page, id) > 0.02, id);
    assert.equal(await page.locator('#risk-table tbody tr').count(), 12);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await site.close();
  }
  assert.deepEqual(foreign, []);
});
