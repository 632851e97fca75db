#!/usr/bin/env bash
# Where light mode's cost on launch-bound loops comes from, per CUDA API call:
# bench/api_cost.cu times single calls (a runtime call the runtime answers
# alone, one that reaches the driver, a driver call, a kernel launch) plain,
# under the CUPTI baselines of bench/cupti_floor.cpp and under graphcheck;
# cupti_floor's count mode then says how many calls of each kind one step of
# the bench loops makes. Nanoseconds added per call times calls per step is
# what each kind of call costs a step.
#   scripts/device-api-cost.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${OUT:-}" ] && [ -d "$OUT" ] && exec > >(tee -a "$OUT/api-cost.txt") 2>&1
bin=$(realpath "${1:-build-device}")/bin/graphcheck
cuda=${CUDA_HOME:-/usr/local/cuda}
inc=$(dirname "$(find -L "$cuda" -name cupti.h | head -1)")
lib=$(dirname "$(find -L "$cuda" -name 'libcupti.so' | head -1)")
work=$(mktemp -d)
names=(empty loaded subscribed unsubscribed driver-one runtime-one count)
for m in 0 1 2 3 4 5 6; do
  g++ -shared -fPIC -O2 -DFLOOR_MODE=$m bench/cupti_floor.cpp -I"$inc" -L"$lib" -Wl,-rpath,"$lib" \
    -o "$work/${names[$m]}.so" $([ $m -gt 0 ] && echo -lcupti)
done
"$cuda/bin/nvcc" -O2 -o "$work/api_cost" bench/api_cost.cu -lcuda
echo "== ns per call, best of 5 rounds"
run() { # label, command...
  local label=$1; shift
  echo "$label $("$@" 2>/dev/null | awk '{printf "%s=%s ", $1, $2}')"
}
for round in 1 2; do
  run plain "$work/api_cost"
  for m in empty subscribed driver-one runtime-one; do
    run "$m" env CUDA_INJECTION64_PATH="$work/$m.so" "$work/api_cost"
  done
  run light "$bin" run --mode light -o /dev/null -- "$work/api_cost"
  run verify "$bin" run --mode verify -o /dev/null -- "$work/api_cost"
done
echo "== calls per step (the difference between two run lengths)"
for spec in "bench/tiny_kernels_loop.py 200 400" "bench/eager_loop.py 100 200"; do
  read -r script short long <<< "$spec"
  for n in $short $long; do
    CUDA_INJECTION64_PATH="$work/count.so" python3 "$script" "$n" 2> "$work/count-$n.txt" >/dev/null
  done
  python3 - "$script" "$work/count-$short.txt" "$work/count-$long.txt" $((long - short)) <<'PY'
import sys
def read(p):
    out = {}
    for line in open(p):
        f = line.split()
        if len(f) == 4 and f[0] == "calls":
            out[f"{f[1]}:{f[2]}"] = int(f[3])
    return out
a, b, steps = read(sys.argv[2]), read(sys.argv[3]), int(sys.argv[4])
per = {k: (b.get(k, 0) - a.get(k, 0)) / steps for k in b}
rt = sum(v for k, v in per.items() if k.startswith("runtime:"))
dr = sum(v for k, v in per.items() if k.startswith("driver:"))
print(f"{sys.argv[1]}: {rt:.1f} runtime and {dr:.1f} driver calls a step")
for k, v in sorted(per.items(), key=lambda kv: -kv[1])[:15]:
    if v >= 0.5:
        print(f"   {v:8.1f}  {k}")
PY
done
rm -rf "$work"
