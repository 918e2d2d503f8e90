// The page's time estimate: this machine's speed, probed once with the module's fixed work, and a
// duration in words. main.js asks the module for a settings' seconds with these factors.
import { machine_probe, machine_factors } from './pkg/dp_explorer.js';

const PROBE_CHUNKS = 4;
let machine = null; // [scalar, dense]: this machine's time over the one the estimates were fitted on

/** This machine's factors, from the module's fixed probe (Rust scenarios::machine) timed once: one
 * chunk of each kind to warm up (the engine's tier-up), then the fastest of a few chunks of each kind,
 * taken in turn (about 30 ms in all): the machine's speed, not a moment's load. `box` (the estimate's
 * element) keeps the factors and the probe's times in its data attributes (benchmarks read them). */
export function machineFactors(box) {
  if (machine === null) {
    const kinds = ['scalar', 'dense'];
    const times = [[], []];
    kinds.forEach((kind) => machine_probe(kind));
    for (let i = 0; i < PROBE_CHUNKS; i += 1) {
      kinds.forEach((kind, k) => {
        const t = performance.now();
        machine_probe(kind);
        times[k].push(performance.now() - t);
      });
    }
    const ms = times.map((xs) => Math.min(...xs));
    machine = Array.from(machine_factors(ms[0], ms[1]));
    box.dataset.machine = machine.map((f) => f.toFixed(2)).join(' ');
    box.dataset.probeMs = ms.map((t) => t.toFixed(2)).join(' ');
  }
  return machine;
}

/** A duration in words: "under a second", "about 12 s", "about 3 min". */
export function fmtDuration(seconds) {
  if (seconds < 1) return 'under a second';
  if (seconds < 90) return `about ${Math.round(seconds)} s`;
  return `about ${Math.round(seconds / 60)} min`;
}
