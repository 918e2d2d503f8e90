#!/usr/bin/env bash
# The wasm module: cargo's release build of the library for wasm32 (with simd128: .cargo/config.toml), bound
# for the web by the wasm-bindgen CLI (exactly the version Cargo.lock pins; scripts/setup.sh installs it).
# No wasm-opt pass: measured no faster (docs/performance.md).
#   bash scripts/build-module.sh OUT_DIR [CARGO_ARGS...]   e.g. --features test-hooks (the end-to-end module)
#   TYPESCRIPT=1 ...                                       also the type declarations (the JS package's)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
out="${1:?usage: scripts/build-module.sh OUT_DIR [CARGO_ARGS...]}"
shift
cargo build --lib --release --target wasm32-unknown-unknown "$@"
mkdir -p "$out"
typescript=--no-typescript
[[ "${TYPESCRIPT:-}" == 1 ]] && typescript=
wasm-bindgen --target web $typescript --out-dir "$out" \
  "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release/dp_explorer.wasm"
