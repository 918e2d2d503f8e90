// Times the real page from Run to done for page queries given on the command
// line (after `make build`), one JSON line each:
//   node scripts/time-presets.mjs '?preset=flute-c1&seeds=3' '?preset=trace-paper'
//   → {"query", "page_s", "status", "workers"}
// With --audit, each query's audit (1000 runs per side; --runs R) is timed
// instead, from "Run audit" to done, with the bounds it printed (--broken:
// the deliberately broken runs):
//   node scripts/time-presets.mjs --audit '?preset=dpgd-quick&calibration=exact&epsilons=4'
//   → {"query", "audit_s", "status", "notes"}
// The page runs with its pool of workers, as a user sees it; a run the page
// estimates over 30 s needs a second press of Run, which this script gives.
import { serve, launch, waitStatus } from '../tests/e2e/browser.mjs';
import { timedRun } from './timed-run.mjs';

const args = process.argv.slice(2);
const auditMode = args.includes('--audit');
const broken = args.includes('--broken');
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 1000;
const queries = args.filter((a, i) => !a.startsWith('--') && !(runsAt >= 0 && i === runsAt + 1));
if (!queries.length) {
  console.error('usage: node scripts/time-presets.mjs QUERY...   (e.g. "?preset=flute-c1")');
  process.exit(2);
}
const server = await serve();
const browser = await launch();
try {
  for (const query of queries) {
    const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await p.goto(`${server.url}${query}`);
    await waitStatus(p, ['idle']);
    if (auditMode) {
      await p.fill('#audit-runs', String(runs));
      if (broken) await p.check('#audit-broken');
      const t = Date.now();
      await p.click('#audit-run');
      await p.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.audit), null, { timeout: 1_800_000 });
      const audit_s = (Date.now() - t) / 1000;
      const status = await p.evaluate(() => document.body.dataset.audit);
      const notes = await p.$$eval('#audit-notes li', (l) => l.map((x) => x.textContent));
      console.log(JSON.stringify({ query, audit_s, status, runs, broken, notes }));
      await p.close();
      continue;
    }
    const workers = await p.evaluate(() => Math.max(1, navigator.hardwareConcurrency || 2));
    const { status, seconds } = await timedRun(p);
    console.log(JSON.stringify({ query, page_s: seconds, status, workers }));
    await p.close();
  }
} finally {
  await browser.close();
  await server.close();
}
