// After scripts/build-dist.sh has copied the site into dist/: makes it work
// offline. Writes dist/pkg/precache.js (the service worker's list of the site's
// files, and a version made of their contents) and marks dist/index.html with
// data-sw and data-version, so that the page registers www/sw.js (offline.js).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// The site's directory: dist/, or the one given (the e2e test re-runs this on a copy, as a new release).
const DIST = process.argv[2] ? join(process.argv[2], '/') : new URL('../dist/', import.meta.url).pathname;
const MARK = /<html lang="en"[^>]*>/;

/** Every file under dir, as paths relative to dist/ with '/' separators, sorted. */
function files(dir = DIST) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [relative(DIST, path).split('\\').join('/')];
  }).sort();
}

// What the service worker keeps: everything but itself, its list, and the host's marker files.
const cached = files().filter((f) => !['sw.js', 'pkg/precache.js', '.nojekyll'].includes(f)
  && !/\.(br|gz)$/.test(f));
const indexPath = join(DIST, 'index.html');
// The page as built (a mark from an earlier run of this script taken off).
const index = readFileSync(indexPath, 'utf8').replace(MARK, '<html lang="en">');
if (!index.includes('<html lang="en">')) throw new Error('dist/index.html: no <html lang="en"> to mark');
const hash = createHash('sha256');
for (const f of cached) hash.update(`${f}\0`).update(f === 'index.html' ? index : readFileSync(join(DIST, f))).update('\0');
const version = hash.digest('hex').slice(0, 16);
writeFileSync(indexPath, index.replace('<html lang="en">', `<html lang="en" data-sw="sw.js" data-version="${version}">`));

const list = ['./', ...cached];
writeFileSync(join(DIST, 'pkg/precache.js'),
  `// Written by scripts/dist-assets.mjs: the files the service worker keeps, and their version.\n`
  + `self.PRECACHE = ${JSON.stringify({ version, files: list }, null, 1)};\n`);
console.log(`dist/: ${list.length} files kept for offline use, version ${version}`);
