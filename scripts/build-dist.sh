#!/usr/bin/env bash
# Builds the hosted site: a self-contained static directory dist/ with the
# page, its worker, its stylesheet and the release wasm module, nothing else
# (no benchmarks, no type declarations, no package metadata). The page makes
# no request outside its own origin, so dist/ can be served from any static
# server or GitHub Pages, under any path.
#
#   bash scripts/build-dist.sh            builds pkg/ (release) first
#   SKIP_WASM_BUILD=1 bash scripts/...    reuses the pkg/ already built
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

if [[ "${SKIP_WASM_BUILD:-}" != 1 ]]; then
  TYPESCRIPT=1 bash scripts/build-module.sh pkg
  bash scripts/copy-pkg.sh
  bash scripts/describe.sh
fi
[[ -f www/pkg/describe.json ]] || bash scripts/describe.sh

rm -rf dist
mkdir -p dist/pkg
cp www/index.html www/style.css dist/
# Every ES module of the page (main, pool, worker, …), but not the benchmark page's.
for f in www/*.js; do
  case "$(basename "$f")" in
    bench*) ;;
    *) cp "$f" dist/ ;;
  esac
done
cp pkg/dp_explorer.js pkg/dp_explorer_bg.wasm www/pkg/describe.json dist/pkg/
# GitHub Pages: serve files as they are (no Jekyll processing).
touch dist/.nojekyll
# Offline after the first visit: the service worker and its list of files (pkg/precache.js).
node scripts/dist-assets.mjs

# Checks: the strict CSP is in the page, and no text file names another
# origin outside a comment (wasm-bindgen's glue cites MDN in one).
grep -q "script-src 'self' 'wasm-unsafe-eval'" dist/index.html \
  || { echo "dist/index.html lost its Content-Security-Policy" >&2; exit 1; }
if grep -nE "(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/" dist/*.html dist/*.js dist/*.css dist/pkg/*.js \
     | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(//|\*)' | grep -v "www.w3.org/2000/svg"; then
  echo "dist/ refers to another origin (above); the hosted page must be self-contained" >&2
  exit 1
fi

echo "dist/ is ready ($(du -sh dist | cut -f1)):"
find dist -type f ! -name '*.br' ! -name '*.gz' | sort | sed 's/^/  /'
echo "  (and a precompressed .br and .gz beside each file they make smaller)"
echo "Serve it with e.g.: python3 -m http.server -d dist"
