// Writes www/pkg/describe.json from the built wasm module (pkg/, `make build`; or the folder DESCRIBE_PKG
// names, www/pkg/ for `make demo`): its `describe_json()`, the same Rust code as `dp-explorer describe
// --json`, so the file is the CLI's byte for byte without a native build. Run by scripts/describe.sh and
// scripts/build-page.sh.
import { readFileSync, writeFileSync, renameSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
const pkg = process.env.DESCRIBE_PKG || 'pkg/';
const { initSync, describe_json } = await import(new URL(`${pkg}dp_explorer.js`, root));
initSync({ module: readFileSync(new URL(`${pkg}dp_explorer_bg.wasm`, root)) });
const out = fileURLToPath(new URL('www/pkg/describe.json', root));
mkdirSync(fileURLToPath(new URL('www/pkg/', root)), { recursive: true });
writeFileSync(`${out}.tmp`, describe_json());
renameSync(`${out}.tmp`, out);
