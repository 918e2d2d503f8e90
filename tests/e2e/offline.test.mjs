// Offline after the first visit (the hosted build, dist/ from `make dist`):
// the service worker keeps the app shell, the module and the descriptions, so
// with the network off (and the server gone) the page reloads and runs a
// preset to done; a new release is picked up on the next visit, and the page
// says so. Each test serves its own copy of dist/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launch, serve, waitStatus } from './browser.mjs';

const DIST = resolve(new URL('../../dist', import.meta.url).pathname);
const skip = existsSync(join(DIST, 'pkg/precache.js')) ? false : 'dist/ is not built: run `make dist`';

async function site() {
  const dir = mkdtempSync(join(tmpdir(), 'dp-dist-'));
  cpSync(DIST, dir, { recursive: true });
  return { dir, server: await serve(dir) };
}

/** Opens the page and waits until the module is loaded and the service worker controls the page. */
async function openControlled(context, url) {
  const page = await context.newPage();
  await page.goto(url);
  await waitStatus(page, ['idle']);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
  return page;
}

test('after one visit the page reloads with the network off and runs a preset to done', { skip }, async () => {
  const { server } = await site();
  const browser = await launch();
  try {
    const context = await browser.newContext();
    const page = await openControlled(context, server.url);
    // A small sweep of the first preset of another scenario than the default: its fields come from the cache too.
    const target = await page.evaluate(async () => {
      const d = await (await fetch(document.querySelector('link[type="application/json"]').href)).json();
      const s = d.scenarios.find((x) => !x.presets.some((p) => p.name === d.default_preset)) || d.scenarios[0];
      return s.presets[0].name;
    });
    await context.setOffline(true);
    await server.close();
    await page.goto(`${server.url}?preset=${target}`);
    assert.equal(await page.evaluate(() => navigator.onLine), false);
    assert.equal(await waitStatus(page, ['idle', 'error'], 30_000), 'idle', await page.textContent('#error'));
    assert.equal(await page.inputValue('#preset'), target);
    await page.click('#run');
    // A run estimated over the page's limit asks for a second press.
    if (await waitStatus(page, ['running', 'idle', 'done', 'error'], 5_000) === 'idle') await page.click('#run');
    assert.equal(await waitStatus(page, ['done', 'error'], 120_000), 'done', await page.textContent('#error'));
    // The server is gone: nothing could have come from the network.
    assert.equal(await page.evaluate(() => fetch('not-cached.txt').then(() => 'fetched', () => 'failed')), 'failed');
    await context.close();
  } finally {
    await browser.close();
  }
});

test('a new release is picked up on the next visit, and the page says so', { skip }, async () => {
  const { dir, server } = await site();
  const browser = await launch();
  try {
    const context = await browser.newContext();
    const page = await openControlled(context, server.url);
    assert.equal(await page.isVisible('#update-note'), false);
    // A new release: a changed stylesheet (under its old name: only the test does that), and the build's
    // list and version.
    const css = await page.getAttribute('link[rel="stylesheet"]', 'href');
    appendFileSync(join(dir, css), '\n/* release 2 */\n');
    execFileSync('node', [new URL('../../scripts/dist-assets.mjs', import.meta.url).pathname, dir], { stdio: 'ignore' });
    // The next visit finds it: the new worker takes over and the page says it is downloaded.
    await page.reload();
    await page.waitForSelector('#update-note:not([hidden])', { timeout: 30_000 });
    assert.match(await page.textContent('#update-note'), /new version .* downloaded/);
    // The visit after runs it, and says so.
    await page.reload();
    await waitStatus(page, ['idle']);
    await page.waitForSelector('#update-note:not([hidden])', { timeout: 10_000 });
    assert.match(await page.textContent('#update-note'), /updated since your last visit/);
    assert.match(await page.evaluate((href) => fetch(href).then((r) => r.text()), css), /release 2/);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
});
