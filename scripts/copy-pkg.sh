#!/usr/bin/env bash
# After the module is bound into pkg/ (make build: scripts/build-module.sh with its type declarations):
# - the npm package around it: package.json from Cargo.toml's name, version, description, licence and keywords
#   (`cargo metadata`), the JS API (docs/js-api.md) as its README, and LICENSE-MIT and LICENSE-APACHE;
# - the page loads the package's module and wasm from www/pkg/ (the page is a static directory and cannot
#   reach ../pkg when served): copy them there.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
[[ -f pkg/dp_explorer.js && -f pkg/dp_explorer_bg.wasm && -f pkg/dp_explorer.d.ts ]] \
  || { echo "pkg/ is not built: run make build" >&2; exit 1; }
cp docs/js-api.md pkg/README.md
cp LICENSE-MIT LICENSE-APACHE pkg/
cargo metadata --no-deps --format-version 1 --offline | node -e '
  const fs = require("fs");
  const crate = JSON.parse(fs.readFileSync(0, "utf8")).packages.find((p) => p.name === "dp_explorer");
  const manifest = {
    name: crate.name,
    type: "module",
    description: crate.description,
    version: crate.version,
    license: crate.license,
    files: ["dp_explorer_bg.wasm", "dp_explorer.js", "dp_explorer.d.ts", "LICENSE-APACHE", "LICENSE-MIT"],
    main: "dp_explorer.js",
    types: "dp_explorer.d.ts",
    sideEffects: ["./snippets/*"],
    keywords: crate.keywords,
  };
  fs.writeFileSync("pkg/package.json", JSON.stringify(manifest, null, 2) + "\n");
'
mkdir -p www/pkg
cp pkg/dp_explorer.js pkg/dp_explorer_bg.wasm www/pkg/
