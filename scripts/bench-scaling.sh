#!/usr/bin/env bash
# `make bench-scaling`: how the native sweeps scale with threads. For 1, 2, 4, … threads up to the
# machine's cores (and the cores themselves), times `dp-explorer sweep --threads T` (release build) on
#   dpgd-paper   the DP-GD paper preset
#   dpgd-cell    its paper cell alone: p = 4000, ε = 4, one repeat, no trace
#   fedrep-1m    Private FedRep at n = 10⁶ (one ε, no Priv-AltMin)
# and prints wall seconds, CPU seconds (user + system, of the process), the CPU seconds of its busiest
# thread (scripts/thread-cpu.py: about the wall time on free cores, where other work keeps the machine
# busy), the speed-up over one thread (of the wall time, and of the busiest thread's CPU), and the cost
# model's prediction (the sweep's own "estimated" line: the busiest thread's share on this
# machine's probe), one line each; then writes the table into docs/performance.md (SCALING_DOC to
# choose another file) between <!-- bench-scaling:begin --> and <!-- bench-scaling:end -->, with the
# CPU (`lscpu` model name, avx2 / avx512f), the cores, the load average before and after, the date and
# the commit. A benchmark, not a test: `make test` does not run it.
#   SCALING_THREADS="1 2 16"   other thread counts
#   SCALING_ONLY="dpgd-cell"   some of the benchmarks
#   SCALING_BIN=path           time this binary instead of building target/release/dp-explorer
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
if [ -n "${SCALING_BIN:-}" ]; then
  bin=$SCALING_BIN
else
  cargo build --release --quiet --bin dp-explorer
  bin=./target/release/dp-explorer
fi
cores=$(nproc)
if [ -n "${SCALING_THREADS:-}" ]; then
  threads=($SCALING_THREADS)
else
  threads=()
  for ((t = 1; t < cores; t *= 2)); do threads+=("$t"); done
  threads+=("$cores")
fi
declare -A args=(
  [dpgd-paper]="--preset dpgd-paper"
  [dpgd-cell]="--preset dpgd-paper --set p_grid=4000 --set trace_p=none --set epsilons=4 --set seeds=1"
  [fedrep-1m]="--preset fedrep-paper --set n=1000000 --set epsilons=1 --set altmin=off"
)
names=(${SCALING_ONLY:-dpgd-paper dpgd-cell fedrep-1m})
out=target/bench-scaling
mkdir -p "$out"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
rows=()
for name in "${names[@]}"; do
  one=""
  one_busiest=""
  for t in "${threads[@]}"; do
    rm -rf "$out/run"
    # shellcheck disable=SC2086
    read -r wall cpu busiest < <(THREAD_CPU_STDOUT="$out/stdout" python3 scripts/thread-cpu.py \
      $bin sweep ${args[$name]} --threads "$t" --out "$out/run")
    predicted=$(sed -n 's/.*(estimated \([0-9.]*\) s.*/\1/p' "$out/stdout")
    [ -n "$one" ] || { one=$wall; one_busiest=$busiest; }
    speedup=$(python3 -c "print(f'{$one / $wall:.2f}')")
    busiest_speedup=$(python3 -c "print(f'{$one_busiest / $busiest:.2f}')")
    row=$(printf '%-12s %7s %8s %8s %10s %8s %10s %11s' "$name" "$t" "$wall" "$cpu" "$busiest" "$speedup" "$busiest_speedup" "${predicted:-?}")
    echo "$row $(cut -d' ' -f1 /proc/loadavg)"
    rows+=("$row")
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
model=$(lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -1)
ext=$(grep -o -w -E 'avx2|avx512f' /proc/cpuinfo | sort -u | tr '\n' ' ' | sed 's/ $//')
commit=$(git log -1 --format=%h 2>/dev/null || echo unknown)
dirty=""
git diff --quiet HEAD 2>/dev/null || dirty=" (plus uncommitted changes)"
{
  echo "\`make bench-scaling\` at $commit$dirty, $(date -u '+%Y-%m-%d %H:%M') UTC: $model, $cores cores, vector extensions: ${ext:-neither avx2 nor avx512f}; load average (1, 5, 15 min) $load_before before, $load_after after."
  echo
  echo '```'
  printf '%-12s %7s %8s %8s %10s %8s %10s %11s\n' benchmark threads "wall s" "CPU s" "busiest s" speed-up "(busiest)" "predicted s"
  printf '%s\n' "${rows[@]}"
  echo '```'
} > "$out/table.md"
cat "$out/table.md"
doc=${SCALING_DOC:-docs/performance.md}
if [ -f "$doc" ] && grep -q '<!-- bench-scaling:begin -->' "$doc"; then
  DOC="$doc" TABLE="$out/table.md" python3 - <<'PY'
import os, re
doc, table = os.environ["DOC"], open(os.environ["TABLE"]).read()
text = open(doc).read()
text = re.sub(r"(<!-- bench-scaling:begin -->\n).*?(<!-- bench-scaling:end -->)",
              lambda m: m.group(1) + table + m.group(2), text, flags=re.S)
open(doc, "w").write(text)
PY
  echo "wrote the table into $doc"
fi
