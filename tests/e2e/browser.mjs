// Shared helpers for the end-to-end tests: a static server on loopback for
// www/, and Debian's chromium driven by playwright-core (no browser download).
import { chromium } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import assert from 'node:assert/strict';
import { before, after } from 'node:test';
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';

const ROOT = resolve(new URL('../../www', import.meta.url).pathname);
// The tests' hooks (tests/e2e/hooks/), served beside www/ at /test-hooks/: never part of the page.
const HOOKS = resolve(new URL('./hooks', import.meta.url).pathname);
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Serves `root` (default: www/, with the tests' hooks at /test-hooks/) on 127.0.0.1 at a free port;
 * resolves to { url, close }. */
export async function serve(root = ROOT) {
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      const hooks = root === ROOT && path.startsWith('/test-hooks/');
      const base = hooks ? HOOKS : root;
      let file = normalize(join(base, hooks ? path.slice('/test-hooks'.length) : path));
      if (!file.startsWith(base)) throw new Error('outside root');
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] || 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
}

/**
 * The tests' hook on a page (before it loads; nothing of it is in the page):
 * `window.dpExplorerTest.panicNextRun(message)` makes the first worker of the
 * next Run panic inside the wasm module with `message`. The page's workers
 * become tests/e2e/hooks/worker.js (its worker.js plus the hook), and the next
 * Run's message to its first worker carries the mark (`testPanic`) that the
 * hook turns into the panic. Needs www/pkg/ from `make build-e2e`.
 */
export async function installTestHooks(page) {
  await page.addInitScript(() => {
    const PageWorker = window.Worker;
    let panic = null;
    window.dpExplorerTest = { panicNextRun: (message) => { panic = message; } };
    window.Worker = class extends PageWorker {
      constructor(url, options) {
        const u = new URL(url, window.location.href);
        if (u.pathname.endsWith('/worker.js')) u.pathname = u.pathname.replace(/worker\.js$/, 'test-hooks/worker.js');
        super(u, options);
      }

      postMessage(message, ...rest) {
        if (panic !== null && message && message.type === 'run') {
          message = { ...message, testPanic: panic };
          panic = null;
        }
        super.postMessage(message, ...rest);
      }
    };
  });
}

/** Waits until <body data-status> is one of `states`. */
export async function waitStatus(page, states, timeout = 60_000) {
  await page.waitForFunction((s) => s.includes(document.body.dataset.status), states, { timeout });
  return page.evaluate(() => document.body.dataset.status);
}

/** Fraction of a canvas's pixels that are not white. */
export async function inkFraction(page, id) {
  return page.evaluate((canvasId) => {
    const c = document.getElementById(canvasId);
    const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
    let ink = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i] < 240 || data[i + 1] < 240 || data[i + 2] < 240) ink += 1;
    }
    return ink / (data.length / 4);
  }, id);
}

/**
 * For a test file: serves www/ and launches chromium before its tests, and
 * closes both after them. Returns `{ server, browser }`, filled in by `before`.
 */
export function servedBrowser() {
  const env = {};
  before(async () => {
    env.server = await serve();
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}

/**
 * A page of `env`'s server (or `base`) in a browser context of its own (axe asks for one; closed with
 * the page), its uncaught errors collected in `errors`; waits until the status is one of `states`
 * (none: does not wait). `init` runs in the page before its scripts (e.g. an observer to install).
 */
export async function openPage(env, query = '', {
  viewport = { width: 1366, height: 768 }, states = ['idle', 'error'], deviceScaleFactor = 1, init = null, autoRun = true,
} = {}) {
  const context = await env.browser.newContext({ viewport, deviceScaleFactor, acceptDownloads: true });
  const page = await context.newPage();
  // Not awaited by anyone: a close racing the browser's own shutdown after the
  // last test must not become an unhandled rejection.
  page.on('close', () => context.close().catch(() => {}));
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  if (init) await page.addInitScript(init);
  await page.goto(`${env.server.url}${query}`);
  if (states) await waitStatus(page, states);
  // `autoRun` false: an edit does not re-run by itself (the "re-run on change" box off, as a reader would).
  if (!autoRun) await page.uncheck('#auto-run');
  return { page, errors };
}

/** Presses Run and waits for the sweep to finish; fails with the page's error if it did not. */
export async function runToDone(page, timeout = 60_000) {
  await page.click('#run');
  const status = await waitStatus(page, ['done', 'error'], timeout);
  assert.equal(status, 'done', await page.textContent('#error'));
}

/**
 * Starts a long run as a user would: Run, and Run again when the page asks to confirm a run estimated over
 * its long-run limit (how long a run is estimated depends on the machine's probe).
 */
export async function startLongRun(page) {
  await page.click('#run');
  await page.waitForFunction(() => document.body.dataset.status === 'running'
    || /Press Run again/.test(document.getElementById('status').textContent), null, { timeout: 30_000 });
  if (await page.evaluate(() => document.body.dataset.status !== 'running')) await page.click('#run');
  await waitStatus(page, ['running']);
}

/** No axe-core violation in the page's current state (`state` names it in the failure). */
export async function accessible(page, state = '') {
  const { violations } = await new AxeBuilder({ page }).analyze();
  assert.deepEqual(
    violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    [],
    `axe violations (${state})`,
  );
}

/** A test's end: the page passes axe in `state` and threw no error; then it is closed. */
export async function closeClean(page, errors, state) {
  await accessible(page, state);
  await closeErrorFree(page, errors);
}

/** A test's end where axe is not what it checks: the page threw no error; then it is closed. */
export async function closeErrorFree(page, errors) {
  assert.deepEqual(errors, []);
  await page.close();
}

/**
 * Fills setting `name` of the settings form with `value` (a menu: selects it), first opening "More
 * settings" if the setting is folded there, as a reader would.
 */
export async function fillField(page, name, value) {
  await page.evaluate((id) => {
    const details = document.getElementById(id)?.closest('details');
    if (details) details.open = true;
  }, name);
  const input = page.locator(`#${name}`);
  if (await input.evaluate((el) => el.tagName === 'SELECT')) await input.selectOption(String(value));
  else await input.fill(String(value));
}
