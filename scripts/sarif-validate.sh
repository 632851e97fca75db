#!/usr/bin/env bash
# Validates graphsafe's SARIF with the SARIF Multitool (npm package
# @microsoft/sarif-multitool-linux), as code-scanning services would: graphlint
# on the bundled example (C++, CUDA and Python), graphcheck on recorded traces
# with findings, and a report of a file that does not parse. Any error or
# warning fails. Installs npm from Debian and the validator from the npm
# registry on first use (into .cache/sarif-multitool).
#   scripts/sarif-validate.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-build}")
tool_dir=$PWD/.cache/sarif-multitool
tool=$tool_dir/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
if [ ! -x "$tool" ]; then
  if ! command -v npm >/dev/null; then
    SUDO=""; [ "$(id -u)" != 0 ] && SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends npm >/dev/null
  fi
  mkdir -p "$tool_dir"
  (cd "$tool_dir" && npm install --silent --no-audit --no-fund @microsoft/sarif-multitool-linux@5.7.0)
  chmod u+x "$tool"
fi
export DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake -S testdata/example -B "$work/example" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
"$build/bin/graphlint" -p "$work/example" --no-cache --format sarif -o "$work/graphlint.sarif" \
  testdata/example/*.cpp testdata/example/*.cu testdata/example/train.py || [ $? = 1 ]
printf 'def broken(:\n    pass\n' > "$work/broken.py"
"$build/bin/graphlint" --format sarif -o "$work/graphlint-error.sarif" "$work/broken.py" || [ $? = 2 ]
for t in device_accumulation_bug block_rebound_static_input retained_output; do
  [ -f "testdata/runtime/$t.jsonl" ] || continue
  # Findings exit 1, an incomplete trace 2: the report is written either way.
  "$build/bin/graphcheck" analyze --format sarif -o "$work/graphcheck-$t.sarif" \
    "testdata/runtime/$t.jsonl" || true
  [ -s "$work/graphcheck-$t.sarif" ] || { echo "sarif-validate: graphcheck wrote no report for $t"; exit 1; }
done
fail=0
for f in "$work"/*.sarif; do
  out=$("$tool" validate "$f" --output "$work/validation.json" 2>&1 || true)
  problems=$(grep -E "(warning|error) (SARIF|JSON)[0-9]*" <<< "$out" || true)
  rm -f "$work/validation.json"
  if [ -n "$problems" ]; then
    fail=1; echo "sarif-validate: FAIL $(basename "$f")"; echo "$problems" | head -20
  else
    echo "sarif-validate: ok $(basename "$f")"
  fi
done
exit $fail
