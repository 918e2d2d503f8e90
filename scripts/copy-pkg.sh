#!/usr/bin/env bash
# The page loads the package's module and wasm from www/pkg/ (the page is a
# static directory and cannot reach ../pkg when served): copy them there.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -f pkg/dp_explorer.js && -f pkg/dp_explorer_bg.wasm ]] \
  || { echo "pkg/ is not built: run make build" >&2; exit 1; }
mkdir -p www/pkg
cp pkg/dp_explorer.js pkg/dp_explorer_bg.wasm www/pkg/
