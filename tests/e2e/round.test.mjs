// Issue 43: "Look inside one round" opens on the shown run of fedrep-paper and dpgd-quick, walks its five
// stages (buttons and arrow keys), says each stage's numbers, and the ε slider rescales the same noise
// draw (σ grows as ε falls); with large text its words are 28 px; a scenario without a round has no panel;
// axe finds nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accessible, openPage, runToDone, servedBrowser } from './browser.mjs';

const env = servedBrowser();

async function openRound(page) {
  await page.click('#round-panel > summary');
  await page.waitForFunction(() => document.getElementById('round-panel').dataset.ready !== undefined, null, { timeout: 60_000 });
}

for (const [preset, query] of [['fedrep-paper', '?preset=fedrep-paper&n=2000&epsilons=1,4'], ['dpgd-quick', '?preset=dpgd-quick&epsilons=2,8&large=1']]) {
  test(`${preset}: the round opens, walks its stages and follows the ε slider`, async () => {
    const { page, errors } = await openPage(env, query, { viewport: { width: 1280, height: 800 } });
    await runToDone(page, 120_000);
    assert.ok(await page.isVisible('#round-panel'));
    await openRound(page);
    const texts = [await page.textContent('#round-text')];
    for (let i = 1; i < 5; i += 1) {
      await page.click('#round-next');
      texts.push(await page.textContent('#round-text'));
    }
    assert.match(texts[0], /gradient; their norms run up to/);
    assert.match(texts[1], /Clipped: \d+ of \d+/);
    assert.match(texts[2], /‖Σ clip\(g\)‖ = /);
    assert.match(texts[3], /σ = [\d.e+-]+ in each of \d+ coordinates/);
    assert.match(texts[4], /moved by/);
    assert.ok(await page.isDisabled('#round-next'));
    // With large text (the projector) the picture's words are at least 28 px.
    if (query.includes('large=1')) assert.ok(Number(await page.getAttribute('#round-canvas', 'data-font')) >= 28);
    // Arrow keys walk back; the canvas describes the stage for a screen reader.
    await page.focus('#round-canvas');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await page.getAttribute('#round-panel', 'data-stage'), '3');
    assert.equal(await page.getAttribute('#round-canvas', 'aria-label'), texts[3]);
    // The slider's other ε of the list: the same draw at that ε's σ (a larger ε, less noise).
    const sigma = async () => Number(/σ = ([\d.e+-]+)/.exec(await page.textContent('#round-text'))[1]);
    const own = await sigma();
    // The arrow keys walk the list's values (the first press may select the run's own ε).
    await page.focus('#epsilons-slider');
    for (let i = 0; i < 3 && !/the slider/.test(await page.textContent('#round-text')); i += 1) {
      await page.keyboard.press('ArrowRight');
      await page.waitForTimeout(200);
    }
    assert.match(await page.textContent('#round-text'), /the slider/);
    const larger = await sigma();
    assert.ok(larger < own, `σ ${own} → ${larger} at a larger ε`);
    // Another round: the last.
    await page.click('#round-panel button:has-text("Last")');
    await page.waitForFunction(() => {
      const p = document.getElementById('round-panel');
      return p.dataset.ready !== undefined && p.dataset.ready !== '1';
    }, null, { timeout: 60_000 });
    await accessible(page, 'round in slow motion');
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('a scenario without a round shows no panel', async () => {
  const { page, errors } = await openPage(env, '?preset=jl-random');
  await page.waitForFunction(() => document.body.dataset.scenario === 'classifier');
  assert.ok(await page.isHidden('#round-panel'));
  assert.deepEqual(errors, []);
  await page.close();
});
