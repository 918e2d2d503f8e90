#!/usr/bin/env bash
# Writes www/pkg/describe.json: what the page needs to draw itself before the wasm module has loaded (every
# scenario's presets, field table, charts, lesson, captions, each preset's settings and empty charts), from
# the registry through the wasm module in pkg/ run in node (scripts/describe.mjs: its `describe_json()`, the
# same Rust code as `dp-explorer describe --json`), so a build compiles no native CLI. Build output, git-ignored.
#   DP_EXPLORER_BIN=PATH   also run this CLI's `describe --json` and require the same bytes (make test passes
#                          the CLI that cargo test built): the wasm and native descriptions must not drift apart
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
[[ -f pkg/dp_explorer.js && -f pkg/dp_explorer_bg.wasm ]] \
  || { echo "pkg/ is not built: run make build" >&2; exit 1; }
node scripts/describe.mjs
if [[ -n "${DP_EXPLORER_BIN:-}" ]]; then
  native="$(mktemp)"
  trap 'rm -f "$native"' EXIT
  "$DP_EXPLORER_BIN" describe --json > "$native"
  cmp -s "$native" www/pkg/describe.json \
    || { echo "www/pkg/describe.json (wasm describe_json) differs from $DP_EXPLORER_BIN describe --json" >&2; exit 1; }
  echo "describe.json: the wasm module's and the native CLI's are the same bytes"
fi
echo "wrote www/pkg/describe.json ($(wc -c < www/pkg/describe.json) bytes)"
