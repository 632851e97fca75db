#!/usr/bin/env bash
# graphcheck overhead, printed as ratios from one run: a replay-heavy loop, a
# training loop of many small eager kernels and captures + instantiates of
# 10,000 and 100,000 kernel nodes, each plain and under `graphcheck run` (light mode, and verify
# mode unless GRAPHCHECK_BENCH_MODES says otherwise). Two figures each: the
# loop time the script prints for itself, and the whole run's wall time
# (start-up, tracker and report included). Scripts that print their peak
# memory (maxrss_mb) get a third: what graphcheck adds to the process.
#
# GPU timings drift by up to 20% between runs on a shared machine, so plain
# and checked runs are interleaved, round by round, and each ratio is the
# median of the per-round ratios. On a host whose neighbours move single runs
# by more than the overhead itself, GRAPHCHECK_BENCH_PAIRED=1 runs each pair
# at the same time instead (see paired below), with plain-vs-plain control
# pairs that show the noise the pairing leaves.
#   scripts/device-bench.sh [BUILD_DIR] [ROUNDS]
# GRAPHCHECK_BENCH_MODES (default "light verify"; see cmd_for for modes with
# parts left out) and GRAPHCHECK_BENCH_SCRIPTS (";"-separated "script args")
# narrow the run.
set -euo pipefail
cd "$(dirname "$0")/.."
# On the device machine only $OUT's files come back whole: keep a copy there.
[ -n "${OUT:-}" ] && [ -d "$OUT" ] && exec > >(tee -a "$OUT/bench.txt") 2>&1
bin=$(realpath "${1:-build-device}")/bin/graphcheck
rounds=${2:-5}
modes=${GRAPHCHECK_BENCH_MODES:-light verify}
# Prints "LOOP WALL RSS_MB BEST" for one run of the command (nan where not
# printed; BEST is a script's fastest chunk scaled to its loop). Each run's own
# output is kept in $BENCH_RAW when set.
once() {
  local t0 t1 out
  t0=$(date +%s.%N)
  out=$("$@" 2>/dev/null)
  t1=$(date +%s.%N)
  [ -n "${BENCH_RAW:-}" ] && printf '== %s\n%s\n' "$*" "$out" >> "$BENCH_RAW"
  local v=$(awk '$1 ~ /^(loop|instantiate)_s$/{print $2}' <<< "$out")
  local m=$(awk '$1 == "maxrss_mb"{print $2}' <<< "$out") b=$(awk '$1 == "best_chunk_s"{print $2}' <<< "$out")
  [ -n "$v" ] && python3 -c "print($v, $t1 - $t0, ${m:-float('nan')}, ${b:-float('nan')})"
}
[ -n "${OUT:-}" ] && [ -d "$OUT" ] && BENCH_RAW=${BENCH_RAW:-$OUT/bench-raw.txt}
# Sets cmd to the command line of one run of $script in mode $1: plain, or a
# graphcheck mode with parts left out to see what each costs, e.g.
# light:no-tracker, light:no-shim, light:no-tracker,no-shim (CUPTI alone);
# or inject=LIB: the script under another CUDA injection library, a baseline
# for what CUPTI itself costs (an injection that subscribes and does nothing).
cmd_for() {
  [ "$1" = plain ] && { cmd=(python3 $script); return; }
  [[ $1 == inject=* ]] && { cmd=(env CUDA_INJECTION64_PATH="${1#inject=}" python3 $script); return; }
  local mode=${1%%:*} parts="" leave=()
  [[ $1 == *:* ]] && parts=",${1#*:},"
  [[ $parts == *,no-tracker,* ]] && leave+=(GRAPHCHECK_ALLOC_TRACKER=/nonexistent)
  [[ $parts == *,no-shim,* ]] && leave+=(GRAPHCHECK_PYTHON_SHIM=off)
  cmd=(env "${leave[@]}" "$bin" run --mode "$mode" --fail-on error -o /dev/null -- python3 $script)
}
# Plain and checked runs of $script at the same time, each pinned to its own
# half of the cores, so a neighbour that slows the host slows both alike (on
# the H100 host single runs vary 1.5x to 2x, pairs a few percent). Each round
# also runs a plain-vs-plain control pair: its ratio is what pairing itself
# leaves (GPU sharing, start order), the floor to read the others against.
# Sides and start order alternate by round. For CPU-bound loops only: two
# GPU-bound runs would mostly measure each other.
paired() {
  local half=$(($(nproc) / 2)) rows a b
  rows=$(mktemp)
  local sides=("0-$((half - 1))" "$half-$((2 * half - 1))")
  for r in $(seq "$rounds"); do
    for mode in plain $modes; do
      local s=$((r % 2))
      cmd_for plain; a=("${cmd[@]}")
      cmd_for "$mode"; b=("${cmd[@]}")
      # Waits for these two alone: a bare wait would also wait for the tee
      # that copies the output to $OUT, which never ends.
      local pa pb
      if [ $s = 0 ]; then
        once taskset -c "${sides[0]}" "${a[@]}" > "$rows.a" & pa=$!
        once taskset -c "${sides[1]}" "${b[@]}" > "$rows.b" & pb=$!
      else
        once taskset -c "${sides[0]}" "${b[@]}" > "$rows.b" & pb=$!
        once taskset -c "${sides[1]}" "${a[@]}" > "$rows.a" & pa=$!
      fi
      wait "$pa" "$pb" || true
      echo "$mode $(cat "$rows.a") $(cat "$rows.b")" >> "$rows"
    done
  done
  python3 - "$script" "$rows" <<'PY'
import statistics, sys
script, rows = sys.argv[1], {}
for line in open(sys.argv[2]):
    p = line.split()
    if len(p) == 9:
        rows.setdefault(p[0], []).append([float(x) for x in p[1:]])
for mode, rs in rows.items():
    name = "control" if mode == "plain" else mode
    if mode.startswith("inject="):
        name = "inject=" + mode.rsplit("/", 1)[-1]
    figures = []
    for k, what in ((0, "loop"), (1, "wall"), (3, "fastest chunk")):
        ratios = sorted(r[4 + k] / r[k] for r in rs if r[k] == r[k] and r[4 + k] == r[4 + k])
        if ratios:
            figures.append(f"{what} {statistics.median(ratios):5.3f}x ({ratios[0]:.3f}..{ratios[-1]:.3f})")
    print(f"{script:26s} {name:7s} paired, {len(rs)} pairs: " + "; ".join(figures), flush=True)
PY
  rm -f "$rows" "$rows.a" "$rows.b"
}
IFS=';' read -r -a scripts <<< "${GRAPHCHECK_BENCH_SCRIPTS:-bench/replay_loop.py 5000;bench/eager_loop.py 500;bench/instantiate_nodes.py 10000;bench/instantiate_nodes.py 100000}"
for script in "${scripts[@]}"; do
  if [ -n "${GRAPHCHECK_BENCH_PAIRED:-}" ]; then
    paired
    continue
  fi
  declare -A loop=() wall=() rss=() best=()
  for r in $(seq "$rounds"); do
    # Odd rounds run plain first, even rounds last: drift within a round
    # (clocks, neighbours on a shared host) then favours neither side.
    order="plain $modes"; [ $((r % 2)) == 0 ] && order="$modes plain"
    for mode in $order; do
      cmd_for "$mode"
      read -r l w m b <<< "$(once "${cmd[@]}" || echo "")"
      loop[$mode]+="${l:-nan} "; wall[$mode]+="${w:-nan} "; rss[$mode]+="${m:-nan} "; best[$mode]+="${b:-nan} "
    done
  done
  for mode in $modes; do
    python3 - "$script" "$mode" "${loop[plain]}" "${loop[$mode]}" "${wall[plain]}" "${wall[$mode]}" \
      "${rss[plain]}" "${rss[$mode]}" "${best[plain]}" "${best[$mode]}" <<'PY'
