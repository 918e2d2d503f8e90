// The audit panel: on a scenario with an audit, a small audit runs to done in
// its worker with both charts drawn and the bounds said in words (honest runs
// under the accountant's ε, broken runs caught); the pure-ε exponential
// mechanism is judged by Clopper–Pearson alone; a settings change clears it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { waitStatus, inkFraction, servedBrowser, fillField } from './browser.mjs';

const env = servedBrowser();

async function open(query) {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${env.server.url}?${query}`);
  await waitStatus(page, ['idle']);
  return { page, errors };
}

async function audit(page, { runs = 300, broken = false } = {}) {
  await page.fill('#audit-runs', String(runs));
  if (broken) await page.check('#audit-broken');
  await page.click('#audit-run');
  await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.audit), null, { timeout: 60_000 });
  assert.equal(await page.evaluate(() => document.body.dataset.audit), 'done', await page.textContent('#audit-status'));
  return page.$$eval('#audit-notes li', (l) => l.map((x) => x.textContent));
}

test('a DP-GD audit runs to done: both charts drawn, honest runs under the claim, broken ones caught', async () => {
  const { page, errors } = await open('preset=dpgd-quick&calibration=exact&epsilons=4');
  let notes = await audit(page, { runs: 400 });
  for (const id of ['audit-eps-chart', 'audit-tradeoff-chart']) {
    assert.ok((await inkFraction(page, id)) > 0.02, `${id} has ink`);
  }
  assert.ok(notes.some((n) => n.includes('as it must be')), notes.join('\n'));
  assert.ok(!(await page.isDisabled('#audit-csv')));
  notes = await audit(page, { runs: 400, broken: true });
  assert.ok(notes.some((n) => n.includes('a privacy bug, caught')), notes.join('\n'));
  // A settings change: the audit no longer describes the settings.
  await fillField(page, 'n', '120');
  await page.waitForFunction(() => document.getElementById('audit-csv').disabled);
  assert.equal(await page.locator('#audit-notes li').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a finished audit marks the audited points on the ε chart; an edit takes the marks away', async () => {
  const { page, errors } = await open('preset=dpgd-quick&calibration=exact&epsilons=4');
  await page.click('#run');
  assert.equal(await waitStatus(page, ['done', 'error'], 60_000), 'done');
  const pixels = () => page.evaluate(() => document.getElementById('dpgd-eps-chart').toDataURL());
  const before = await pixels();
  await audit(page, { runs: 200 });
  await page.waitForFunction((b) => document.getElementById('dpgd-eps-chart').toDataURL() !== b, before);
  // Explain ε draws the audit's attack inside the (FPR, TPR) region of the audited run.
  await page.waitForFunction(() => document.querySelectorAll('#privacy-content .attack-region circle.attack').length > 0);
  assert.match(await page.textContent('#privacy-content figcaption'), /dots: the audit's attack/);
  // An edit: the audit no longer describes the settings, and its marks go.
  await page.uncheck('#auto-run');
  await fillField(page, 'n', '120');
  await page.waitForFunction((b) => document.getElementById('dpgd-eps-chart').toDataURL() === b, before);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the exponential mechanism\'s audit (pure ε) runs to done with the Clopper–Pearson route only', async () => {
  const { page, errors } = await open('preset=jl-random&epsilons=1');
  assert.ok(!(await page.isDisabled('#audit-run')));
  const notes = await audit(page, { runs: 1000 });
  assert.ok(notes.some((n) => n.includes('does not apply to a pure-ε mechanism')), notes.join('\n'));
  assert.ok(notes.some((n) => n.includes('as it must be')), notes.join('\n'));
  for (const id of ['audit-eps-chart', 'audit-tradeoff-chart']) {
    assert.ok((await inkFraction(page, id)) > 0.02, `${id} has ink`);
  }
  assert.match(await page.textContent('#audit-tradeoff-table'), /pure ε = 1/);
  // Each note's verdict first, in one short line; what decided it folded under it.
  const verdicts = await page.$$eval('#audit-notes li details > summary', (l) => l.map((x) => x.textContent));
  assert.ok(verdicts.length >= 2 && verdicts.every((v) => v.length <= 160), verdicts.join('\n'));
  assert.match(verdicts[0], /^consistent: [\d.]+ ≤ 1\b/);
  // Broken: before it runs, the panel says which ε this size can catch (and why not the others).
  await page.fill('#audit-runs', '4000');
  await page.check('#audit-broken');
  await page.waitForFunction(() => /can be expected to be caught at/.test(document.getElementById('audit-estimate').textContent));
  assert.match(await page.textContent('#audit-estimate'), /At 4000 runs per side the broken runs can be expected to be caught at ε = 1 \(expected lower bound/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('after switching scenario with the preset menu the audit can run at once', async () => {
  const { page, errors } = await open('preset=dpgd-quick');
  // Another scenario's preset with private runs (the audit has something to attack), picked from the
  // menu as a user would.
  const other = await page.$$eval('#preset option', (os) => os.map((o) => o.value).find((v) => v.startsWith('flute') && v.includes('private')));
  assert.ok(other, 'a private FLUTE preset is in the menu');
  await page.selectOption('#preset', other);
  await page.waitForFunction(() => document.body.dataset.scenario === 'flute');
  await page.waitForFunction(() => !document.getElementById('audit-run').disabled, null, { timeout: 10_000 });
  assert.match(await page.textContent('#audit-status'), /Run audit/);
  assert.deepEqual(errors, []);
  await page.close();
});
