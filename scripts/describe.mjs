// Writes www/pkg/describe.json from the built wasm module (pkg/, `make build`): its `describe_json()`, the
// same Rust code as `dp-explorer describe --json`, so the file is the CLI's byte for byte without a native
// build. Run by scripts/describe.sh.
import { readFileSync, writeFileSync, renameSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
const { initSync, describe_json } = await import(new URL('pkg/dp_explorer.js', root));
initSync({ module: readFileSync(new URL('pkg/dp_explorer_bg.wasm', root)) });
const out = fileURLToPath(new URL('www/pkg/describe.json', root));
mkdirSync(fileURLToPath(new URL('www/pkg/', root)), { recursive: true });
writeFileSync(`${out}.tmp`, describe_json());
renameSync(`${out}.tmp`, out);
