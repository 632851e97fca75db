#!/usr/bin/env bash
# GPU tests: each Python scenario in testdata/runtime/scenarios runs with and
# without graphcheck; stdout and exit code must match, and the report must hold
# exactly the rule ids the scenario's `# expect:` lines name. Skips without a GPU.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-build-device}")/bin/graphcheck
if ! python3 -c 'import torch,sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
  echo "gpu-tests: skipped: no CUDA GPU visible to PyTorch (these run on a GPU machine)"; exit 77
fi
pass=0; fail=0
for s in testdata/runtime/scenarios/*.py; do
  name=$(basename "$s" .py)
  want=$(grep '^# expect: ' "$s" | sed 's/# expect: //' | sort | tr '\n' ' ')
  plain_out=$(python3 "$s" 2>/dev/null); plain_rc=$?
  checked_out=$(GRAPHCHECK_KEEP_TRACES="/tmp/traces-$name" "$bin" run --format json -o "/tmp/$name.json" --fail-on error -- python3 "$s" 2>"/tmp/$name.err"); checked_rc=$?
  got=$(python3 -c "import json;print(' '.join(sorted(f['rule'] for f in json.load(open('/tmp/$name.json'))['findings'])))" 2>/dev/null)
  got="${got:+$got }"
  expected_rc=$plain_rc; [ -n "$want" ] && expected_rc=1
  if [ "$plain_out" == "$checked_out" ] && [ "$got" == "$want" ] && [ "$checked_rc" == "$expected_rc" ]; then
    pass=$((pass+1)); echo "PASS $name: [$got] rc=$checked_rc output identical"
  else
    fail=$((fail+1)); echo "FAIL $name: want [$want] got [$got]; rc plain=$plain_rc checked=$checked_rc"
    echo "  plain:   $plain_out"; echo "  checked: $checked_out"; head -c 3000 "/tmp/$name.err"; head -c 3000 "/tmp/$name.json"
  fi
  python3 -c "import json
for f in json.load(open('/tmp/$name.json'))['findings']:
    loc=f['location']; print('   ', f['rule'], (loc['file']+':'+str(loc['line'])) if loc['line'] else '', f['message'][:220])" 2>/dev/null
  # The tensor-level events, for the log: what the shim and CUPTI saw.
  grep -h '"ev": *"\(api_in_capture\|grad_installed\)"' /tmp/traces-"$name"/*.jsonl 2>/dev/null | cut -c1-300 | head -6
  # Traces of failing scenarios come back for debugging (and as new fixtures).
  if [ "$got" != "$want" ]; then cp /tmp/traces-"$name"/*.jsonl "${OUT:-/tmp}/$name.trace.jsonl" 2>/dev/null || true; fi
done
echo "gpu-tests: $pass passed, $fail failed"
[ "$fail" == 0 ]
