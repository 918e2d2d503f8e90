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
#
# The table is also written into docs/performance.md (BENCH_DOC to choose
# another file), between the marker comments of this command's arguments:
#   <!-- bench:begin --> … <!-- bench:end -->          for make bench (no arguments)
#   <!-- bench:NAME …:begin --> … <!-- bench:NAME …:end -->  for bash scripts/bench.sh NAME …
# with the date, the commit and the machine; a run whose markers are not in the
# file only prints. The raw measurements are kept in target/bench/ (native.jsonl,
# browser.jsonl, numpy.jsonl); BENCH_INPUT=DIR formats and writes from such a
# directory instead of measuring (e.g. to rewrite the table after editing this script).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
if [ -n "${BENCH_INPUT:-}" ]; then
  input="$BENCH_INPUT"
else
  input=target/bench
  mkdir -p "$input"
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
  printf '%s\n' "$native" > "$input/native.jsonl"
  printf '%s\n' "$browser" > "$input/browser.jsonl"
  printf '%s\n' "$numpy" > "$input/numpy.jsonl"
fi
# Where and on what the numbers were measured, for the table's caption.
commit=$(git log -1 --format=%h 2>/dev/null || echo unknown)
subject=$(git log -1 --format=%s 2>/dev/null || true)
dirty=""
git diff --quiet HEAD 2>/dev/null || dirty=" (plus uncommitted changes)"
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
machine="$(nproc) cores${cpu:+, $cpu}"
INPUT="$input" DOC="${BENCH_DOC:-docs/performance.md}" ARGS="$*" COMMIT="$commit" SUBJECT="$subject" DIRTY="$dirty" MACHINE="$machine" \
  python3 - <<'PY'
import builtins, datetime, io, json, os, re, sys
def read(name):
    path = os.path.join(os.environ["INPUT"], name)
    text = open(path).read() if os.path.exists(path) else ""
    return [json.loads(line) for line in text.splitlines() if line.strip()]
native = {j["bench"]: j for j in read("native.jsonl")}
browser, page = {}, {}
for j in read("browser.jsonl"):
    (page if "page_s" in j else browser)[j["bench"]] = j
numpy = {j["bench"]: j for j in read("numpy.jsonl")}
# The table goes to the terminal and, below, into the doc.
say, table = builtins.print, io.StringIO()
def print(*args, **kwargs):
    kwargs.setdefault("file", table)
    builtins.print(*args, **kwargs)
print(f'{"benchmark":<24}{"native s":>9}{"wasm s":>9}{"wasm/native":>12}{"wasm MB":>9}{"page s":>8}{"page/native":>12}{"workers":>10}{"longest task":>13}'
      f'{"numpy s":>9}{"numpy/native":>13}{"numpy/wasm":>11}  result (native)')
lines = []
for name, n in native.items():
    b = browser.get(name, {})
    w = b.get("wasm_s")
    p = page.get(name, {})
    q = numpy.get(name, {}).get("numpy_s")
    ratio = f'{w / n["native_s"]:.2f}' if w else "—"
    page_s = f'{p["page_s"]:.2f}' if p else "—"
    # The page (its pool of workers) against one native thread: the issue's bound is 2.0.
    page_native = f'{p["page_s"] / n["native_s"]:.2f}' if p else "—"
    task = f'{p["longest_task_ms"]:.0f} ms' if p else "—"
    native_s = n["native_s"]
    q_s = f"{q:.3f}" if q else "—"
    q_native = f"{q / native_s:.2f}" if q else "—"
    q_wasm = f"{q / w:.2f}" if q and w else "—"
    print(f'{name:<24}{native_s:>9.3f}{(f"{w:.3f}" if w else "error"):>9}{ratio:>12}{b.get("wasm_peak_mb", float("nan")):>9.1f}'
          f'{page_s:>8}{page_native:>12}{p.get("split", p.get("workers", "—")):>10}{task:>13}'
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
        print(f'{name:<24}{"—":>9}{"—":>9}{"—":>12}{"—":>9}{p["page_s"]:>8.2f}{"—":>12}{p.get("split", p["workers"]):>10}{p["longest_task_ms"]:>10.0f} ms  (page only)')
        lines.append(json.dumps({"bench": name, "page_s": round(p["page_s"], 3), "page_workers": p["workers"],
                                 "page_longest_task_ms": round(p["longest_task_ms"], 1)}))
# The felt latency of the default preset (scripts/bench-latency.mjs: medians of 5 fresh pages).
latency = browser.get("fedrep-default-latency")
if latency:
    print(f'\nDefault preset in the page (medians of {latency["runs"]} fresh pages; issue 29 asks ≤ 0.3, ≤ 1.0 and ≤ 0.4 s):'
          f' Run → first point {latency["first_point_s"]:.2f} s, Run → done {latency["done_s"]:.2f} s,'
          f' ε slider released → redrawn curve {latency["slider_s"]:.2f} s')
    lines.append(json.dumps(latency))
sys.stdout.write(table.getvalue())
say()
say("\n".join(lines))

doc, args = os.environ["DOC"], os.environ["ARGS"].strip()
tag = "bench" + (":" + args if args else "")
begin, end = f"<!-- {tag}:begin -->", f"<!-- {tag}:end -->"
text = open(doc).read() if os.path.exists(doc) else ""
if begin not in text or end not in text:
    say(f"\n{doc} has no {begin} … {end} block: the table was not written there.")
    sys.exit(0)
command = "make bench" if not args else f"bash scripts/bench.sh {args}"
subject = os.environ["SUBJECT"]
subject = f' "{subject[:70].rstrip()}…"' if len(subject) > 70 else (f' "{subject}"' if subject else "")
block = (f"{begin}\n`{command}` on {datetime.date.today().isoformat()}, at the commit {os.environ['COMMIT']}{subject}{os.environ['DIRTY']}, "
         f"on {os.environ['MACHINE']} (written by `scripts/bench.sh`; do not edit by hand):\n\n"
         f"```\n{table.getvalue().rstrip()}\n```\n{end}")
pattern = re.compile(re.escape(begin) + ".*?" + re.escape(end), re.S)
open(doc, "w").write(pattern.sub(lambda _: block, text, count=1))
say(f"\nWrote the table into {doc} ({begin}).")
PY
