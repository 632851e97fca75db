#!/usr/bin/env bash
# PyTorch's own CUDA graph tests (test/test_cuda.py -k graph, from Debian 13's
# pytorch 2.6 source; scripts/fetch-pytorch-tests.sh puts it and expecttest in
# .deps/pytorch-tests) run plain, under light mode and under verify mode. Each
# mode must give every test the outcome the plain run gave, and every finding
# must point at a host line and be one this file lists as true. Writes the
# reports (pytest JUnit, graphcheck JSON and JUnit) to $OUT when set.
# Skips (exit 77) without a GPU or without the fetched tests.
#   scripts/pytorch-graph-tests.sh [BUILD_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-build-device}")
tests=$PWD/.deps/pytorch-tests
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "pytorch-graph-tests: skipped: no CUDA GPU on this machine"; exit 77
fi
if [ ! -f "$tests/test_cuda.py" ]; then
  echo "pytorch-graph-tests: skipped: $tests/test_cuda.py is missing (run scripts/fetch-pytorch-tests.sh where there is network)"; exit 77
fi
work=${OUT:-$(mktemp -d)}
export PYTHONPATH="$tests${PYTHONPATH:+:$PYTHONPATH}"
pytest_args=(-q -p no:cacheprovider "$tests/test_cuda.py" -k graph)
python3 -m pytest "${pytest_args[@]}" --junitxml="$work/plain.xml" >"$work/plain.txt" 2>&1
echo "plain: $(tail -1 "$work/plain.txt")"
status=0
for mode in light verify; do
  "$build/bin/graphcheck" run --mode "$mode" --format json -o "$work/$mode.json" -- \
    python3 -m pytest "${pytest_args[@]}" --junitxml="$work/$mode-pytest.xml" >"$work/$mode.txt" 2>"$work/$mode.err"
  "$build/bin/graphcheck" analyze --format junit -o "$work/$mode-findings.xml" "$work/$mode.json" 2>/dev/null || true
  echo "$mode: $(tail -1 "$work/$mode.txt")"
  python3 - "$work/plain.xml" "$work/$mode-pytest.xml" "$work/$mode.json" "$mode" <<'PY' || status=1
import json, sys, xml.etree.ElementTree as ET
plain, checked, report, mode = sys.argv[1:]
# Findings known true, by test: the first races two graphs of one pool on
# purpose; the second replays three graphs of one pool out of capture order
# and asserts that the third read the second's output instead of the first's.
TRUE = {("test_graph_concurrent_replay", "replay-race-shared-pool"),
        ("test_graph_three_successive", "replay-input-overwritten")}
# Outcomes that may differ, and why: verify mode snapshots each replay's
# memory, which orders the replays the test means to race.
MAY_DIFFER = {("verify", "test_graph_concurrent_replay")}
def outcomes(path):
    out = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        kinds = [c.tag for c in case if c.tag in ("failure", "error", "skipped")]
        out[case.get("name")] = kinds[0] if kinds else "passed"
    return out
a, b = outcomes(plain), outcomes(checked)
ok = True
for name in sorted(set(a) | set(b)):
    if a.get(name) != b.get(name):
        expected = (mode, name) in MAY_DIFFER
        print(f"  {'expected difference' if expected else 'DIFFERENT'}: {name}: plain {a.get(name)}, {mode} {b.get(name)}")
        ok = ok and expected
try:
    findings = json.load(open(report))["findings"]
except Exception as e:
    print(f"  no report: {e}"); sys.exit(1)
for f in findings:
    test = (f.get("test") or "").split("::")[-1]
    loc = f["location"]
    where = f"{loc['file']}:{loc['line']}" if loc.get("line") else "NO HOST LOCATION"
    true = (test, f["rule"]) in TRUE and loc.get("line")
    print(f"  {'true' if true else 'UNEXPECTED'} finding: {f['rule']} in {test or '(no test)'} at {where}: {f['message'][:200]}")
    ok = ok and bool(true)
print(f"  {mode}: {'PASS' if ok else 'FAIL'}: {len(a)} tests, outcomes {'as plain' if ok else 'differ'}, {len(findings)} finding(s)")
sys.exit(0 if ok else 1)
PY
done
exit $status
