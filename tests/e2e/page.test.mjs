// End-to-end tests of the served page in headless Debian chromium: the default
// sweep runs to the end with both charts drawn and tables filled, bad input is
// refused with a message at the field, Stop stops, and the URL carries the state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { waitStatus, inkFraction, servedBrowser, fillField, startLongRun } from './browser.mjs';

const env = servedBrowser();

async function open(query = '') {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  const foreign = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => {
    if (!r.url().startsWith(env.server.url) && !r.url().startsWith('blob:') && !r.url().startsWith('data:')) foreign.push(r.url());
  });
  await page.goto(`${env.server.url}${query}`);
  await waitStatus(page, ['idle', 'error']);
  return { page, errors, foreign };
}

/** The page says its run was stopped, and a small run of `settings` ({ name: text }) typed after it
 * finishes (a stopped run leaves the page usable); closes the page. */
async function stoppedThenSmallRun(page, settings) {
  assert.match(await page.textContent('#status'), /Stopped/);
  for (const [name, value] of Object.entries(settings)) await fillField(page, name, value);
  await page.click('#run');
  assert.equal(await waitStatus(page, ['done', 'error'], 60_000), 'done');
  await page.close();
}

test('the default sweep runs to the end with both charts drawn and both tables filled', async () => {
  const { page, errors, foreign } = await open();
  assert.equal(await page.inputValue('#n'), '20000');
  assert.equal(await page.inputValue('#epsilons'), '1,2,4,6,8');
  await page.click('#run');
  await waitStatus(page, ['running', 'done']);
  const final = await waitStatus(page, ['done', 'error'], 120_000);
  assert.equal(final, 'done', await page.textContent('#error'));
  assert.ok(await inkFraction(page, 'risk-chart') > 0.02, 'risk chart has ink');
  assert.ok(await inkFraction(page, 'angle-chart') > 0.02, 'angle chart has ink');
  const riskRows = await page.$$eval('#risk-table tbody tr', (rs) => rs.map((r) => [...r.children].map((c) => c.textContent)));
  const methods = riskRows.map((r) => r[0]);
  assert.ok(methods.includes('FedRep (non-private)') && methods.includes('local GD (non-private)'), methods.join('|'));
  const privateRows = riskRows.filter((r) => r[0] === 'Private FedRep');
  assert.equal(privateRows.length, 5);
  // Risk falls as ε grows (ε = 1 versus ε = 8) and every number is a number.
  const risk = (row) => Number(row[2]);
  assert.ok(privateRows.every((r) => Number.isFinite(risk(r))));
  assert.ok(risk(privateRows[0]) > risk(privateRows[4]), `${risk(privateRows[0])} vs ${risk(privateRows[4])}`);
  const altminRows = riskRows.filter((r) => r[0] === 'Priv-AltMin');
  assert.equal(altminRows.length, 5, 'Priv-AltMin is in the default sweep');
  assert.ok(risk(altminRows[0]) > risk(altminRows[4]));
  const angleRows = await page.$$eval('#angle-table tbody tr', (rs) => rs.length);
  assert.ok(angleRows >= 6, `angle rows ${angleRows}`);
  // The explain-ε panel names the mechanism, the relation and the ε spent, as text.
  const panel = await page.textContent('#privacy-panel');
  assert.match(panel, /spends ε = 1 at δ = 1e-6/);
  assert.match(panel, /replace-one/);
  assert.match(panel, /Gaussian noise on the mean of n clipped gradients/);
  assert.match(panel, /RDP, improved conversion/);
  assert.match(panel, /differentially private for each user/);
  // The URL now carries every setting.
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('n'), '20000');
  assert.equal(url.searchParams.get('epsilons'), '1,2,4,6,8');
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, [], 'no request leaves the page origin');
  await page.close();
});

test('k larger than d is refused with a message at the field and nothing runs', async () => {
  const { page } = await open();
  await fillField(page, 'd', '10');
  await fillField(page, 'k', '20');
  await page.click('#run');
  assert.equal(await waitStatus(page, ['error']), 'error');
  assert.match(await page.textContent('#k-error'), /k must be ≤ d \(got k = 20, d = 10\)/);
  assert.equal(await page.getAttribute('#k', 'aria-invalid'), 'true');
  assert.equal(await page.isVisible('#error'), true);
  assert.equal(await page.$eval('#progress', (p) => p.value), 0);
  // Fixing the field clears the error state; the page stays usable (a short
  // run then starts by itself).
  await fillField(page, 'k', '2');
  await waitStatus(page, ['idle', 'running', 'done']);
  assert.equal(await page.textContent('#k-error'), '');
  await page.close();
});

