// The first screen (issue 30, item 7): two sentences of the scenario's description saying what to look
// at, the settings that matter first (those its Rust field table marks essential: n, ε, δ and its own)
// and the rest one click away under "More settings", which is remembered, and opened by a link that
// changes a folded setting or by an error at one (no error is ever hidden). The lesson is near the top
// on a phone. The ε the slider selected is in the link and a loaded link selects it. axe-core finds no
// violation in the states visited.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { accessible, closeClean, openPage, servedBrowser, waitStatus } from './browser.mjs';

const description = JSON.parse(readFileSync(new URL('../../www/pkg/describe.json', import.meta.url), 'utf8'));
const env = servedBrowser();

/** The scenario of the default preset, from the description the page paints from. */
function defaultScenario() {
  return description.scenarios.find((s) => s.presets.some((p) => p.name === description.default_preset));
}

/** The names of the settings a reader sees (not under a closed "More settings"). */
function visibleFields(page, names) {
  return page.evaluate((all) => all.filter((n) => {
    const el = document.getElementById(n);
    return el && el.checkVisibility();
  }), names);
}

test('a laptop\'s first screen: what to look at, the essential settings, the rest folded', async () => {
  const { page, errors } = await openPage(env, '', { viewport: { width: 1366, height: 768 } });
  const s = defaultScenario();
  assert.equal(await page.textContent('#scenario-look'), s.look_at);
  const look = await page.$eval('#scenario-look', (e) => e.getBoundingClientRect().toJSON());
  assert.ok(look.bottom <= 768, 'the two sentences are on the first screen');
  // The privacy target's switch (target-switch.js) shows the ε list and hides the risks it does not use.
  const unused = ['risks', 'risk_fpr'];
  const names = s.fields.map((f) => f.name).filter((n) => !unused.includes(n));
  const essential = s.fields.filter((f) => f.essential && !unused.includes(f.name)).map((f) => f.name);
  assert.ok(essential.includes('n') && essential.includes('epsilons'), essential.join(','));
  assert.ok(await page.isChecked('#privacy-target-epsilon'), 'the target is ε by default');
  assert.deepEqual(await visibleFields(page, names), essential, 'only the essential settings are shown');
  // Each of them on the first screen, with Run.
  for (const id of [...essential, 'run']) {
    const r = await page.$eval(`#${id}`, (e) => e.getBoundingClientRect().toJSON());
    assert.ok(r.top >= 0 && r.bottom <= 768, `${id} is on the first screen (${r.top}–${r.bottom})`);
  }
  assert.equal(await page.$eval('#more-settings', (d) => d.open), false);
  assert.match(await page.textContent('#more-settings > summary'), /^More settings \(\d+\)$/);
  await accessible(page, 'first screen');
  // One click away, and remembered on the next visit.
  await page.click('#more-settings > summary');
  assert.deepEqual(await visibleFields(page, names), names, 'every setting after one click');
  await accessible(page, 'more settings open');
  await page.reload();
  await waitStatus(page, ['idle', 'error']);
  assert.equal(await page.$eval('#more-settings', (d) => d.open), true, 'remembered open');
  await page.click('#more-settings > summary');
  await page.reload();
  await waitStatus(page, ['idle', 'error']);
  assert.equal(await page.$eval('#more-settings', (d) => d.open), false, 'remembered closed');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a link that changes a folded setting, or an error at one, opens "More settings"', async () => {
  const s = defaultScenario();
  const folded = s.fields.filter((f) => !f.essential && f.kind === 'integer').map((f) => f.name);
  assert.ok(folded.length > 0);
  const name = folded[0];
  const preset = s.preset_settings[description.default_preset].fields;
  const value = String(Number(new Map(preset).get(name)) + 1);
  // A value other than the preset's, from the link: shown.
  let { page, errors } = await openPage(env, `?${name}=${value}`);
  assert.equal(await page.$eval('#more-settings', (d) => d.open), true);
  assert.ok(await page.isVisible(`#${name}`));
  assert.equal(await page.inputValue(`#${name}`), value);
  assert.deepEqual(errors, []);
  await page.close();
  // The preset's own value: folded.
  ({ page, errors } = await openPage(env, `?${name}=${new Map(preset).get(name)}`));
  assert.equal(await page.$eval('#more-settings', (d) => d.open), false);
  await page.close();
  // An error at a folded setting: shown, with its message at the field.
  ({ page, errors } = await openPage(env, `?${name}=abc`));
  assert.equal(await page.$eval('#more-settings', (d) => d.open), true);
  assert.ok(await page.isVisible(`#${name}-error`));
  assert.match(await page.textContent(`#${name}-error`), /whole number/);
  assert.equal(await page.getAttribute(`#${name}`, 'aria-invalid'), 'true');
  // The error box names it by its label too.
  const label = s.fields.find((f) => f.name === name).label;
  assert.ok((await page.textContent('#error')).includes(`Fix the marked settings: ${label} must`), await page.textContent('#error'));
  await closeClean(page, errors, 'an error at a folded setting');
});

