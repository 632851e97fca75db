#!/usr/bin/env bash
# Multi-rank GPU tests, for a machine with at least two GPUs (NCCL needs one
# per rank): each scenario in testdata/runtime/ranks runs under torchrun with
# two ranks, plain, then two ways under graphcheck:
#   graphcheck run -- torchrun ...      one report; each finding names its ranks
#   torchrun ... graphcheck run ...     one report per rank (REPORT.rankN)
# each in light and in verify mode (GRAPHCHECK_RANKS_MODES to choose).
# Program output must match the plain run. `expect: RULE on every rank` and
# `expect: RULE on rankN` lines name the findings (one line per finding), and
# a finding on one rank must be reported on that rank alone; `expect: nothing`
# a clean run.
# Skips (exit 77) with fewer than two GPUs.
#   scripts/gpu-ranks.sh [BUILD_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
[ -n "${OUT:-}" ] && [ -d "$OUT" ] && exec > >(tee -a "$OUT/gpu-ranks.txt") 2>&1
bin=$(realpath "${1:-build-device}")/bin/graphcheck
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
if [ "$gpus" -lt 2 ]; then
  echo "gpu-ranks: skipped: $gpus GPU(s) here; NCCL ranks need two (run on nvidia-h200-x2)"; exit 77
fi
if ! command -v torchrun >/dev/null; then
  echo "gpu-ranks: FAIL: torchrun is not installed on this GPU machine"; exit 1
fi
# A hung rank (an NCCL call waiting for a rank that died) fails the scenario
# after 180 s instead of holding the machine.
launch=(timeout 180 torchrun --standalone --nproc-per-node 2)
# Prints "RULE@rank0,rank1 ..." for a merged report, "RULE ..." for one rank's.
findings() { python3 scripts/findings-by-process.py "$1"; }
pass=0; fail=0
for s in testdata/runtime/ranks/*.py; do
  name=$(basename "$s")
  # "RULE every" or "RULE rankN", one per expected finding.
  wants=$(sed -nE 's/^# expect: (\S+) on (every) rank$/\1 \2/p; s/^# expect: (\S+) on (rank[0-9]+)$/\1 \2/p' "$s")
  want_merged=$(echo "$wants" | awk 'NF { print $1 "@" ($2 == "every" ? "rank0,rank1" : $2) }' | sort | tr '\n' ' ' | sed 's/ $//')
  want_on() { echo "$wants" | awk -v r="$1" 'NF && ($2 == "every" || $2 == r) { print $1 }' | sort | tr '\n' ' ' | sed 's/ $//'; }
  plain=$("${launch[@]}" "$s" 2>/tmp/ranks-plain.err); plain_rc=$?
  [ "$plain_rc" != 0 ] && { echo "plain run of $name failed (rc=$plain_rc):"; tail -c 3000 /tmp/ranks-plain.err; }
  for mode in ${GRAPHCHECK_RANKS_MODES:-light verify}; do
    rm -f /tmp/ranks-merged.json /tmp/ranks-each.json*
    merged=$("$bin" run --mode "$mode" --format json -o /tmp/ranks-merged.json -- "${launch[@]}" "$s" 2>/tmp/ranks-merged.err); merged_rc=$?
    got=$(findings /tmp/ranks-merged.json)
    if [ "$plain_rc" == 0 ] && [ "$merged" == "$plain" ] && [ "$got" == "$want_merged" ]; then
      pass=$((pass+1)); echo "PASS $name (graphcheck --mode $mode around torchrun): findings [$got] rc=$merged_rc output [$plain]"
    else
      fail=$((fail+1)); echo "FAIL $name (graphcheck --mode $mode around torchrun): findings [$got], want [$want_merged]; plain rc=$plain_rc [$plain], checked [$merged]"
      tail -c 3000 /tmp/ranks-merged.err
    fi
    each=$("${launch[@]}" --no-python "$bin" run --mode "$mode" --format json -o /tmp/ranks-each.json -- python3 "$s" 2>/tmp/ranks-each.err)
    r0=$(findings /tmp/ranks-each.json.rank0); r1=$(findings /tmp/ranks-each.json.rank1)
    if [ "$each" == "$plain" ] && [ "$r0" == "$(want_on rank0)" ] && [ "$r1" == "$(want_on rank1)" ]; then
      pass=$((pass+1)); echo "PASS $name (graphcheck --mode $mode per rank): rank0 [$r0] rank1 [$r1]"
    else
      fail=$((fail+1)); echo "FAIL $name (graphcheck --mode $mode per rank): rank0 [$r0] rank1 [$r1], want [$(want_on rank0)] [$(want_on rank1)]; output [$each]"
      tail -c 3000 /tmp/ranks-each.err
    fi
    # The merged report itself, for the record.
    [ -f /tmp/ranks-merged.json ] && python3 -c "import json,sys; [print('  ', f['rule'], f['location'].get('file','')+':'+str(f['location'].get('line','')), f.get('processes'), f['message'][:160]) for f in json.load(open(sys.argv[1]))['findings']]" /tmp/ranks-merged.json
    if [ -n "${OUT:-}" ]; then
      mkdir -p "$OUT/ranks"
      for f in /tmp/ranks-merged.json /tmp/ranks-each.json.rank*; do
        [ -f "$f" ] && cp "$f" "$OUT/ranks/${name%.py}.$mode.$(basename "$f" | sed 's/^ranks-//; s/\.json//').json"
      done
    fi
  done
done
echo "gpu-ranks: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
