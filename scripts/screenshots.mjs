// Screenshots of the page after the default sweep, at the sizes the page is
// made for: docs/screenshot-laptop.png (1366×768), docs/screenshot-projector.png
// (1920×1080, large text), docs/screenshot-presenter.png (1920×1080, the lecture
// layout: presenter view and large text) and docs/screenshot-phone.png (390×844). Needs the
// wasm module built (make build): node scripts/screenshots.mjs
import { serve, launch, waitStatus } from '../tests/e2e/browser.mjs';

const SIZES = [
  ['laptop', { width: 1366, height: 768 }, ''],
  ['projector', { width: 1920, height: 1080 }, '&large=1'],
  ['presenter', { width: 1920, height: 1080 }, '&large=1&present=1'],
  ['phone', { width: 390, height: 844 }, ''],
];

const server = await serve();
const browser = await launch();
try {
  for (const [name, viewport, extra] of SIZES) {
    const page = await browser.newPage({ viewport });
    await page.goto(`${server.url}?preset=fedrep-paper${extra}`);
    await waitStatus(page, ['idle']);
    await page.click('#run');
    await waitStatus(page, ['done'], 120_000);
    await page.screenshot({ path: `docs/screenshot-${name}.png` });
    console.log(`wrote docs/screenshot-${name}.png`);
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
