// Issue 42: the privacy target as an attacker's success. The switch "privacy target: ε / attacker's
// success" shows the risks in place of the ε list; a run driven by it is calibrated to that risk, so its
// Explain ε finds the attacker's success at risk_fpr back within 0.5 % of the value set; the address
// keeps the switch; the privacy statement names the risk and goes into the JSON export and, in one line,
// under an exported SVG chart; the ε chart's x axis is the attacker's success, and the risks' slider
// reads out both units; axe finds nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { accessible, closeClean, openPage, runToDone, servedBrowser, waitStatus } from './browser.mjs';

const env = servedBrowser();

/** The bytes of the file a click on `selector` downloads (as text with `encoding`). */
async function downloaded(page, selector, encoding = 'utf8') {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return readFile(await download.path(), encoding);
}

test("the switch to attacker's success drives a run calibrated to that risk", async () => {
  const { page, errors } = await openPage(env, '?preset=fedrep-paper&n=2000&altmin=off', { viewport: { width: 1366, height: 900 }, autoRun: false });
  assert.ok(await page.isVisible('#epsilons'));
  assert.ok(await page.isHidden('#risks'));
  await page.check('#privacy-target-risk');
  assert.ok(await page.isHidden('#epsilons'));
  assert.ok(await page.isVisible('#risks'));
  const tpr = 0.2;
  await page.fill('#risks', String(tpr));
  await runToDone(page, 120_000);
  // The address keeps the switch: the risks, and no ε list (the risks imply it).
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('risks'), String(tpr));
  assert.equal(url.searchParams.get('epsilons'), null);
  // Explain ε: "… wrongly accuses … at most 1 of the 100 outsiders finds … at most N of the 100 insiders".
  const fpr = Number(await page.inputValue('#risk_fpr'));
  assert.equal(fpr, 0.01, 'the frequencies are stated at 1 of 100 outsiders, the default risk_fpr');
  const panel = await page.textContent('#privacy-panel');
  const found = Number(/at most ([\d.]+) of the 100 insiders/.exec(panel)[1]) / 100;
  assert.ok(Math.abs(found - tpr) <= 0.005 * tpr, `the attacker's success at FPR ${fpr}: ${found}, set ${tpr}`);
  // The ε chart shows the attacker's success on its x axis: its ticks are risks, its label says so.
  const ticks = (await page.$eval('#risk-chart', (c) => c.dataset.xTicks)).split(' ').map(Number);
  assert.ok(ticks.length >= 2 && ticks.every((t) => t >= 0 && t <= 1), `x ticks ${ticks}`);
  // The slider is the risks' list: its readout names the risk and the ε it stands for.
  await page.focus('#risks-slider');
  await page.keyboard.press('End');
  await page.waitForFunction(() => /attacker's success 0\.2 \(ε = [\d.]+\)/.test(document.getElementById('risks-readout').textContent));
  const readout = await page.textContent('#risks-readout');
  const eps = Number(/\(ε = ([\d.]+)\)/.exec(readout)[1]);
  assert.ok(eps > 1 && eps < 20, readout);
  const statement = await page.textContent('#privacy-statement');
  assert.match(statement, /calibrated to a risk \(Kulynych & Gomez 2024\): an attacker's true-positive rate of at most 0\.2 at a false-positive rate of 0\.01/);
  // The exports carry the statement: whole in the JSON, in one line under an SVG chart.
  const json = JSON.parse(await downloaded(page, '#export-json'));
  assert.equal(json.privacy_statement, statement);
  assert.equal(json.risks, String(tpr));
  const svg = await downloaded(page, '#risk-chart-svg');
  assert.match(svg, /Privacy: Private FedRep: Gaussian mechanism, replace-one, ε = [\d.]+ at δ = 1e-6, exact GDP accountant/);
  // The PNG: the canvas as drawn with the footer's strip under it (PNG's IHDR: width, height at 16, 20).
  const png = await downloaded(page, '#risk-chart-png', null);
  const canvas = await page.$eval('canvas#risk-chart', (c) => ({ width: c.width, height: c.height }));
  assert.equal(png.readUInt32BE(16), canvas.width);
  assert.ok(png.readUInt32BE(20) > canvas.height, `PNG ${png.readUInt32BE(20)} px high, canvas ${canvas.height}`);
  await accessible(page, "risk target, done");
  // A reload of the address opens on attacker's success; switching back lets the ε list drive.
  await page.goto(page.url());
  await waitStatus(page, ['idle', 'error']);
  assert.ok(await page.isChecked('#privacy-target-risk'));
  assert.equal(await page.inputValue('#risks'), String(tpr));
  await page.check('#privacy-target-epsilon');
  assert.equal(await page.inputValue('#risks'), 'none');
  assert.ok(await page.isVisible('#epsilons'));
  await closeClean(page, errors, 'ε target');
});

test("a run pinned on the ε axis is not drawn on the attacker's-success axis, and is again on ε", async () => {
  const { page, errors } = await openPage(env, '?preset=fedrep-paper&n=2000&altmin=off&epsilons=1,4', { viewport: { width: 1366, height: 900 }, autoRun: false });
  await runToDone(page, 120_000);
  await page.click('#pin-run');
  await page.check('#privacy-target-risk');
  await page.fill('#risks', '0.05,0.2');
  await runToDone(page, 120_000);
  // Its points sit at ε values: on the risk axis they would be at wrong places, so they are left out.
  assert.doesNotMatch(await downloaded(page, '#risk-chart-svg'), /pinned/);
  await page.check('#privacy-target-epsilon');
  await runToDone(page, 120_000);
  assert.match(await downloaded(page, '#risk-chart-svg'), /pinned/);
  assert.deepEqual(errors, []);
  await page.close();
});