test('on a phone the lesson is near the top', async () => {
  const { page, errors } = await openPage(env, '', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  const lesson = await page.$eval('#lesson > summary', (e) => e.getBoundingClientRect().toJSON());
  assert.ok(lesson.bottom <= 844, `the lesson's summary is on the first screen (${lesson.top}–${lesson.bottom})`);
  const form = await page.$eval('#config', (e) => e.getBoundingClientRect().toJSON());
  assert.ok(lesson.top < form.top, 'the lesson comes before the settings');
  await page.click('#lesson > summary');
  assert.ok(await page.isVisible('#lesson-apply'));
  await closeClean(page, errors, 'phone, lesson open');
});

test('presenter view with large text (1920×1080): the slider\'s band is short, the charts start high', async () => {
  const { page, errors } = await openPage(env, '?present=1&large=1', { viewport: { width: 1920, height: 1080 } });
  const m = await page.evaluate(() => {
    const field = document.getElementById('epsilons').closest('.field').getBoundingClientRect();
    const line = parseFloat(getComputedStyle(document.body).lineHeight);
    return { field: field.height, line, charts: document.getElementById('charts').getBoundingClientRect().top };
  });
  // The list, the slider and two lines of readout side by side: no tall empty box under the slider.
  assert.ok(m.field <= 4 * m.line, `the slider's field is ${m.field} px high (line ${m.line} px)`);
  assert.ok(m.charts <= 0.45 * 1080, `the charts start at ${m.charts} px`);
  await closeClean(page, errors, 'presenter view, large text');
});

test('the selected ε is in the link, and a loaded link selects it', async () => {
  const { page, errors } = await openPage(env, '?epsilons=1,2,4&epsilons-selected=2');
  assert.match(await page.textContent('#epsilons-selected'), /^selected: 2$/);
  // The slider stands at 2 (the value its position reads back, snapped to the list).
  const at = await page.$eval('#epsilons-slider', (r) => Number(r.value));
  assert.ok(at > 0 && at < 1000);
  assert.equal(new URL(page.url()).searchParams.get('epsilons-selected'), '2');
  // Selecting another value of the list (a key walks to the next): the link follows.
  await page.focus('#epsilons-slider');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('epsilons-selected') === '4');
  await page.click('#copy-link');
  assert.equal(new URL(page.url()).searchParams.get('epsilons-selected'), '4');
  // A value the slider cannot select is said, not silently dropped.
  const other = await openPage(env, '?epsilons=1,2,4&epsilons-selected=abc');
  assert.match(await other.page.textContent('#error'), /selected ε values "abc"/);
  await accessible(other.page, 'a bad selected ε in the link');
  await other.page.close();
  assert.deepEqual(errors, []);
  await page.close();
});
