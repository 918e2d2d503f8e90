// The page's time estimate against its measured time, for every preset of every scenario (after
// `make build`): the real page in headless chromium with its pool of workers (2 on a 2-core machine),
// from Run to done, as a user sees it. Prints one JSON line per preset and repeat, then the table
//   preset, estimate (s), measured (median of the repeats, s), measured / estimate
// and, with --write FILE, puts the table into FILE between `<!-- estimates:begin -->` and
// `<!-- estimates:end -->` (with the date, the machine, its load and the probe's factor).
//   node scripts/estimates.mjs [--repeat R] [--cap SECONDS] [--once PRESET,…] [--write FILE] [PRESET ...]
// The repeats are interleaved (preset after preset, R passes), so a burst of load on the machine
// moves one repeat of each rather than every repeat of one. A preset estimated over --cap seconds
// (default 180) in the page is not run: its row says so (check it natively: `dp-explorer sweep`); a
// preset named in --once is timed in the first pass only.
import { execSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { serve, launch, waitStatus } from '../tests/e2e/browser.mjs';
import { timedRun } from './timed-run.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const value = args[i + 1];
  args.splice(i, 2);
  return value;
};
const repeat = Number(option('--repeat', '3'));
const cap = Number(option('--cap', '180'));
const write = option('--write', null);
// Presets timed in the first pass only (minutes each): --once a,b
const once = (option('--once', '') || '').split(',').filter(Boolean);
const only = args;

const describe = JSON.parse(readFileSync(new URL('../www/pkg/describe.json', import.meta.url), 'utf8'));
const presets = [];
for (const s of describe.scenarios ?? describe) {
  for (const p of s.presets) presets.push({ scenario: s.id, preset: p.name });
}
const chosen = only.length ? presets.filter((p) => only.includes(p.preset)) : presets;
if (!chosen.length) {
  console.error(`no such preset: ${only.join(' ')} (presets: ${presets.map((p) => p.preset).join(' ')})`);
  process.exit(2);
}
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(', ');

const server = await serve();
const browser = await launch();
const rows = new Map(chosen.map((p) => [p.preset, { ...p, estimate: null, estimates: [], factor: null, measured: [] }]));
const loads = [load()];
const seen = []; // the machine factors [scalar, dense] of every page opened

/** Opens the page on `preset`; resolves to the page and what it estimates (seconds, with its pool). */
async function open(preset) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}?preset=${encodeURIComponent(preset)}`);
  await waitStatus(page, ['idle']);
  // The page's own estimate (www/edits.js showEstimate writes it with the machine's factor).
  await page.waitForFunction(() => document.getElementById('estimate').dataset.seconds !== undefined, null,
    { timeout: 30_000 });
  const shown = await page.evaluate(() => {
    const el = document.getElementById('estimate');
    return { seconds: Number(el.dataset.seconds), factor: el.dataset.machine ?? '', probe: el.dataset.probeMs ?? '', text: el.textContent };
  });
  return { page, shown };
}

try {
  for (let r = 0; r < repeat; r += 1) {
    for (const row of rows.values()) {
      if (row.skipped || (r > 0 && once.includes(row.preset))) continue;
      const { page, shown } = await open(row.preset);
      row.estimate = shown.seconds;
      row.estimates.push(shown.seconds);
      row.factor = shown.factor;
      seen.push(shown.factor.split(' ').map(Number));
      if (shown.seconds > cap) {
        row.skipped = `estimated ${shown.seconds.toFixed(0)} s > ${cap} s: not run`;
        console.log(JSON.stringify({ preset: row.preset, estimate_s: shown.seconds, skipped: row.skipped }));
        await page.close();
        continue;
      }
      const { status, seconds } = await timedRun(page);
      const split = await page.evaluate(() => document.body.dataset.pool);
      if (status !== 'done') throw new Error(`${row.preset}: the run ended with status ${status}`);
      row.measured.push(seconds);
      console.log(JSON.stringify({
        preset: row.preset, repeat: r, estimate_s: shown.seconds, page_s: seconds, machine: shown.factor, probe_ms: shown.probe,
        split, load: load(),
      }));
      await page.close();
    }
    loads.push(load());
  }
} finally {
  await browser.close();
  await server.close();
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const lines = [];
const say = (s) => lines.push(s);
say(`${'preset'.padEnd(22)}${'estimate s'.padStart(11)}${'measured s'.padStart(11)}${'measured/estimate'.padStart(19)}  repeats`);
let worst = 1;
for (const row of rows.values()) {
  if (row.skipped) {
    say(`${row.preset.padEnd(22)}${row.estimate.toFixed(2).padStart(11)}${'—'.padStart(11)}${'—'.padStart(19)}  ${row.skipped}`);
    continue;
  }
  // The median of the pages' estimates (each page probes the machine once).
  row.estimate = median(row.estimates);
  const m = median(row.measured);
  const ratio = m / row.estimate;
  worst = Math.max(worst, ratio, 1 / ratio);
  say(`${row.preset.padEnd(22)}${row.estimate.toFixed(2).padStart(11)}${m.toFixed(2).padStart(11)}${ratio.toFixed(2).padStart(19)}  ${row.measured.map((x) => x.toFixed(2)).join(' ')}`);
}
say(`worst ratio either way: ${worst.toFixed(2)}×`);
const table = lines.join('\n');
console.log(table);

if (write) {
  const cpu = (os.cpus()[0]?.model ?? '').trim();
  let commit = 'unknown';
  try { commit = execSync('git log -1 --format=%h', { encoding: 'utf8' }).trim(); } catch { /* not a checkout */ }
  const range = (k) => {
    const xs = seen.map((f) => f[k]).filter(Number.isFinite);
    return xs.length ? `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}` : '—';
  };
  const factors = `scalar ${range(0)}, dense ${range(1)} (over the ${seen.length} pages opened)`;
  const block = [
    '<!-- estimates:begin -->',
    `\`make estimates\` (\`node scripts/estimates.mjs ${process.argv.slice(2).join(' ')}\`) at commit ${commit}, ` +
      `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, on ${os.cpus().length} cores` +
      `${cpu ? ` (${cpu})` : ''}; the page's pool of workers; load average (1, 5, 15 min) before and after each ` +
      `pass: ${loads.join(' → ')}; the machine's factors as the pages' probes measured them: ${factors}.`,
    '',
    '```',
    table,
    '```',
    '<!-- estimates:end -->',
  ].join('\n');
  const doc = readFileSync(write, 'utf8');
  const re = /<!-- estimates:begin -->[\s\S]*?<!-- estimates:end -->/;
  if (!re.test(doc)) {
    console.error(`${write} has no <!-- estimates:begin --> … <!-- estimates:end --> markers: table only printed`);
  } else {
    writeFileSync(write, doc.replace(re, block));
    console.error(`wrote the table into ${write}`);
  }
}
