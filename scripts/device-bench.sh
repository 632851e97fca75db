#!/usr/bin/env bash
# graphcheck overhead, printed as ratios from one run: a replay-heavy training
# loop and a 10,000-node capture + instantiate, each plain and under
# `graphcheck run` in light and verify mode. Best of 3 of the time each
# script prints for itself.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-build-device}")/bin/graphcheck
best() {
  local b=""
  for _ in 1 2 3; do
    v=$("$@" 2>/dev/null | awk '/_s /{print $2}')
    [ -z "$v" ] && continue
    if [ -z "$b" ] || python3 -c "import sys; sys.exit(0 if $v < $b else 1)"; then b=$v; fi
  done
  echo "$b"
}
for script in "bench/replay_loop.py 5000" "bench/instantiate_10k.py"; do
  plain=$(best python3 $script)
  for mode in light verify; do
    checked=$(best "$bin" run --mode $mode --fail-on error -o /dev/null -- python3 $script)
    if [ -z "$plain" ] || [ -z "$checked" ]; then echo "$script ($mode): no figure (plain='$plain' checked='$checked')"; continue; fi
    python3 -c "print(f'{\"$script\":28s} {\"$mode\":6s} plain {$plain:8.3f} s  graphcheck {$checked:8.3f} s  ratio {$checked/$plain:5.2f}x')"
  done
done
