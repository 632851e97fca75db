#!/usr/bin/env bash
# Collects the header-only libraries and libyaml-cpp that scripts/device-build.sh
# needs into .deps/ (ignored by git, carried to the GPU machine).
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .deps && mkdir -p .deps/include .deps/lib
cp -r /usr/include/fmt /usr/include/nlohmann /usr/include/CLI /usr/include/yaml-cpp .deps/include/
cp -P /usr/lib/x86_64-linux-gnu/libyaml-cpp.so.0.7* .deps/lib/
du -sh .deps
