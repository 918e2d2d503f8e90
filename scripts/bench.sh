#!/usr/bin/env bash
# Native and browser (headless chromium, wasm in a module worker) times of the
# same benchmarks, side by side, then one JSON line per benchmark:
#   {"bench": NAME, "native_s": …, "wasm_s": …, "wasm_peak_mb": …, "page_s": …, "numpy_s": …, …}
# Native: fastest of BENCH_REPEAT (default 3) repetitions, one thread; wasm:
# fastest of 3 runs in one fresh worker (the same single-threaded code; a run
# of over 4 s, such as n = 10⁶, is timed once); page:
# the real page from Run to done with its pool of workers (how it split the
# sweep: "runs:2" whole runs per worker, "users:2" every run's users shared),
# and its longest main-thread task; numpy: the public numpy code on the same configuration
# (scripts/dpgd_numpy_port.py, in a venv that scripts/bench-numpy-setup.sh
# makes under target/), OpenBLAS on NUMPY_THREADS (default 2) threads.
# Arguments: benchmark names (default: all); `dpgd-paper-preset` (the page from
# Run to done on the dpgd-paper preset, minutes) runs only when named.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
cargo build --release --quiet
only=()
for name in "$@"; do
  # Page-only runs have no native benchmark of their name.
  [ "$name" = dpgd-paper-preset ] || only+=(--only "$name")
done
native=""
if [ $# -eq 0 ] || [ ${#only[@]} -gt 0 ]; then
  native=$(./target/release/dp-explorer bench --json --repeat "${BENCH_REPEAT:-3}" "${only[@]}")
fi
browser=$(node scripts/bench-browser.mjs "$@")
numpy=""
if [ $# -eq 0 ] || printf '%s\n' "$@" | grep -qx dpgd-paper-cell; then
  python=$(bash scripts/bench-numpy-setup.sh)
  numpy=$(OPENBLAS_NUM_THREADS="${NUMPY_THREADS:-2}" "$python" scripts/dpgd_numpy_port.py --bench dpgd-paper-cell \
    --d 100 --n 2000 --n-test 1000 --p 4000 --eps 4 --clip-scale 0.5 --time-scale 5)
fi
NATIVE="$native" BROWSER="$browser" NUMPY="$numpy" python3 - <<'PY'
import json, os
native = {j["bench"]: j for j in map(json.loads, filter(None, os.environ["NATIVE"].splitlines()))}
browser, page = {}, {}
for j in map(json.loads, filter(None, os.environ["BROWSER"].splitlines())):
    (page if "page_s" in j else browser)[j["bench"]] = j
numpy = {j["bench"]: j for j in map(json.loads, filter(None, os.environ["NUMPY"].splitlines()))}
print(f'{"benchmark":<24}{"native s":>9}{"wasm s":>9}{"wasm/native":>12}{"wasm MB":>9}{"page s":>8}{"workers":>10}{"longest task":>13}'
      f'{"numpy s":>9}{"numpy/native":>13}{"numpy/wasm":>11}  result (native)')
lines = []
for name, n in native.items():
    b = browser.get(name, {})
    w = b.get("wasm_s")
    p = page.get(name, {})
    q = numpy.get(name, {}).get("numpy_s")
    ratio = f'{w / n["native_s"]:.2f}' if w else "—"
    page_s = f'{p["page_s"]:.2f}' if p else "—"
    task = f'{p["longest_task_ms"]:.0f} ms' if p else "—"
    native_s = n["native_s"]
    q_s = f"{q:.3f}" if q else "—"
    q_native = f"{q / native_s:.2f}" if q else "—"
    q_wasm = f"{q / w:.2f}" if q and w else "—"
    print(f'{name:<24}{native_s:>9.3f}{(f"{w:.3f}" if w else "error"):>9}{ratio:>12}{b.get("wasm_peak_mb", float("nan")):>9.1f}'
          f'{page_s:>8}{p.get("split", p.get("workers", "—")):>10}{task:>13}'
          f'{q_s:>9}{q_native:>13}{q_wasm:>11}  {n["result"]}')
    entry = {"bench": name, "native_s": round(n["native_s"], 4), "wasm_s": round(w, 4) if w else None,
             "wasm_peak_mb": round(b["wasm_peak_mb"], 1) if w else None}
    if p:
        entry.update({"page_s": round(p["page_s"], 3), "page_workers": p["workers"], "page_split": p.get("split"), "page_longest_task_ms": round(p["longest_task_ms"], 1)})
    if q:
        entry.update({"numpy_s": round(q, 3), "numpy_detail": numpy[name]})
    lines.append(json.dumps(entry))
for name, p in page.items():
    if name not in native:
        print(f'{name:<24}{"—":>9}{"—":>9}{"—":>12}{"—":>9}{p["page_s"]:>8.2f}{p.get("split", p["workers"]):>10}{p["longest_task_ms"]:>10.0f} ms  (page only)')
        lines.append(json.dumps({"bench": name, "page_s": round(p["page_s"], 3), "page_workers": p["workers"],
                                 "page_longest_task_ms": round(p["longest_task_ms"], 1)}))
print()
print("\n".join(lines))
PY
