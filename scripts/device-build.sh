#!/usr/bin/env bash
# Builds graphcheck and its CUPTI injection library on the GPU machine, which
# has CUDA and PyTorch but no LLVM, no network and no Debian -dev packages.
# Headers and libyaml-cpp come in .deps/ (made by scripts/device-deps.sh here).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build-device}
mkdir -p "$out/bin" "$out/lib"
cuda=${CUDA_HOME:-/usr/local/cuda}
cupti_inc=$(dirname "$(find "$cuda/" -name cupti.h | head -1)")
cupti_lib=$(dirname "$(find "$cuda/" -name 'libcupti.so*' | head -1)")
flags=(-std=c++17 -O2 -fPIC -DFMT_HEADER_ONLY=1 -I.deps/include -Icommon/include -Iruntime_checker/engine
       -Iruntime_checker/cli -DGRAPHSAFE_VERSION=\"0.1.0\" -DGRAPHSAFE_SOURCE_RULES_DIR=\"$PWD/rules\"
       -DGRAPHSAFE_SHIM_DIR=\"$PWD/runtime_checker/python\")
g++ "${flags[@]}" -o "$out/bin/graphcheck" common/src/*.cpp runtime_checker/engine/*.cpp runtime_checker/cli/*.cpp \
  -L.deps/lib -l:libyaml-cpp.so.0.7 -Wl,-rpath,"$PWD/.deps/lib"
g++ "${flags[@]}" -shared -o "$out/lib/libgraphcheck_inject.so" runtime_checker/inject/*.cpp \
  -I"$cupti_inc" -I"$cuda/include" -L"$cupti_lib" -lcupti -L"$cuda/lib64/stubs" -L"$cuda/lib64" -lcuda \
  -Wl,-rpath,"$cupti_lib"
echo "device-build: $out/bin/graphcheck and $out/lib/libgraphcheck_inject.so"
