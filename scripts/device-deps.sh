#!/usr/bin/env bash
# Collects what the GPU machine lacks (it has CUDA, PyTorch, cmake and ninja but
# no network and no Debian -dev packages) into .deps/, which git ignores and the
# device tool carries: header-only libraries, libyaml-cpp and GoogleTest's
# sources. scripts/device-build.sh passes it as -DGRAPHSAFE_DEPS_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .deps && mkdir -p .deps/include .deps/lib
cp -r /usr/include/fmt /usr/include/nlohmann /usr/include/CLI /usr/include/yaml-cpp .deps/include/
cp -P /usr/lib/x86_64-linux-gnu/libyaml-cpp.so.0.7* .deps/lib/
cp -r /usr/src/googletest .deps/googletest
du -sh .deps