test('non-numbers and out-of-range privacy parameters are named at their fields', async () => {
  const { page } = await open();
  await fillField(page, 'n', 'abc');
  await fillField(page, 'epsilons', '0,2');
  await fillField(page, 'delta', '1');
  await page.click('#run');
  await waitStatus(page, ['error']);
  assert.match(await page.textContent('#n-error'), /whole number/);
  assert.match(await page.textContent('#epsilons-error'), /ε must be in \[0\.001, 100\] \(got 0\)/);
  // Named by its label (δ), not its internal key.
  assert.match(await page.textContent('#delta-error'), /^δ must be in \[1e-300, 1\) \(got 1\)/);
  await page.close();
});

test('a setting over the memory budget is refused with its size and a smaller n', async () => {
  // 10⁷ users with k = 20: the heads alone are 1.6 GB, over the 1 GiB budget.
  const { page } = await open('?n=10000000&d=100&k=20');
  await page.click('#run');
  assert.equal(await waitStatus(page, ['error']), 'error');
  const message = await page.textContent('#n-error');
  assert.match(message, /needs about \d+ MB, over the 1024 MB budget/);
  const suggested = Number(message.match(/e\.g\. n = (\d+)/)[1]);
  assert.ok(suggested > 0 && suggested < 10000000, message);
  assert.equal(await page.$eval('#progress', (p) => p.value), 0);
  // The suggested n is accepted.
  await fillField(page, 'n', String(suggested));
  await waitStatus(page, ['idle']);
  assert.equal(await page.textContent('#n-error'), '');
  await page.close();
});

test('Stop ends a long run and the page stays usable', async () => {
  // 1000 rounds per run: long enough to be stopped in the middle.
  const { page } = await open('?preset=fedrep-paper&rounds=1000');
  await startLongRun(page);
  await page.waitForFunction(() => document.getElementById('progress').value > 0, null, { timeout: 30_000 });
  await page.click('#stop');
  assert.equal(await waitStatus(page, ['idle'], 10_000), 'idle');
  // A new, small run still works afterwards.
  await stoppedThenSmallRun(page, { n: '2000', rounds: '5', epsilons: '2,8' });
});

test('Stop ends a run whose users the workers share, within a second', async () => {
  const { page } = await open('?preset=fedrep-paper&n=1000000&epsilons=1&altmin=off');
  await page.click('#run');
  await waitStatus(page, ['running']);
  await page.waitForFunction(() => document.getElementById('progress').value > 0, null, { timeout: 60_000 });
  const workers = await page.evaluate(() => Math.max(1, navigator.hardwareConcurrency || 2));
  if (workers > 1) {
    assert.equal(await page.evaluate(() => document.body.dataset.pool), `users:${workers}`);
    assert.match(await page.textContent('#status'), /workers sharing the users/);
  }
  const t0 = Date.now();
  await page.click('#stop');
  assert.equal(await waitStatus(page, ['idle'], 10_000), 'idle');
  const seconds = (Date.now() - t0) / 1000;
  console.log(`# a run split by users stopped in ${seconds.toFixed(2)} s`);
  assert.ok(seconds < 1.5, `stopped in ${seconds} s`);
  // A new, small run (split by runs) still works afterwards.
  await stoppedThenSmallRun(page, { n: '2000', epsilons: '2,8' });
});

test('a shared link reproduces the run that produced it', async () => {
  const query = '?preset=fedrep-paper&n=3000&d=20&epsilons=1,4&seed=7';
  const first = await open(query);
  await first.page.click('#run');
  await waitStatus(first.page, ['done'], 60_000);
  const table = await first.page.textContent('#risk-table');
  const link = first.page.url();
  await first.page.close();
  const second = await open(link.slice(env.server.url.length));
  assert.equal(await second.page.inputValue('#d'), '20');
  assert.equal(await second.page.inputValue('#seed'), '7');
  await second.page.click('#run');
  await waitStatus(second.page, ['done'], 60_000);
  assert.equal(await second.page.textContent('#risk-table'), table);
  await second.page.close();
});

test('a hostile URL value gives a message, never a crash or injected markup', async () => {
  const { page, errors } = await open('?preset=fedrep-paper&n=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&bogus=1');
  assert.equal(await page.evaluate(() => document.body.dataset.status), 'error');
  assert.match(await page.textContent('#n-error'), /whole number/);
  assert.equal(await page.$$eval('img', (imgs) => imgs.length), 0);
  assert.match(await page.textContent('#error'), /ignored unknown settings in the link: bogus/);
  assert.deepEqual(errors, []);
  const unknown = await open('?preset=nonsense');
  assert.match(await unknown.page.textContent('#error'), /no preset named “nonsense”: showing the default/);
  await unknown.page.close();
  await page.close();
});
