#!/usr/bin/env bash
# Writes www/pkg/describe.json: what the page needs to draw itself before the wasm module has loaded (every
# scenario's presets, field table, charts, lesson, captions, each preset's settings and empty charts), from
# the registry through the native CLI (`dp-explorer describe --json`). Build output, git-ignored.
#   DP_EXPLORER_BIN=PATH   use this CLI (make test passes the one cargo test built) instead of `cargo run`
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
mkdir -p www/pkg
if [[ -n "${DP_EXPLORER_BIN:-}" ]]; then
  "$DP_EXPLORER_BIN" describe --json > www/pkg/describe.json.tmp
else
  cargo run --quiet --bin dp-explorer -- describe --json > www/pkg/describe.json.tmp
fi
mv www/pkg/describe.json.tmp www/pkg/describe.json
echo "wrote www/pkg/describe.json ($(wc -c < www/pkg/describe.json) bytes)"
