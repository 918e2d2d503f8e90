// Same config and seed → same numbers natively and in wasm. The native CLI and
// the page (wasm, pool of workers) run one small sweep; their CSVs must agree
// to 1e-9 relative in every numeric column (in practice they agree to the last
// digit: the arithmetic is the same IEEE code on both targets; only libm's
// exp/ln, used inside the normal sampler, could differ by an ulp).
// The native side is the CLI that `cargo test` already built (make test passes
// DP_EXPLORER_BIN=target/debug/dp-explorer): no second, release build. Run by
// itself, the test builds the CLI with `cargo run` (the dev profile).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitStatus, servedBrowser } from './browser.mjs';

/** Runs `dp-explorer sweep ARGS` natively. */
function nativeSweep(args) {
  const bin = process.env.DP_EXPLORER_BIN;
  if (bin) execFileSync(bin, ['sweep', ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  else execFileSync('cargo', ['run', '--quiet', '--bin', 'dp-explorer', '--', 'sweep', ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
}

const SETTINGS = { n: '2000', d: '10', epsilons: '1,4', seed: '3' };

const env = servedBrowser();

function parse(csv) {
  const [header, ...lines] = csv.trim().split('\n');
  return { header: header.split(','), rows: lines.map((l) => l.split(',')) };
}

test('the native CLI and the page give the same CSV for the same config and seed', async () => {
  const out = mkdtempSync(join(tmpdir(), 'dp-native-'));
  const args = ['--preset', 'fedrep-paper', '--out', out];
  for (const [k, v] of Object.entries(SETTINGS)) args.push('--set', `${k}=${v}`);
  nativeSweep(args);
  const native = parse(readFileSync(join(out, 'results.csv'), 'utf8'));

  const page = await env.browser.newPage();
  await page.goto(`${env.server.url}?preset=fedrep-paper&${new URLSearchParams(SETTINGS)}`);
  await waitStatus(page, ['idle']);
  await page.click('#run');
  assert.equal(await waitStatus(page, ['done', 'error'], 60_000), 'done');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  const wasm = parse(readFileSync(await download.path(), 'utf8'));
  await page.close();

  assert.deepEqual(wasm.header, native.header);
  assert.equal(wasm.rows.length, native.rows.length);
  assert.ok(native.rows.length >= 6, `${native.rows.length} rows`);
  let compared = 0;
  native.rows.forEach((row, i) => {
    row.forEach((cell, j) => {
      const a = Number(cell);
      const b = Number(wasm.rows[i][j]);
      if (cell === '' || Number.isNaN(a)) {
        assert.equal(wasm.rows[i][j], cell, `${native.header[j]} of row ${i}`);
      } else if (Number.isFinite(a)) {
        assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1e-300, Math.abs(a)), `${native.header[j]} of row ${i}: ${a} vs ${b}`);
        compared += 1;
      } else {
        assert.equal(b, a);
      }
    });
  });
  assert.ok(compared > 50, `compared ${compared} numbers`);
});

test('a run whose users the workers share gives the native CLI\'s CSV', async () => {
  // Streamed data (n·m·d·8 bytes over the page's store limit) and few runs: the
  // cost model has the pool's workers share every run's users.
  const settings = { n: '70000', d: '50', epsilons: '1', altmin: 'off', rounds: '2', seed: '5' };
  const out = mkdtempSync(join(tmpdir(), 'dp-native-'));
  const args = ['--preset', 'fedrep-paper', '--out', out];
  for (const [k, v] of Object.entries(settings)) args.push('--set', `${k}=${v}`);
  nativeSweep(args);
  const native = readFileSync(join(out, 'results.csv'), 'utf8');

  const page = await env.browser.newPage();
  await page.goto(`${env.server.url}?preset=fedrep-paper&${new URLSearchParams(settings)}`);
  await waitStatus(page, ['idle']);
  await page.click('#run');
  assert.equal(await waitStatus(page, ['done', 'error'], 120_000), 'done', await page.textContent('#error'));
  const workers = await page.evaluate(() => Math.max(1, navigator.hardwareConcurrency || 2));
  const pool = await page.evaluate(() => document.body.dataset.pool);
  assert.equal(pool, workers > 1 ? `users:${workers}` : 'runs:1');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  const wasm = readFileSync(await download.path(), 'utf8');
  // The same sweep in one wasm Runner (no pool): the workers sharing the users
  // add every partial in user order, so the bits are the same.
  const single = await page.evaluate(async (fields) => {
    const m = await import('./pkg/dp_explorer.js');
    await m.default();
    const runner = new m.Runner('fedrep-paper', fields);
    runner.run_to_end();
    return runner.csv();
  }, settings);
  await page.close();
  assert.equal(wasm.trim(), single.trim());
  // Against native: the tolerance of the test above (libm's exp/ln inside the
  // normal sampler may differ by an ulp between the targets).
  const a = parse(native);
  const b = parse(wasm);
  assert.deepEqual(b.header, a.header);
  assert.equal(b.rows.length, 3);
  a.rows.forEach((row, i) => {
    row.forEach((cell, j) => {
      const x = Number(cell);
      const y = Number(b.rows[i][j]);
      if (cell === '' || Number.isNaN(x) || !Number.isFinite(x)) assert.equal(b.rows[i][j], cell, `${a.header[j]} of row ${i}`);
      else assert.ok(Math.abs(x - y) <= 1e-9 * Math.max(1e-300, Math.abs(x)), `${a.header[j]} of row ${i}: ${x} vs ${y}`);
    });
  });
});
