#!/usr/bin/env bash
# The page's module for `make demo`: the wasm module built by cargo and bound by the wasm-bindgen CLI straight
# into www/pkg/ (the same module and glue as wasm-pack's pkg/, without the npm package around it, so a new
# machine installs neither wasm-pack nor a browser to see the page), then www/pkg/describe.json from it in node.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
cargo build --lib --release --target wasm32-unknown-unknown
mkdir -p www/pkg
wasm-bindgen --target web --no-typescript --out-dir www/pkg \
  "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release/dp_explorer.wasm"
DESCRIBE_PKG=www/pkg/ node scripts/describe.mjs
echo "built the page's module into www/pkg/ ($(wc -c < www/pkg/dp_explorer_bg.wasm) bytes of wasm)"
