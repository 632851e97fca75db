#!/usr/bin/env bash
# What graphcheck's own code costs a training step in light mode, measured
# where it runs rather than as a ratio of loop times: the injection adds up
# the time spent in its CUPTI callbacks and in the allocator tracker's block
# events, the Python shim the time spent in its hooks (GRAPHCHECK_SELF_TIME=1),
# and each says it at exit. Host noise moves a loop's time by more than light
# mode's overhead (docs/overhead.md); it hardly moves these sums. Prints, per
# script, microseconds a step: the loop's own time, each part, their total,
# and the total as a share of the step.
#   scripts/device-self-time.sh [BUILD_DIR] [ROUNDS]
# GRAPHCHECK_BENCH_SCRIPTS (";"-separated "script steps") narrows the run.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${OUT:-}" ] && [ -d "$OUT" ] && exec > >(tee -a "$OUT/self-time.txt") 2>&1
bin=$(realpath "${1:-build-device}")/bin/graphcheck
rounds=${2:-3}
IFS=';' read -r -a scripts <<< "${GRAPHCHECK_BENCH_SCRIPTS:-bench/eager_loop.py 300;bench/tiny_kernels_loop.py 2000;bench/replay_loop.py 2000}"
for entry in "${scripts[@]}"; do
  read -r script steps <<< "$entry"
  for r in $(seq "$rounds"); do
    err=$(mktemp) out=$(mktemp)
    GRAPHCHECK_SELF_TIME=1 "$bin" run --mode light --fail-on error -o /dev/null -- \
      python3 "$script" "$steps" > "$out" 2> "$err" || true
    python3 - "$script" "$steps" "$r" "$out" "$err" <<'PY'
import re, sys
script, steps, rnd = sys.argv[1], int(sys.argv[2]), sys.argv[3]
out, err = open(sys.argv[4]).read(), open(sys.argv[5]).read()
def grab(pattern, text):
    m = re.search(pattern, text)
    return float(m.group(1)) if m else float("nan")
loop = grab(r"(?m)^loop_s (\S+)", out)
best = grab(r"(?m)^best_chunk_s (\S+)", out)
cb = grab(r"self-time: callbacks (\S+) ms", err)
blocks = grab(r"block events (\S+) ms", err)
shim = grab(r"shim self-time: (\S+) ms", err)
us = lambda ms: ms * 1e3 / steps
total = us(cb) + us(blocks) + (us(shim) if shim == shim else 0)
step = best * 1e6 / steps
print(f"{script} {steps} round {rnd}: step {step:.1f} us (fastest chunk; loop {loop * 1e6 / steps:.1f})"
      f" | callbacks {us(cb):.2f} us, block events {us(blocks):.2f} us, shim {us(shim):.2f} us"
      f" | graphcheck {total:.2f} us a step = {100 * total / step:.2f}% of the step")
PY
    [ -n "${OUT:-}" ] && [ -d "$OUT" ] && { echo "== $script $steps round $r"; tail -5 "$err"; } >> "$OUT/self-time-raw.txt"
    rm -f "$err" "$out"
  done
done
