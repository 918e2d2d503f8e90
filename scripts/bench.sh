#!/usr/bin/env bash
# Native and browser (headless chromium, wasm in a module worker) times of the
# same benchmarks, side by side, then one JSON line per benchmark:
#   {"bench": NAME, "native_s": …, "wasm_s": …, "wasm_peak_mb": …, "page_s": …, …}
# Native: fastest of 3 repetitions, one thread; wasm: fastest of 3 runs in one
# fresh worker (the same single-threaded code; 1 run for the n = 10⁶ one); page: the real page from Run to done
# with its pool of workers (how it split the sweep: "runs:2" whole runs per
# worker, "users:2" every run's users shared), and its longest main-thread task.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
cargo build --release --quiet
native=$(./target/release/dp-explorer bench --json "$@")
browser=$(node scripts/bench-browser.mjs "$@")
NATIVE="$native" BROWSER="$browser" python3 - <<'PY'
import json, os
native = {j["bench"]: j for j in map(json.loads, os.environ["NATIVE"].splitlines())}
browser, page = {}, {}
for j in map(json.loads, os.environ["BROWSER"].splitlines()):
    (page if "page_s" in j else browser)[j["bench"]] = j
print(f'{"benchmark":<24}{"native s":>9}{"wasm s":>9}{"wasm/native":>12}{"wasm MB":>9}{"page s":>8}{"workers":>10}{"longest task":>13}  result (native)')
lines = []
for name, n in native.items():
    b = browser.get(name, {})
    w = b.get("wasm_s")
    p = page.get(name, {})
    ratio = f'{w / n["native_s"]:.2f}' if w else "—"
    page_s = f'{p["page_s"]:.2f}' if p else "—"
    task = f'{p["longest_task_ms"]:.0f} ms' if p else "—"
    print(f'{name:<24}{n["native_s"]:>9.3f}{(f"{w:.3f}" if w else "error"):>9}{ratio:>12}{b.get("wasm_peak_mb", float("nan")):>9.1f}'
          f'{page_s:>8}{p.get("split", p.get("workers", "—")):>10}{task:>13}  {n["result"]}')
    entry = {"bench": name, "native_s": round(n["native_s"], 4), "wasm_s": round(w, 4) if w else None,
             "wasm_peak_mb": round(b["wasm_peak_mb"], 1) if w else None}
    if p:
        entry.update({"page_s": round(p["page_s"], 3), "page_workers": p["workers"], "page_split": p.get("split"), "page_longest_task_ms": round(p["longest_task_ms"], 1)})
    lines.append(json.dumps(entry))
print()
print("\n".join(lines))
PY
