#!/usr/bin/env bash
# Checks graphsafe's JUnit reports the way CI test reporters read them: against
# the JUnit schema (tests/junit/junit.xsd, with xmllint) and through a JUnit
# reader (python3-junitparser): graphcheck on a recorded pytest run (a case per
# test, its findings as failures), graphlint on Python testdata (a case per
# file) and on a file that does not parse (an error case).
#   scripts/junit-check.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-build}")
py=/usr/bin/python3; [ -x "$py" ] || py=python3
if ! command -v xmllint >/dev/null || ! "$py" -c 'import junitparser' 2>/dev/null; then
  echo "junit-check: needs xmllint and junitparser: apt-get install libxml2-utils python3-junitparser (scripts/setup-debian.sh installs them)"
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bin/graphcheck" analyze --format junit -o "$work/graphcheck.xml" \
  testdata/runtime/pytest_findings_per_test.jsonl || [ $? = 1 ]
"$build/bin/graphlint" --no-cache --format junit -o "$work/graphlint.xml" \
  testdata/python/lifecycle.py testdata/python/lifecycle_ok.py || [ $? = 1 ]
printf 'def broken(:\n    pass\n' > "$work/broken.py"
"$build/bin/graphlint" --no-cache --format junit -o "$work/broken.xml" "$work/broken.py" || [ $? = 2 ]
for f in graphcheck graphlint broken; do
  xmllint --noout --schema tests/junit/junit.xsd "$work/$f.xml"
done
# What a reader makes of them: cases, and which fail with which rules.
"$py" - "$work" <<'PY'
import sys
from junitparser import JUnitXml, Failure, Error
work = sys.argv[1]
def cases(name):
    out = {}
    for suite in JUnitXml.fromfile(f"{work}/{name}.xml"):
        for case in suite:
            kinds = sorted(r.type for r in case.result if isinstance(r, (Failure, Error)))
            out[f"{case.classname}::{case.name}"] = kinds
    return out
want = {
    "graphcheck": {
        "tests.test_graphs::test_sync": ["sync-during-capture"],
        "tests.test_graphs::test_sync_again[cpu-first]": ["sync-during-capture"],
        "tests.test_graphs.TestPools::test_clean": [],
        "tests.test_graphs.TestPools::test_pool": ["replay-input-overwritten"],
    },
}
ok = True
got = cases("graphcheck")
if got != want["graphcheck"]:
    print(f"junit-check: graphcheck cases {got}\n  want {want['graphcheck']}"); ok = False
lint = cases("graphlint")
clean = [k for k in lint if k.endswith("lifecycle_ok.py")]
bad = [k for k in lint if k.endswith("lifecycle.py")]
if len(clean) != 1 or lint[clean[0]] or len(bad) != 1 or not lint[bad[0]]:
    print(f"junit-check: graphlint cases {lint}: want lifecycle.py failing, lifecycle_ok.py passing"); ok = False
broken = cases("broken")
if not any("tool-error" in kinds for kinds in broken.values()):
    print(f"junit-check: a file that does not parse gave {broken}, want a tool-error case"); ok = False
print("junit-check: schema-valid, read back:", {k: len(v) for k, v in got.items()}) if ok else None
sys.exit(0 if ok else 1)
PY
