#!/usr/bin/env bash
# Native and browser (headless chromium, wasm in a module worker) times of the
# same benchmarks, side by side, then one JSON line per benchmark:
#   {"bench": NAME, "native_s": …, "wasm_s": …, "wasm_peak_mb": …}
# Native: fastest of 3 repetitions; browser: one run in a fresh worker.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
cargo build --release --quiet
native=$(./target/release/dp-explorer bench --json "$@")
browser=$(node scripts/bench-browser.mjs "$@")
NATIVE="$native" BROWSER="$browser" python3 - <<'PY'
import json, os
native = {j["bench"]: j for j in map(json.loads, os.environ["NATIVE"].splitlines())}
browser = {j["bench"]: j for j in map(json.loads, os.environ["BROWSER"].splitlines())}
print(f'{"benchmark":<26}{"native s":>10}{"wasm s":>10}{"wasm/native":>13}{"wasm peak MB":>14}  result (native)')
lines = []
for name, n in native.items():
    b = browser.get(name, {})
    w = b.get("wasm_s")
    ratio = f'{w / n["native_s"]:.2f}' if w else "—"
    print(f'{name:<26}{n["native_s"]:>10.3f}{(f"{w:.3f}" if w else "error"):>10}{ratio:>13}{b.get("wasm_peak_mb", float("nan")):>14.1f}  {n["result"]}')
    lines.append(json.dumps({"bench": name, "native_s": round(n["native_s"], 4), "wasm_s": round(w, 4) if w else None,
                             "wasm_peak_mb": round(b["wasm_peak_mb"], 1) if w else None}))
print()
print("\n".join(lines))
PY
