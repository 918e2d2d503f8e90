// Hostile input never leaves the page stuck: a panic inside a worker reaches
// the page as a message within 2 s and the next Run works; links with hostile
// values end in a message at a field or in a finished run, never in a
// "running" that does not end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { waitStatus, servedBrowser, installTestHooks } from './browser.mjs';

const env = servedBrowser();

async function open(query, { hooks = false } = {}) {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  if (hooks) await installTestHooks(page);
  await page.goto(`${env.server.url}${query}`);
  await waitStatus(page, ['idle', 'error']);
  if (hooks) {
    const built = await page.evaluate(async () => 'debug_panic' in await import('./pkg/dp_explorer.js'));
    assert.ok(built, 'www/pkg/ was built without the cargo feature test-hooks: run `make build-e2e`');
  }
  return { page, errors };
}

test('a panic inside a worker is reported within 2 s and the next Run works', async () => {
  const { page, errors } = await open('?preset=fedrep-paper&n=2000&epsilons=1,4', { hooks: true });
  await page.uncheck('#auto-run');
  await page.evaluate(() => window.dpExplorerTest.panicNextRun('test-only panic'));
  const t0 = Date.now();
  await page.click('#run');
  assert.equal(await waitStatus(page, ['error', 'done'], 2_000), 'error');
  const seconds = (Date.now() - t0) / 1000;
  assert.match(await page.textContent('#error'), /internal error[\s\S]*test-only panic/);
  console.log(`# a worker's panic reached the page in ${seconds.toFixed(2)} s`);
  await page.click('#run');
  assert.equal(await waitStatus(page, ['done', 'error'], 60_000), 'done', await page.textContent('#error'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a panic in a worker of a run whose users the workers share is reported, and the next Run works', async () => {
  const { page, errors } = await open('?preset=fedrep-paper&n=70000&epsilons=1&altmin=off&rounds=2', { hooks: true });
  await page.uncheck('#auto-run');
  await page.evaluate(() => window.dpExplorerTest.panicNextRun('test-only panic'));
  await page.click('#run');
  assert.equal(await waitStatus(page, ['error', 'done'], 2_000), 'error');
  assert.match(await page.textContent('#error'), /internal error[\s\S]*test-only panic/);
  const workers = await page.evaluate(() => Math.max(1, navigator.hardwareConcurrency || 2));
  if (workers > 1) assert.equal(await page.evaluate(() => document.body.dataset.pool), `users:${workers}`);
  // The other workers (parked or computing their share) were cancelled; a fresh group finishes.
  await page.click('#run');
  assert.equal(await waitStatus(page, ['done', 'error'], 120_000), 'done', await page.textContent('#error'));
  assert.deepEqual(errors, []);
  await page.close();
});

const HOSTILE = [
  '?preset=',
  '?preset=&n=200',
  '?preset=DPGD-QUICK&seeds=2',
  '?preset=fedrep-paper&n=NaN',
  '?preset=fedrep-paper&n=1e308',
  '?preset=fedrep-paper&delta=5e-324',
  '?preset=fedrep-paper&epsilons=inf',
  '?preset=fedrep-paper&epsilons=1e-300&delta=1e-200',
  '?preset=fedrep-paper&k=18446744073709551616',
  '?preset=fedrep-paper&clip=%F0%9F%98%80',
  '?preset=fedrep-paper&init=%3Cscript%3E',
  '?preset=fedrep-paper&step=-1&m=1&rounds=0',
  '?preset=dpgd-quick&p_grid=0,0&epsilons=',
  '?preset=dpgd-quick&label_noise=-1&target=linear',
  `?preset=fedrep-paper&${'x'.repeat(3000)}=1`,
];

test('hostile links end in a message or a finished run, never a stuck page', async () => {
  for (const query of HOSTILE) {
    const { page, errors } = await open(query);
    let status = await page.evaluate(() => document.body.dataset.status);
    if (status === 'idle') {
      await page.click('#run');
      status = await waitStatus(page, ['done', 'error', 'idle'], 60_000);
    }
    assert.ok(['done', 'error', 'idle'].includes(status), `${query.slice(0, 80)}: ${status}`);
    if (status === 'error') {
      const message = (await page.textContent('#error')) + (await page.$$eval('.error', (els) => els.map((e) => e.textContent).join(' ')));
      assert.ok(message.trim().length > 0, `${query.slice(0, 80)}: an error with no message`);
    }
    assert.equal(await page.$$eval('script:not([src])', (s) => s.length), 0, 'no injected script');
    assert.deepEqual(errors, [], query.slice(0, 80));
    await page.close();
  }
});