import math, statistics, sys
script, mode = sys.argv[1], sys.argv[2]
pl, cl, pw, cw, pm, cm, pb, cb = ([float(x) for x in a.split()] for a in sys.argv[3:11])
ok = [i for i in range(len(pl)) if pl[i] == pl[i] and cl[i] == cl[i]]
if not ok:
    print(f"{script:26s} {mode:6s} no figure"); sys.exit()
ratios = sorted(cl[i] / pl[i] for i in ok)
rl = statistics.median(ratios)
rw = statistics.median(cw[i] / pw[i] for i in ok)
spread = max(pl[i] for i in ok) / min(pl[i] for i in ok)
print(f"{script:26s} {mode:6s} loop {statistics.median(pl[i] for i in ok):7.3f} s -> "
      f"{statistics.median(cl[i] for i in ok):7.3f} s (median ratio {rl:4.2f}x)   wall "
      f"{statistics.median(pw[i] for i in ok):7.3f} s -> {statistics.median(cw[i] for i in ok):7.3f} s "
      f"(median ratio {rw:4.2f}x)   rounds {len(ok)}", flush=True)
# How far apart the plain runs themselves were: a ratio closer to 1 than
# this spread is within the machine's noise.
print(f"{'':26s} {mode:6s} per-round loop ratios {ratios[0]:.2f}x..{ratios[-1]:.2f}x; plain loop "
      f"times spread {spread:.2f}x", flush=True)
# The fastest chunk of each run: the overhead with the host's interference
# mostly taken out, for loops that print one.
okb = [i for i in ok if pb[i] == pb[i] and cb[i] == cb[i]]
if okb:
    rb = sorted(cb[i] / pb[i] for i in okb)
    print(f"{'':26s} {mode:6s} fastest chunk {statistics.median(pb[i] for i in okb):7.3f} s -> "
          f"{statistics.median(cb[i] for i in okb):7.3f} s (median ratio {statistics.median(rb):4.2f}x, "
          f"per-round {rb[0]:.2f}x..{rb[-1]:.2f}x)", flush=True)
if not math.isnan(pm[ok[0]]):
    nodes = int(script.split()[-1]) if script.split()[-1].isdigit() else 0
    dl = statistics.median(cl[i] - pl[i] for i in ok)
    dm = statistics.median(cm[i] - pm[i] for i in ok)
    print(f"{'':26s} {mode:6s} added {dl * 1e6 / max(nodes, 1):6.2f} us per node, peak memory "
          f"{statistics.median(pm[i] for i in ok):6.0f} MB -> {statistics.median(cm[i] for i in ok):6.0f} MB "
          f"(+{dm:.0f} MB, {dm * 1e6 / max(nodes, 1):.0f} bytes per node)", flush=True)
PY
  done
  unset loop wall rss best
done
