#!/usr/bin/env python3
"""Prints a graphcheck JSON report's findings on one line, sorted, for the GPU
test scripts to compare: `RULE@rank0,rank1` where the report names the
processes (a merged multi-rank report), `RULE` where it does not.
Prints `no-report` when the file is missing or not a report."""
import json
import sys

try:
    findings = json.load(open(sys.argv[1]))["findings"]
except (OSError, ValueError, KeyError):
    print("no-report")
    sys.exit()
print(" ".join(sorted(
    f["rule"] + ("@" + ",".join(f["processes"]).replace(" ", "") if f.get("processes") else "")
    for f in findings)))
