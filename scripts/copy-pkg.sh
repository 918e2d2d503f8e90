#!/usr/bin/env bash
# After wasm-pack has built pkg/ (make build):
# - the npm package's README is the JS API (docs/js-api.md), not the crate's README.md that wasm-pack copies,
#   and the package ships LICENSE-MIT and LICENSE-APACHE;
# - the page loads the package's module and wasm from www/pkg/ (the page is a static directory and cannot
#   reach ../pkg when served): copy them there.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -f pkg/dp_explorer.js && -f pkg/dp_explorer_bg.wasm && -f pkg/package.json ]] \
  || { echo "pkg/ is not built: run make build" >&2; exit 1; }
cp docs/js-api.md pkg/README.md
# wasm-pack writes package.json's "files" before it copies the LICENSE-* files, so a build into an empty pkg/
# leaves them out of the npm package (npm adds only a file named LICENSE by itself): copy and list them here.
cp LICENSE-MIT LICENSE-APACHE pkg/
node -e '
  const fs = require("fs");
  const manifest = JSON.parse(fs.readFileSync("pkg/package.json", "utf8"));
  manifest.files = [...new Set([...(manifest.files || []), "LICENSE-MIT", "LICENSE-APACHE"])];
  fs.writeFileSync("pkg/package.json", JSON.stringify(manifest, null, 2) + "\n");
'
mkdir -p www/pkg
cp pkg/dp_explorer.js pkg/dp_explorer_bg.wasm www/pkg/
