#!/usr/bin/env bash
# graphcheck overhead, printed as ratios from one run: a replay-heavy loop, a
# training loop of many small eager kernels and a 10,000-node capture +
# instantiate, each plain and under `graphcheck run` (light mode, and verify
# mode unless GRAPHCHECK_BENCH_MODES says otherwise). Two figures each: the
# loop time the script prints for itself, and the whole run's wall time
# (start-up, tracker and report included).
#
# GPU timings drift by up to 20% between runs on a shared machine, so plain
# and checked runs are interleaved, round by round, and each ratio is the
# median of the per-round ratios.
#   scripts/device-bench.sh [BUILD_DIR] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-build-device}")/bin/graphcheck
rounds=${2:-5}
modes=${GRAPHCHECK_BENCH_MODES:-light verify}
# Prints "LOOP WALL" for one run of the command.
once() {
  local t0 t1 v
  t0=$(date +%s.%N)
  v=$("$@" 2>/dev/null | awk '/_s /{print $2}')
  t1=$(date +%s.%N)
  [ -n "$v" ] && python3 -c "print($v, $t1 - $t0)"
}
for script in "bench/replay_loop.py 5000" "bench/eager_loop.py 500" "bench/instantiate_10k.py"; do
  declare -A loop=() wall=()
  for r in $(seq "$rounds"); do
    for mode in plain $modes; do
      if [ "$mode" = plain ]; then cmd=(python3 $script)
      else cmd=("$bin" run --mode "$mode" --fail-on error -o /dev/null -- python3 $script); fi
      read -r l w <<< "$(once "${cmd[@]}" || echo "")"
      loop[$mode]+="${l:-nan} "; wall[$mode]+="${w:-nan} "
    done
  done
  for mode in $modes; do
    python3 - "$script" "$mode" "${loop[plain]}" "${loop[$mode]}" "${wall[plain]}" "${wall[$mode]}" <<'PY'
import statistics, sys
script, mode = sys.argv[1], sys.argv[2]
pl, cl, pw, cw = ([float(x) for x in a.split()] for a in sys.argv[3:7])
ok = [i for i in range(len(pl)) if pl[i] == pl[i] and cl[i] == cl[i]]
if not ok:
    print(f"{script:26s} {mode:6s} no figure"); sys.exit()
rl = statistics.median(cl[i] / pl[i] for i in ok)
rw = statistics.median(cw[i] / pw[i] for i in ok)
print(f"{script:26s} {mode:6s} loop {statistics.median(pl[i] for i in ok):7.3f} s -> "
      f"{statistics.median(cl[i] for i in ok):7.3f} s (median ratio {rl:4.2f}x)   wall "
      f"{statistics.median(pw[i] for i in ok):7.3f} s -> {statistics.median(cw[i] for i in ok):7.3f} s "
      f"(median ratio {rw:4.2f}x)   rounds {len(ok)}", flush=True)
PY
  done
  unset loop wall
done
