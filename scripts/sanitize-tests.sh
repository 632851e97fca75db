#!/usr/bin/env bash
# The whole CPU test suite again, built with ASan and UBSan (GRAPHSAFE_SANITIZE)
# into build-asan/: graphlint, graphcheck's engine and CLI, the report
# writers, the rule loader. Any sanitizer report fails the test it happens in.
# Left out: the GPU scenarios (no GPU here), the docs check (the plain build
# runs it), the tests that load graphcheck's libraries into python (an
# instrumented library cannot load into an uninstrumented python), and the
# whole-testdata cache identity test: its multi-threaded preamble pass
# sometimes dies inside the ASan runtime itself ("AddressSanitizer failed to
# deallocate ... unable to unmap" as a worker thread exits, seen in a clean
# CI run), which is not a finding about graphsafe; the plain build runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGRAPHSAFE_SANITIZE=ON >/dev/null
cmake --build build-asan -j "$(nproc)"
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
  ctest --test-dir build-asan --output-on-failure -j "$(nproc)" --timeout 1500 \
  -E 'gpu-scenarios|docs-up-to-date|shim-runs-shadowed-sitecustomize|shim-switch|injection-released-thread-stack|GraphlintCacheTestdata'
