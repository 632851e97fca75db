#!/usr/bin/env bash
# What graphcheck's own code costs a training step in light mode, measured
# where it runs rather than as a ratio of loop times: the injection adds up
# the time spent in its CUPTI callbacks and in the allocator tracker's block
# events, the Python shim the time spent in its hooks (GRAPHCHECK_SELF_TIME=1),
# and each says it at exit. Host noise moves a loop's time by more than light
# mode's overhead (docs/overhead.md); it hardly moves these sums.
#
# Each script runs at STEPS and at 4 x STEPS steps: the difference, per step,
# is the steady cost of a step, without start-up, the capture and the eager
# windows light mode opens early on (they come at replays 2^k, so a longer run
# pays them once more at most). Prints microseconds a step: the loop's own
# time (its fastest chunk), each part, their total, and the total's share.
#   scripts/device-self-time.sh [BUILD_DIR] [ROUNDS]
# GRAPHCHECK_BENCH_SCRIPTS (";"-separated "script steps") narrows the run.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${OUT:-}" ] && [ -d "$OUT" ] && exec > >(tee -a "$OUT/self-time.txt") 2>&1
bin=$(realpath "${1:-build-device}")/bin/graphcheck
rounds=${2:-3}
IFS=';' read -r -a scripts <<< "${GRAPHCHECK_BENCH_SCRIPTS:-bench/eager_loop.py 300;bench/tiny_kernels_loop.py 2000;bench/replay_loop.py 2000}"
raw=${OUT:-/tmp}/self-time-raw.txt
run() { # script steps -> stdout in $1.out, stderr in $1.err
  GRAPHCHECK_SELF_TIME=1 "$bin" run --mode light --fail-on error -o /dev/null -- \
    python3 "$2" "$3" > "$1.out" 2> "$1.err" || true
  { echo "== $2 $3"; grep -E '^(loop_s|best_chunk_s)|self-time' "$1.out" "$1.err"; } >> "$raw"
}
for entry in "${scripts[@]}"; do
  read -r script steps <<< "$entry"
  for r in $(seq "$rounds"); do
    short=$(mktemp) long=$(mktemp)
    run "$short" "$script" "$steps"
    run "$long" "$script" $((4 * steps))
    python3 - "$script" "$steps" "$r" "$short" "$long" <<'PY'
import math, re, sys
script, steps, rnd, short, long = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
def parts(base):
    out, err = open(base + ".out").read(), open(base + ".err").read()
    grab = lambda p, t: float(m.group(1)) if (m := re.search(p, t)) else math.nan
    return {"best_s": grab(r"(?m)^best_chunk_s (\S+)", out),
            "runtime": grab(r"self-time: runtime (\S+) ms", err),
            "driver": grab(r", driver (\S+) ms", err),
            "resource": grab(r", resource (\S+) ms", err),
            "blocks": grab(r"block events (\S+) ms", err),
            "trace": grab(r"writing the trace (\S+) ms", err),
            "shim": grab(r"shim self-time: (\S+) ms", err) if "shim self-time" in err else 0.0}
a, b = parts(short), parts(long)
n = 3 * steps
per = {k: (b[k] - a[k]) * 1e3 / n for k in ("runtime", "driver", "resource", "blocks", "shim", "trace")}
total = sum(v for k, v in per.items() if k != "trace")  # the trace's writes are inside the others
step = b["best_s"] * 1e6 / (4 * steps)
print(f"{script} round {rnd}: step {step:.1f} us | runtime callbacks {per['runtime']:.2f}, "
      f"driver {per['driver']:.2f}, resource {per['resource']:.2f}, block events {per['blocks']:.2f}, "
      f"shim {per['shim']:.2f} us | graphcheck {total:.2f} us a step = {100 * total / step:.2f}% "
      f"(writing the trace {per['trace']:.2f} us of it)")
PY
    rm -f "$short"* "$long"*
  done
done
