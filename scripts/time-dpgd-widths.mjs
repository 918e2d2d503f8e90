// Times every width of a DP-GD preset alone, natively and in wasm, one JSON
// line per width: the measurements the DP-GD cost model's speeds were fitted
// to (src/scenarios/dpgd/cost.rs, docs/performance.md). After `make build` and
// `cargo build --release`:
//   node scripts/time-dpgd-widths.mjs [PRESET] [P,P,...]
//   → {"p", "traced", "native_s", "wasm_s"}
// Native: `dp-explorer sweep --threads 1` with that width only; wasm: one
// `Runner` in this node process (the page's module, one worker's code).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const preset = process.argv[2] || 'dpgd-paper';
const pkg = await import(join(root, 'pkg/dp_explorer.js'));
pkg.initSync({ module: readFileSync(join(root, 'pkg/dp_explorer_bg.wasm')) });
const fields = Object.fromEntries(pkg.preset_fields(preset));
const widths = (process.argv[3] || fields.p_grid).split(',').map((p) => p.trim());
const traced = fields.trace_p === 'none' ? [] : fields.trace_p.split(',').map((p) => p.trim());

for (const p of widths) {
  const settings = { p_grid: p, trace_p: traced.includes(p) ? p : 'none' };
  const out = mkdtempSync(join(tmpdir(), 'dpgd-width-'));
  const args = ['sweep', '--preset', preset, '--threads', '1', '--out', out];
  for (const [k, v] of Object.entries(settings)) args.push('--set', `${k}=${v}`);
  let t0 = performance.now();
  execFileSync(join(root, 'target/release/dp-explorer'), args, { stdio: 'ignore' });
  const native = (performance.now() - t0) / 1000;
  rmSync(out, { recursive: true });
  t0 = performance.now();
  const runner = new pkg.Runner(preset, settings);
  while (!runner.step()) { /* to the end */ }
  const wasm = (performance.now() - t0) / 1000;
  runner.free();
  console.log(JSON.stringify({ p: Number(p), traced: traced.includes(p), native_s: +native.toFixed(3), wasm_s: +wasm.toFixed(3) }));
}
