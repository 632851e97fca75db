#!/usr/bin/env bash
# Quick start: install dependencies, build, and run graphlint on the bundled
# example training code (testdata/example: C++, CUDA and Python), printing its findings.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
scripts/build.sh
# The example ships a CMake project only to produce compile_commands.json.
cmake -S testdata/example -B build/example -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
set +e
# C++ and CUDA with the example's compile database, and its Python training loop, in one run.
build/bin/graphlint -p build/example -j "$(nproc)" testdata/example/*.cpp testdata/example/*.cu \
  testdata/example/train.py
rc=$?
set -e
case $rc in
  0) echo "quickstart: no findings" ;;
  1) echo "quickstart: graphlint found the capture bugs planted in testdata/example (exit code 1)" ;;
  *) echo "quickstart: graphlint could not analyse the example (exit code $rc)" >&2; exit "$rc" ;;
esac
