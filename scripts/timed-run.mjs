// One run of the page timed as a user sees it, for the scripts that measure the page
// (estimates.mjs, time-presets.mjs): from the press of Run to done or error.
import { waitStatus } from '../tests/e2e/browser.mjs';

/**
 * Presses Run, and Run again when the page asks to confirm a run it estimates over its long-run
 * limit (30 s), then waits for the end (at most 30 min). Returns `{ status, seconds }`.
 */
export async function timedRun(page) {
  const t0 = Date.now();
  await page.click('#run');
  await page.waitForTimeout(300);
  if (await page.evaluate(() => document.body.dataset.status === 'idle')) await page.click('#run');
  const status = await waitStatus(page, ['done', 'error'], 1_800_000);
  return { status, seconds: (Date.now() - t0) / 1000 };
}
