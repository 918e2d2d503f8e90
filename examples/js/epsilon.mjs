// The ε that one Gaussian release of sensitivity 1 with σ = 1 spends at δ = 1e-5,
// under every accountant, and the σ that ε = 1 needs over 100 releases.
import { readFileSync } from 'node:fs';
import { initSync, epsilon_for_sigma, sigma_for_epsilon } from '../../pkg/dp_explorer.js';

initSync({ module: readFileSync(new URL('../../pkg/dp_explorer_bg.wasm', import.meta.url)) });
const e = epsilon_for_sigma(1, 1e-5, 1, 1);
console.log(`σ = 1: exact ε = ${e.exact.toFixed(6)}, RDP ε = ${e.rdp.toFixed(6)}, zCDP ε = ${e.zcdp.toFixed(6)}`);
const s = sigma_for_epsilon(1, 1e-5, 100, 1);
console.log(`ε = 1 over 100 releases: σ = ${s.exact.toFixed(4)} (exact), ${s.rdp.toFixed(4)} (RDP)`);
