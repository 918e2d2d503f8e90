// The trade-off chart of the run shown (Explain ε): after a run it draws the accountant's exact curve for the
// run at the selected ε (its TPR at FPR 0.01 is Φ(Φ⁻¹(0.01) + μ) for the μ it names), follows the ε slider,
// shows the low-FPR regime on a log x axis, and after an audit draws the audit's attack as points with their
// Clopper–Pearson boxes (the deliberately broken runs' too); axe finds nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { servedBrowser, openPage, runToDone, inkFraction, accessible } from './browser.mjs';

const env = servedBrowser();

/** Φ by Simpson's rule on the normal density (independent of the module's Φ). */
function phi(x) {
  const f = (t) => Math.exp(-0.5 * t * t) / Math.sqrt(2 * Math.PI);
  const [a, n] = [-12, 20000];
  const h = (x - a) / n;
  let s = f(a) + f(x);
  for (let i = 1; i < n; i += 1) s += f(a + i * h) * (i % 2 ? 4 : 2);
  return (s * h) / 3;
}

/** Φ⁻¹ by bisection on `phi`. */
function phiInverse(p) {
  let [lo, hi] = [-12, 12];
  for (let i = 0; i < 60; i += 1) {
    const mid = (lo + hi) / 2;
    if (phi(mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** The trade-off table's rows, as arrays of cell texts. */
const rows = (page) => page.$$eval('#tradeoff-table tbody tr', (rs) => rs.map((r) => [...r.children].map((c) => c.textContent)));
const notes = (page) => page.$$eval('#tradeoff .tradeoff-notes li', (l) => l.map((x) => x.textContent));

async function audit(page, { runs = 200, broken = false } = {}) {
  await page.fill('#audit-runs', String(runs));
  if (broken) await page.check('#audit-broken');
  else await page.uncheck('#audit-broken');
  await page.click('#audit-run');
  await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.audit), null, { timeout: 90_000 });
  assert.equal(await page.evaluate(() => document.body.dataset.audit), 'done', await page.textContent('#audit-status'));
}

test('the trade-off chart draws the accountant\'s curve, follows the slider, and after an audit its boxed points', async () => {
  const { page, errors } = await openPage(env, '?preset=dpgd-quick&calibration=exact&epsilons=2,4&epsilons-selected=4',
    { viewport: { width: 1280, height: 900 } });
  assert.ok(await page.evaluate(() => document.getElementById('tradeoff').hidden), 'hidden before a run');
  await runToDone(page);
  await page.waitForFunction(() => !document.getElementById('tradeoff').hidden);
  assert.ok((await inkFraction(page, 'tradeoff-chart')) > 0.02, 'the chart has ink');
  assert.match(await page.textContent('#tradeoff .help'), /target ε = 4/);

  // The accountant's exact curve, read in the table at FPR 0.01, is Φ(Φ⁻¹(0.01) + μ) for the μ the notes name.
  const curveAt = async () => {
    const said = (await notes(page))[0];
    const mu = Number(said.match(/μ = ([0-9.]+)/)[1]);
    const row = (await rows(page)).find((r) => r[0].startsWith('exact curve') && r[1] === '0.01');
    return { mu, tpr: Number(row[2]) };
  };
  const at4 = await curveAt();
  // μ is shown rounded up to 4 digits, the TPR too: both within 2e-3 of the exact value.
  assert.ok(Math.abs(at4.tpr - phi(phiInverse(0.01) + at4.mu)) < 2e-3, JSON.stringify(at4));
  assert.ok(at4.tpr > 0.01, 'above the coin flip');

  // The slider selects ε = 2: the chart shows that run, a smaller μ and a lower curve.
  const before = await page.evaluate(() => document.getElementById('tradeoff-chart').toDataURL());
  await page.focus('#epsilons-slider');
  await page.keyboard.press('Home');
  await page.waitForFunction(() => /target ε = 2\b/.test(document.querySelector('#tradeoff .help').textContent));
  const at2 = await curveAt();
  assert.ok(at2.mu < at4.mu && at2.tpr < at4.tpr, `${JSON.stringify(at2)} against ${JSON.stringify(at4)}`);
  assert.notEqual(await page.evaluate(() => document.getElementById('tradeoff-chart').toDataURL()), before);

  // A log x axis reaches the low-FPR regime: ticks below 0.01.
  await page.check('#tradeoff-chart-logx');
  const ticks = await page.$eval('#tradeoff-chart', (c) => c.dataset.xTicks);
  assert.ok(ticks.split(/[ ,]+/).map(Number).some((x) => x > 0 && x < 0.01), ticks);
  await page.uncheck('#tradeoff-chart-logx');

  // An audit: its attack on the run shown as a point with its box (both rates' 95 % intervals in the table).
  await audit(page, { runs: 200 });
  await page.waitForFunction(() => [...document.querySelectorAll('#tradeoff-table tbody tr')]
    .some((r) => r.firstElementChild.textContent.startsWith('audit\'s attack')));
  const attack = (await rows(page)).find((r) => r[0].startsWith('audit\'s attack'));
  const [flo, fhi] = attack[3].split(' – ').map(Number);
  const [tlo, thi] = attack[4].split(' – ').map(Number);
  assert.ok(flo <= Number(attack[1]) && Number(attack[1]) <= fhi && fhi > flo, attack.join('|'));
  assert.ok(tlo <= Number(attack[2]) && Number(attack[2]) <= thi && thi > tlo, attack.join('|'));
  assert.ok((await notes(page)).some((n) => /audit's attack on .* Clopper–Pearson .*does not contradict/.test(n)),
    (await notes(page)).join('\n'));
  await accessible(page, 'the trade-off chart after an audit');

  // The deliberately broken runs: their points are drawn, said to be broken.
  await audit(page, { runs: 200, broken: true });
  await page.waitForFunction(() => [...document.querySelectorAll('#tradeoff .tradeoff-notes li')]
    .some((l) => l.textContent.includes('deliberately broken')));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a pure-ε run draws the pure-DP region and says there is no Gaussian curve', async () => {
  const { page, errors } = await openPage(env, '?preset=jl-exact&epsilons=1,2', { viewport: { width: 390, height: 844 } });
  await runToDone(page);
  await page.waitForFunction(() => !document.getElementById('tradeoff').hidden);
  const said = (await notes(page)).join('\n');
  assert.match(said, /no Gaussian trade-off curve/);
  assert.match(said, /pure-DP region with ε = 1 and δ = 0/);
  assert.ok((await rows(page)).every((r) => !r[0].startsWith('exact curve')));
  assert.ok((await inkFraction(page, 'tradeoff-chart')) > 0.02);
  await accessible(page, 'the trade-off chart of a pure-ε run on a phone');
  assert.deepEqual(errors, []);
  await page.close();
});
