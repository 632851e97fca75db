#!/usr/bin/env bash
# GPU tests: each scenario in testdata/runtime/scenarios runs with and without
# graphcheck; stdout and exit code must match, and the report must hold
# exactly the findings the scenario's `expect:` lines name: `expect: RULE` by
# rule id, `expect: RULE at LINE` also by the scenario line it points at. Python scenarios
# run with python3; C++/CUDA ones (.cpp, .cu) run from BUILD/scenarios, where
# scripts/device-build.sh builds them. A `graphcheck:` line adds options
# (e.g. --mode verify). Skips (exit 77) without a GPU.
set -uo pipefail
cd "$(dirname "$0")/.."
# On the device machine only $OUT's files come back whole: keep a copy there.
[ -n "${OUT:-}" ] && [ -d "$OUT" ] && exec > >(tee -a "$OUT/gpu-tests.txt") 2>&1
build=$(realpath "${1:-build-device}")
bin=$build/bin/graphcheck
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "gpu-tests: skipped: no CUDA GPU on this machine (these run on a GPU machine)"; exit 77
fi
# Prints "yes|no FINDINGS": whether the report (2nd arg) holds exactly what the
# scenario's (1st arg) expect lines name, then its findings as "rule" or, where
# they point into the scenario, "rule at LINE".
match_findings() {
  python3 - "$@" <<'PY'
import json, os, re, sys
want = [m.groups() for m in re.finditer(r"^(?:#|//) expect: (\S+)(?: at (\d+))?$",
                                        open(sys.argv[1]).read(), re.M)]
got = []
for f in json.load(open(sys.argv[2]))["findings"]:
    loc = f["location"]
    here = os.path.basename(loc.get("file") or "") == os.path.basename(sys.argv[1])
    got.append((f["rule"], str(loc["line"]) if here and loc.get("line") else None))
left = list(got)
ok = True
for rule, line in sorted(want, key=lambda w: w[1] is None):
    hit = next((g for g in left if g[0] == rule and (line is None or g[1] == line)), None)
    if hit is None:
        ok = False
        break
    left.remove(hit)
ok = ok and not left
print("yes" if ok else "no", " ".join(sorted(r + (f" at {l}" if l else "") for r, l in got)))
PY
}
pass=0; fail=0
for s in testdata/runtime/scenarios/*.py testdata/runtime/scenarios/*.cu testdata/runtime/scenarios/*.cpp; do
  [ -e "$s" ] || continue
  file=$(basename "$s"); name=${file%.*}
  # GPU_TESTS_ONLY="a b" runs those scenarios alone (and the torchrun check).
  if [ -n "${GPU_TESTS_ONLY:-}" ] && [[ " $GPU_TESTS_ONLY " != *" $name "* ]]; then continue; fi
  case "$s" in
    *.py) cmd=(python3 "$s") ;;
    *) cmd=("$build/scenarios/$name")
       # On a GPU machine a scenario that was not built is a failure, not a skip:
       # a run that observed nothing must not pass.
       if [ ! -x "${cmd[0]}" ]; then
         fail=$((fail+1)); echo "FAIL $file: not built (no nvcc, or no CUDA libtorch for the adapter; run scripts/device-build.sh)"; continue
       fi ;;
  esac
  want=$(grep -E '^(#|//) expect: ' "$s" | sed -E 's@^(#|//) expect: @@' | sort | tr '\n' ' ')
  # Each `graphcheck:` line is one checked run with those options; none means one default run.
  mapfile -t configs < <(grep -E '^(#|//) graphcheck: ' "$s" | sed -E 's@^(#|//) graphcheck: @@')
  [ ${#configs[@]} -eq 0 ] && configs=("")
  plain_out=$("${cmd[@]}" 2>/dev/null); plain_rc=$?
  for config in "${configs[@]}"; do
    read -r -a extra <<< "$config"
    rm -rf "/tmp/$file.json" "/tmp/traces-$file"
    checked_out=$(GRAPHCHECK_KEEP_TRACES="/tmp/traces-$file" "$bin" run "${extra[@]}" --format json -o "/tmp/$file.json" --fail-on warning -- "${cmd[@]}" 2>"/tmp/$file.err"); checked_rc=$?
    # Findings as "rule" or, where they point into the scenario, "rule at LINE";
    # an `expect: rule at LINE` line must match both, an `expect: rule` the rule.
    read -r match got < <(match_findings "$s" "/tmp/$file.json" 2>/dev/null || echo "no ")
    got="${got:+$got }"
    expected_rc=$plain_rc; [ -n "$want" ] && expected_rc=1
    # The report must be this run's and complete, and something must have been
    # recorded: a clean scenario passes on what was observed, not on silence.
    complete=$(python3 -c "import json;print('yes' if json.load(open('/tmp/$file.json')).get('complete') else 'no')" 2>/dev/null)
    recorded=$(find "/tmp/traces-$file" -name '*.jsonl' -size +0 2>/dev/null | head -1)
    if [ "$complete" != yes ] || [ -z "$recorded" ]; then
      got="${got}[report complete=${complete:-missing}, trace=${recorded:-none}] "; match=no
    fi
    if [ "$plain_out" == "$checked_out" ] && [ "$match" == yes ] && [ "$checked_rc" == "$expected_rc" ]; then
      pass=$((pass+1)); echo "PASS $file ${extra[*]}: [$got] rc=$checked_rc output identical"
    else
      fail=$((fail+1)); echo "FAIL $file ${extra[*]}: want [$want] got [$got]; rc plain=$plain_rc checked=$checked_rc"
      echo "  plain:   $plain_out"; echo "  checked: $checked_out"; head -c 3000 "/tmp/$file.err"; head -c 3000 "/tmp/$file.json"
    fi
    grep -h '^graphcheck: ' "/tmp/$file.err" | grep -v 'error(s)' | sed 's/^/    /'
    python3 -c "import json
for f in json.load(open('/tmp/$file.json'))['findings']:
    loc=f['location']; print('   ', f['rule'], (loc['file']+':'+str(loc['line'])) if loc['line'] else '', f['message'][:260])
    for n in f['notes']:
        if 'captured here' in n['message']: print('      note:', n['location']['file']+':'+str(n['location']['line']), n['message'])" 2>/dev/null
    # Traces of failing scenarios come back for debugging (and as new fixtures);
    # GPU_TESTS_KEEP_TRACES=DIR keeps every scenario's.
    if [ -n "${GPU_TESTS_KEEP_TRACES:-}" ]; then
      mkdir -p "$GPU_TESTS_KEEP_TRACES"
      cp /tmp/traces-"$file"/*.jsonl "$GPU_TESTS_KEEP_TRACES/$file${extra[1]:+-${extra[1]}}.trace.jsonl" 2>/dev/null || true
    fi
    if [ "$match" != yes ]; then cp /tmp/traces-"$file"/*.jsonl "${OUT:-/tmp}/$file${extra[1]:+-${extra[1]}}.trace.jsonl" 2>/dev/null || true; fi
  done
done
# A pytest run under graphcheck, reported as JUnit: every finding a failure of
# the test that made it (the `# expect:` on its def line), the other tests
# clean, pytest's own verdict unchanged.
suite=testdata/runtime/pytest/test_graph_suite.py
if [ -n "${GPU_TESTS_ONLY:-}" ] && [[ " $GPU_TESTS_ONLY " != *" pytest "* ]]; then :
elif ! python3 -c 'import pytest' 2>/dev/null; then
  fail=$((fail+1)); echo "FAIL pytest suite: pytest is not installed on this GPU machine"
else
  # pytest's last line without its timing: "5 passed, 2 warnings".
  plain=$(python3 -m pytest -q -p no:cacheprovider "$suite" 2>&1 | tail -1 | sed -E 's/ in [0-9.]+s.*//')
  for mode in light verify; do
    rm -f "/tmp/suite-$mode.xml"
    checked=$("$bin" run --mode "$mode" --format junit -o "/tmp/suite-$mode.xml" -- \
      python3 -m pytest -q -p no:cacheprovider "$suite" 2>"/tmp/suite-$mode.err" | tail -1 | sed -E 's/ in [0-9.]+s.*//')
    [ -n "${OUT:-}" ] && cp "/tmp/suite-$mode.xml" "$OUT/pytest-suite-$mode.junit.xml" 2>/dev/null
    verdict=$(python3 - "$suite" "/tmp/suite-$mode.xml" <<'PY'
import re, sys, xml.etree.ElementTree as ET
want = {m.group(1): sorted(m.group(2).split()) if m.group(2) else []
        for m in re.finditer(r"^def (test_\w+)\(.*?:(?:\s*# expect: (.*))?$", open(sys.argv[1]).read(), re.M)}
got = {}
for case in ET.parse(sys.argv[2]).getroot().iter("testcase"):
    got[case.get("name")] = sorted(f.get("type") for f in case.findall("failure"))
print("yes" if got == want else "no", got)
PY
)
    if [[ "$verdict" == yes* ]] && [ "$plain" == "$checked" ]; then
      pass=$((pass+1)); echo "PASS pytest suite --mode $mode: ${verdict#yes } ($checked)"
    else
      fail=$((fail+1)); echo "FAIL pytest suite --mode $mode: ${verdict}; pytest plain [$plain] checked [$checked]"
      tail -c 2000 "/tmp/suite-$mode.err"
    fi
  done
