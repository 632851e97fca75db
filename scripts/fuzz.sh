#!/usr/bin/env bash
# Builds the libFuzzer targets (clang-19, ASan + UBSan) and runs each for
# SECONDS (default 30) on its corpus: seeds from fuzz/corpus and testdata, plus
# what earlier runs kept in BUILD/corpus. A crash, leak or sanitizer report
# fails the script; the input is kept in BUILD/crashes/ (add it to the
# target's seeds in fuzz/corpus as a regression case once fixed).
#   scripts/fuzz.sh [SECONDS] [TARGET...]   (FUZZ_SEED=N picks the random seed, 0 a new one each run; 1 by
#   default so CI runs are repeatable)
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-30}
shift || true
out=${FUZZ_BUILD:-build-fuzz}
declare -A seeds=(
  [fuzz_rule_yaml]="rules fuzz/corpus/rule_yaml"
  [fuzz_suppressions]="testdata/lint fuzz/corpus/suppressions"
  [fuzz_baseline]="fuzz/corpus/baseline"
  [fuzz_trace]="testdata/runtime fuzz/corpus/trace"
  [fuzz_cubin_params]="testdata/runtime/cubin fuzz/corpus/cubin_params"
  [fuzz_report_writers]="fuzz/corpus/report"
  [fuzz_python_front_end]="testdata/python testdata/example fuzz/corpus/python_front_end"
)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(fuzz_rule_yaml fuzz_suppressions fuzz_baseline fuzz_trace
                                     fuzz_cubin_params fuzz_report_writers fuzz_python_front_end)
cmake -S . -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-19 \
  -DCMAKE_CXX_COMPILER=clang++-19 -DGRAPHSAFE_FUZZ=ON -DGRAPHSAFE_BUILD_ANALYZER=OFF \
  -DGRAPHSAFE_BUILD_TESTS=OFF >/dev/null
ninja -C "$out" "${targets[@]}"
mkdir -p "$out/crashes"
failed=0
for t in "${targets[@]}"; do
  mkdir -p "$out/corpus/$t"
  dirs=()
  for d in ${seeds[$t]}; do [ -d "$d" ] && dirs+=("$d"); done
  echo "fuzz: $t for ${secs}s on ${dirs[*]}"
  if ! "$out/fuzz/$t" -seed="${FUZZ_SEED:-1}" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$out/crashes/$t-" "$out/corpus/$t" "${dirs[@]}" > "$out/$t.log" 2>&1; then
    failed=1
    echo "fuzz: $t FAILED; the input is in $out/crashes/, the report in $out/$t.log" >&2
    grep -m5 -E "ERROR|SUMMARY|runtime error" "$out/$t.log" >&2 || tail -20 "$out/$t.log" >&2
  else
    grep -E "stat::number_of_executed_units|stat::new_units_added" "$out/$t.log" | tr '\n' ' '
    echo
  fi
done
exit $failed
