#!/usr/bin/env bash
# graphcheck overhead, printed as ratios from one run: a replay-heavy loop and
# a 10,000-node instantiate, each plain and under `graphcheck run` (light mode).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build-device}/bin/graphcheck
best() { # best of 3 of the figure a script prints
  local b=""
  for _ in 1 2 3; do
    v=$("$@" 2>/dev/null | awk '/_s /{print $2}')
    if [ -z "$b" ] || (( $(echo "$v < $b" | bc -l 2>/dev/null || python3 -c "print(int($v < $b))") )); then b=$v; fi
  done
  echo "$b"
}
for script in "bench/replay_loop.py 5000" "bench/instantiate_10k.py"; do
  plain=$(best python3 $script)
  checked=$(best "$bin" run --fail-on error -o /dev/null -- python3 $script)
  if [ -z "$plain" ] || [ -z "$checked" ]; then echo "$script: no figure (plain='$plain' checked='$checked')"; continue; fi
  python3 -c "print(f'{\"$script\":32s} plain {$plain:8.3f} s  graphcheck {$checked:8.3f} s  ratio {$checked/$plain:5.2f}x')"
done
