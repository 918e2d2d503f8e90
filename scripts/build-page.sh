#!/usr/bin/env bash
# The page's module for `make demo`: the wasm module (scripts/build-module.sh) bound straight into www/pkg/
# (the same module and glue as pkg/, without the npm package around it, so a new machine installs no browser
# or npm packages to see the page), then www/pkg/describe.json from it in node.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
bash scripts/build-module.sh www/pkg
DESCRIBE_PKG=www/pkg/ node scripts/describe.mjs
echo "built the page's module into www/pkg/ ($(wc -c < www/pkg/dp_explorer_bg.wasm) bytes of wasm)"
