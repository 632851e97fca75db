#!/usr/bin/env bash
# Builds graphcheck, its CUPTI injection library, the libtorch adapter, the
# C++/CUDA scenarios and the GPU-free tests on the GPU machine, which has CUDA,
# PyTorch (with a CUDA libtorch), cmake and ninja but no LLVM, no network and
# no Debian -dev packages: those come in .deps/ (scripts/device-deps.sh).
# The analyzer is off there, and the configure step says so.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build-device}
cuda=${CUDA_HOME:-/usr/local/cuda}
torch_prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>/dev/null || true)
args=(-S . -B "$out" -G Ninja -DGRAPHSAFE_BUILD_ANALYZER=OFF -DGRAPHSAFE_DEPS_DIR="$PWD/.deps"
      -DGRAPHSAFE_BUILD_GPU_SCENARIOS=ON -DGRAPHSAFE_CUDA_ROOT="$cuda" -DCMAKE_CUDA_COMPILER="$cuda/bin/nvcc")
if ! cmake "${args[@]}" ${torch_prefix:+-DCMAKE_PREFIX_PATH="$torch_prefix"}; then
  # A libtorch whose CMake package does not configure here must not cost the rest.
  echo "device-build: configure with libtorch ($torch_prefix) failed; retrying without the libtorch adapter" >&2
  rm -rf "$out"
  cmake "${args[@]}" -DCMAKE_DISABLE_FIND_PACKAGE_Torch=ON
fi
# DEVICE_TARGETS (e.g. "graphcheck graphcheck_inject graphcheck_alloc") builds only
# those: what a timing run needs.
ninja -C "$out" ${DEVICE_TARGETS:-}
echo "device-build: $out/bin/graphcheck, $out/lib/libgraphcheck_inject.so, $out/scenarios/"
