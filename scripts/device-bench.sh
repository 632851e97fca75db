#!/usr/bin/env bash
# graphcheck overhead, printed as ratios from one run: a replay-heavy loop, a
# training loop of many small eager kernels and a 10,000-node capture +
# instantiate, each plain and under `graphcheck run` in light and verify
# mode. Two figures each: the loop time the script prints for itself, and the
# whole run's wall time (start-up, tracker and report included). Best of 3.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-build-device}")/bin/graphcheck
# Prints "LOOP WALL" for the best of 3 runs of the command.
best() {
  local bl="" bw=""
  for _ in 1 2 3; do
    local t0 t1 v
    t0=$(date +%s.%N)
    v=$("$@" 2>/dev/null | awk '/_s /{print $2}')
    t1=$(date +%s.%N)
    [ -z "$v" ] && continue
    w=$(python3 -c "print($t1 - $t0)")
    if [ -z "$bl" ] || python3 -c "import sys; sys.exit(0 if $v < $bl else 1)"; then bl=$v; fi
    if [ -z "$bw" ] || python3 -c "import sys; sys.exit(0 if $w < $bw else 1)"; then bw=$w; fi
  done
  echo "$bl $bw"
}
for script in "bench/replay_loop.py 5000" "bench/eager_loop.py 500" "bench/instantiate_10k.py"; do
  read -r plain plain_wall <<< "$(best python3 $script)"
  for mode in light verify; do
    read -r checked checked_wall <<< "$(best "$bin" run --mode $mode --fail-on error -o /dev/null -- python3 $script)"
    if [ -z "$plain" ] || [ -z "${checked:-}" ]; then echo "$script ($mode): no figure (plain='$plain' checked='${checked:-}')"; continue; fi
    python3 -c "print(f'{\"$script\":26s} {\"$mode\":6s} loop {$plain:7.3f} s -> {$checked:7.3f} s ({$checked/$plain:4.2f}x)   wall {$plain_wall:7.3f} s -> {$checked_wall:7.3f} s ({$checked_wall/$plain_wall:4.2f}x)')"
  done
done
