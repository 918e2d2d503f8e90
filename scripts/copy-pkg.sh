#!/usr/bin/env bash
# After wasm-pack has built pkg/ (make build):
# - the npm package's README is the JS API (docs/js-api.md), not the crate's README.md that wasm-pack copies
#   (wasm-pack also copies LICENSE-MIT and LICENSE-APACHE, which the package ships);
# - the page loads the package's module and wasm from www/pkg/ (the page is a static directory and cannot
#   reach ../pkg when served): copy them there.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -f pkg/dp_explorer.js && -f pkg/dp_explorer_bg.wasm ]] \
  || { echo "pkg/ is not built: run make build" >&2; exit 1; }
cp docs/js-api.md pkg/README.md
mkdir -p www/pkg
cp pkg/dp_explorer.js pkg/dp_explorer_bg.wasm www/pkg/
