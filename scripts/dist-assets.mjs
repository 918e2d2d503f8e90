// After scripts/build-dist.sh has copied the site into dist/:
// 1. names every asset by its content's hash (main.js → main.3f2a9c1b0d.js, the wasm, the stylesheet,
//    describe.json), rewriting the references to it (in index.html, the modules' imports, `new URL(…,
//    import.meta.url)`), dependencies first, so a new release never mixes with a cached old one. Only
//    index.html and the service worker (sw.js, pkg/precache.js) keep their names;
// 2. writes pkg/precache.js (the service worker's list of the site's files, and a version made of their
//    contents) and marks index.html with data-sw and data-version, so that the page registers sw.js;
// 3. writes a precompressed .br and .gz beside every file they make smaller, for a host that serves them
//    (scripts/serve-dist.mjs does).
// Usage: node scripts/dist-assets.mjs [DIR]   (default dist/; the e2e test re-runs it on a copy as a new release)
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const DIST = process.argv[2] ? join(process.argv[2], '/') : new URL('../dist/', import.meta.url).pathname;
const MARK = /<html lang="en"[^>]*>/;
const FIXED = new Set(['index.html', 'sw.js', 'pkg/precache.js', '.nojekyll']);
const TEXT = /\.(html|js|css|json|svg)$/;
const HASHED = /\.[0-9a-f]{10}\.[a-z]+$/;

/** Every file under dir, as paths relative to dist/ with '/' separators, sorted. */
function files(dir = DIST) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [relative(DIST, path).split('\\').join('/')];
  }).sort();
}
const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');

// A re-run (a new release made on a copy): drop the old compressed files.
for (const f of files()) if (/\.(br|gz)$/.test(f)) rmSync(join(DIST, f));

// ---------- 1. content-hashed names ----------
const assets = files().filter((f) => !FIXED.has(f) && !HASHED.test(f));
const QUOTED = /(["'`])(\.\/)?([\w.\/-]+)\1/g;
/** The assets a text file names (quoted, relative to its folder). */
function references(f) {
  if (!TEXT.test(f)) return [];
  const text = readFileSync(join(DIST, f), 'utf8');
  const out = new Set();
  for (const [, , , path] of text.matchAll(QUOTED)) {
    const target = posix.normalize(posix.join(posix.dirname(f), path));
    if (target !== f && assets.includes(target)) out.add(target);
  }
  return [...out];
}
/** The text with every reference to a renamed asset rewritten. */
function rewrite(f, names) {
  const text = readFileSync(join(DIST, f), 'utf8');
  return text.replace(QUOTED, (whole, quote, dot, path) => {
    const target = posix.normalize(posix.join(posix.dirname(f), path));
    if (!names.has(target)) return whole;
    const rel = posix.relative(posix.dirname(f), names.get(target));
    return `${quote}${dot || ''}${rel}${quote}`;
  });
}
const names = new Map(); // old path -> hashed path
const visiting = new Set();
function hashed(f) {
  if (names.has(f)) return names.get(f);
  if (visiting.has(f)) throw new Error(`import cycle through ${f}`);
  visiting.add(f);
  for (const dep of references(f)) hashed(dep);
  if (TEXT.test(f)) writeFileSync(join(DIST, f), rewrite(f, names));
  const bytes = readFileSync(join(DIST, f));
  const ext = posix.extname(f);
  const name = `${f.slice(0, -ext.length)}.${sha(bytes).slice(0, 10)}${ext}`;
  renameSync(join(DIST, f), join(DIST, name));
  names.set(f, name);
  visiting.delete(f);
  return name;
}
for (const f of assets) hashed(f);
for (const f of FIXED) {
  if (f !== 'index.html' && f !== 'sw.js') continue;
  writeFileSync(join(DIST, f), rewrite(f, names));
}

// ---------- 2. offline: the service worker's list and version ----------
const indexPath = join(DIST, 'index.html');
// The page as built (a mark from an earlier run of this script taken off).
const index = readFileSync(indexPath, 'utf8').replace(MARK, '<html lang="en">');
if (!index.includes('<html lang="en">')) throw new Error('dist/index.html: no <html lang="en"> to mark');
const cached = files().filter((f) => !FIXED.has(f) || f === 'index.html');
const hash = createHash('sha256');
for (const f of cached) hash.update(`${f}\0`).update(f === 'index.html' ? index : readFileSync(join(DIST, f))).update('\0');
const version = hash.digest('hex').slice(0, 16);
writeFileSync(indexPath, index.replace('<html lang="en">', `<html lang="en" data-sw="sw.js" data-version="${version}">`));
const list = ['./', ...cached];
writeFileSync(join(DIST, 'pkg/precache.js'),
  `// Written by scripts/dist-assets.mjs: the files the service worker keeps, and their version.\n`
  + `self.PRECACHE = ${JSON.stringify({ version, files: list }, null, 1)};\n`);

// ---------- 3. precompressed copies ----------
let raw = 0;
let br = 0;
for (const f of files()) {
  if (f === '.nojekyll') continue;
  const bytes = readFileSync(join(DIST, f));
  const b = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
  const g = gzipSync(bytes, { level: 9 });
  raw += bytes.length;
  br += Math.min(b.length, bytes.length);
  if (b.length < bytes.length) writeFileSync(join(DIST, `${f}.br`), b);
  if (g.length < bytes.length) writeFileSync(join(DIST, `${f}.gz`), g);
}
console.log(`dist/: ${names.size} assets named by content hash; ${list.length} files kept for offline use, version ${version}; `
  + `${(raw / 1024).toFixed(0)} KiB, ${(br / 1024).toFixed(0)} KiB as brotli`);
