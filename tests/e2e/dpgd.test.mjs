// The DP-GD on random features scenario on the page: choosing a dpgd-* preset
// switches the form and the charts; the quick preset runs to `done` in the
// worker, its four canvases get ink and its tables get rows.
// Needs the page's module in www/pkg/ first (`make build-e2e`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitStatus, inkFraction, servedBrowser, fillField } from './browser.mjs';

const CANVASES = ['dpgd-eps-chart', 'dpgd-width-chart', 'dpgd-steps-chart', 'dpgd-rescaled-chart'];
const TABLES = ['dpgd-eps-table', 'dpgd-width-table', 'dpgd-steps-table', 'dpgd-rescaled-table'];

const env = servedBrowser();

async function openPage() {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(env.server.url);
  await waitStatus(page, ['idle']);
  return { page, errors };
}

test('choosing a DP-GD preset shows its fields and charts and hides FedRep-only ones', async () => {
  const { page, errors } = await openPage();
  await page.selectOption('#preset', 'dpgd-quick');
  await page.waitForFunction(() => document.body.dataset.scenario === 'dpgd');
  // Its essential settings at once; every other one click away ("More settings", then remembered).
  for (const id of ['p_grid', 'n', 'epsilons', 'delta']) assert.ok(await page.isVisible(`#${id}`), `${id} is shown at once`);
  assert.ok(!(await page.isVisible('#seed')), 'seed is folded');
  await page.click('#more-settings > summary');
  for (const id of ['p_grid', 'n_test', 'clip_scale', 'time_scale', 'trace_p', 'n', 'd', 'epsilons', 'delta', 'seed']) {
    assert.ok(await page.isVisible(`#${id}`), `${id} is shown`);
    // Every shown field has a label.
    assert.equal(await page.locator(`label[for="${id}"]`).count(), 1, `${id} has a label`);
  }
  for (const id of ['k', 'm', 'rounds', 'relation', 'risk-chart', 'angle-chart']) {
    assert.ok(!(await page.isVisible(`#${id}`)), `${id} is hidden`);
  }
  for (const id of CANVASES) assert.ok(await page.isVisible(`#${id}`), `${id} is shown`);
  assert.equal(await page.inputValue('#n'), '100');
  assert.equal(await page.inputValue('#calibration'), 'prop32');
  assert.match(page.url(), /preset=dpgd-quick/);
  // A bad value is named at its field.
  await fillField(page, 'p_grid', '');
  await page.waitForSelector('#p_grid[aria-invalid="true"]');
  assert.notEqual((await page.textContent('#p_grid-error')).trim(), '');
  // Back to FedRep: its fields come back ("More settings" stays open, as left).
  await page.selectOption('#preset', 'fedrep-paper');
  await page.waitForFunction(() => document.body.dataset.scenario === 'fedrep');
  assert.ok(await page.isVisible('#k'));
  assert.ok(!(await page.isVisible('#p_grid')));
  assert.equal(await page.inputValue('#calibration'), 'exact');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the dpgd-quick preset runs to done with ink on every chart and rows in every table', async () => {
  const { page, errors } = await openPage();
  await page.selectOption('#preset', 'dpgd-quick');
  await page.click('#run');
  assert.equal(await waitStatus(page, ['done', 'error'], 120_000), 'done', await page.textContent('#error'));
  for (const id of CANVASES) {
    const ink = await inkFraction(page, id);
    assert.ok(ink > 0.02, `${id} has ink (${ink})`);
  }
  for (const id of TABLES) {
    const rows = await page.locator(`#${id} tbody tr`).count();
    assert.ok(rows >= 2, `${id} has rows (${rows})`);
    assert.ok((await page.locator(`#${id} thead th[scope="col"]`).count()) >= 2, `${id} has column headers`);
  }
  // The width table lists every p of the preset.
  assert.equal(await page.locator('#dpgd-width-table tbody tr').count(), 7);
  // Explain ε: one entry per target ε, with a row per width p (7 widths),
  // naming the mechanism, replace-one and the ε each run spends.
  const reports = page.locator('#privacy-content > details');
  // One entry per target ε of the main grid (3), and one for the loss-versus-T runs.
  assert.equal(await reports.count(), 4);
  assert.equal(await reports.first().locator('tbody tr').count(), 7);
  const first = await reports.first().textContent();
  assert.match(first, /per-sample-clipped gradients/);
  assert.match(first, /replace-one/);
  assert.match(first, /7 runs (each )?spend ε = /);
  // It opens with the ε spent in an attacker's terms: the posterior bound and the (FPR, TPR) picture.
  assert.match(first, /at most \d+(\.\d)? % sure/);
  // and as frequencies, from the run's exact trade-off curve (a Gaussian run).
  assert.match(first, /wrongly accuses on average at most 1 of the 100 outsiders finds on average at most \d+(\.\d)? of the 100 insiders \(from this run's exact trade-off curve/);
  assert.equal(await reports.first().locator('.attacker svg[role="img"] polygon.region').count(), 1);
  assert.ok(!(await page.isDisabled('#export-csv')));
  assert.deepEqual(errors, []);
  await page.close();
});

/** Runs `dp-explorer sweep ARGS` natively (DP_EXPLORER_BIN, else `cargo run`, as native-vs-wasm does). */
function nativeSweep(args) {
  const bin = process.env.DP_EXPLORER_BIN;
  if (bin) execFileSync(bin, ['sweep', ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  else execFileSync('cargo', ['run', '--quiet', '--bin', 'dp-explorer', '--', 'sweep', ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
}

test('a finished run shows the CLI\'s privacy statement, and Explain ε opens for a student', async () => {
  const settings = { p_grid: '20,200', trace_p: '', epsilons: '1', delta: '1e-4' };
  const out = mkdtempSync(join(tmpdir(), 'dp-statement-'));
  const args = ['--preset', 'dpgd-quick', '--out', out];
  for (const [k, v] of Object.entries(settings)) args.push('--set', `${k}=${v}`);
  nativeSweep(args);
  const cli = readFileSync(join(out, 'privacy-statement.txt'), 'utf8');

  const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${env.server.url}?preset=dpgd-quick&${new URLSearchParams(settings)}`);
  await waitStatus(page, ['idle', 'done']);
  await page.click('#run');
  assert.equal(await waitStatus(page, ['done', 'error'], 120_000), 'done', await page.textContent('#error'));
  await page.waitForFunction(() => !document.getElementById('statement-download').disabled);
  const shown = await page.textContent('#privacy-statement');
  assert.equal(shown, cli);
  for (const needle of ['Neighbouring relation: replace-one', 'at δ = 1e-4', 'Accountant: exact Gaussian DP composition',
    'Unit of privacy: one training sample']) {
    assert.ok(shown.includes(needle), `${needle} not in:\n${shown}`);
  }
  // Explain ε: reached from beside the charts; a plain sentence first, then the frequencies; the picture's ticks.
  assert.equal(await page.getAttribute('#explain-link a', 'href'), '#privacy-panel');
  const first = page.locator('#privacy-content > details').first();
  const words = await first.locator('.attacker > div > p').allTextContents();
  assert.match(words[0], /^In plain words: ε caps how much any one training sample's data can change/);
  assert.match(words[1], /^In frequencies: of 100 people/);
  assert.match(words[2], /at most \d+(\.\d)? % sure/);
  assert.match(words[3], /^Why two numbers: [\d.]+ % is a worst case/);
  assert.equal(await first.locator('.attacker svg g.ticks text').count(), 10);
  assert.match(await first.locator('figcaption').textContent(), /dashed blue line: the exact bound/);
  assert.deepEqual(errors, []);
  await page.close();
});
