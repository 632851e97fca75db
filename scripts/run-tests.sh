#!/usr/bin/env bash
# Builds (if needed) and runs the whole test suite. GPU tests are labelled
# `gpu` and skip, saying so, on machines without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