fi
# A program killed outright (SIGKILL: no exit handler runs, nothing is
# flushed at the end): the report still holds every finding made before the
# kill and says the run stopped there.
if [ -z "${GPU_TESTS_ONLY:-}" ] || [[ " $GPU_TESTS_ONLY " == *" killed "* ]]; then
  rm -f /tmp/killed.json
  "$bin" run --format json -o /tmp/killed.json -- python3 -c "import os, runpy, signal
runpy.run_path('testdata/runtime/scenarios/accumulation_bug.py', run_name='__main__')
os.kill(os.getpid(), signal.SIGKILL)" >/dev/null 2>/tmp/killed.err
  got=$(python3 -c "import json; r = json.load(open('/tmp/killed.json'))
print(' '.join(sorted(f['rule'] for f in r['findings'])), 'complete' if r.get('complete') else 'incomplete')" 2>/dev/null)
  want="grad-aliases-graph-buffer grad-aliases-graph-buffer incomplete"
  if [ "$got" == "$want" ] && grep -q "killed by signal 9" /tmp/killed.err; then
    pass=$((pass+1)); echo "PASS killed by SIGKILL: [$got], the kill named"
  else
    fail=$((fail+1)); echo "FAIL killed by SIGKILL: got [$got], want [$want] and the kill named"; tail -c 2000 /tmp/killed.err
  fi
fi
# A peer's suite: PyTorch's own graph tests, plain and under both modes.
if [ -z "${GPU_TESTS_ONLY:-}" ] || [[ " $GPU_TESTS_ONLY " == *" pytorch "* ]]; then
  scripts/pytorch-graph-tests.sh "$build"; rc=$?
  if [ "$rc" == 0 ]; then pass=$((pass+1)); echo "PASS PyTorch graph tests (light and verify)"
  else fail=$((fail+1)); echo "FAIL PyTorch graph tests (rc=$rc; 77: not fetched, run scripts/fetch-pytorch-tests.sh)"; fi
fi
# Several processes (torchrun, two ranks on this GPU): one report, each
# finding naming the ranks that hit it. NCCL runs need a GPU per rank:
# scripts/gpu-ranks.sh on a 2-GPU machine.
if ! command -v torchrun >/dev/null; then
  fail=$((fail+1)); echo "FAIL torchrun x2: torchrun is not installed on this GPU machine"
else
  rm -f /tmp/ranks.json*
  "$bin" run --format json -o /tmp/ranks.json --fail-on warning -- torchrun --standalone --nproc_per_node 2 \
    testdata/runtime/scenarios/accumulation_bug.py >/dev/null 2>/tmp/ranks.err; rc=$?
  got=$(python3 scripts/findings-by-process.py /tmp/ranks.json)
  want="grad-aliases-graph-buffer@rank0,rank1 grad-aliases-graph-buffer@rank0,rank1"
  if [ "$got" == "$want" ] && [ "$rc" == 1 ]; then
    pass=$((pass+1)); echo "PASS torchrun x2 accumulation_bug.py: one report, findings [$got] rc=$rc"
  else
    fail=$((fail+1)); echo "FAIL torchrun x2 accumulation_bug.py: findings [$got], want [$want] rc=$rc"; tail -c 2000 /tmp/ranks.err
  fi
fi
echo "gpu-tests: $pass passed, $fail failed"
[ "$fail" == 0 ]
