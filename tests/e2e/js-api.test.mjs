// The JS package as someone else uses it: the two examples of docs/js-api.md
// run as written, from the built pkg/ — the Node script prints the accountant's
// ε, and the HTML page of a few lines runs a preset and draws its risk chart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { serve, launch, inkFraction } from './browser.mjs';

const REPO = resolve(new URL('../..', import.meta.url).pathname);

test('the documented examples are the files the test runs', () => {
  const doc = readFileSync(resolve(REPO, 'docs/js-api.md'), 'utf8');
  for (const file of ['examples/js/epsilon.mjs', 'examples/js/index.html']) {
    const text = readFileSync(resolve(REPO, file), 'utf8').trim();
    assert.ok(doc.includes(text), `docs/js-api.md shows ${file} as it is`);
  }
});

test('the Node example prints ε for a σ under every accountant', () => {
  const out = execFileSync('node', ['examples/js/epsilon.mjs'], { cwd: REPO, encoding: 'utf8' });
  assert.match(out, /σ = 1: exact ε = 4\.377178, RDP ε = 4\.728387, zCDP ε = 5\.298526/);
  assert.match(out, /ε = 1 over 100 releases: σ = 37\.306\d \(exact\)/);
});

test('the example page runs a preset and draws its risk chart', async () => {
  const server = await serve(REPO);
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}examples/js/index.html`);
    await page.waitForFunction(() => document.title.endsWith('private runs drawn'), null, { timeout: 60_000 });
    assert.equal(await page.title(), '6 private runs drawn');
    assert.ok(await inkFraction(page, 'chart') > 0.02, 'the chart has ink');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
