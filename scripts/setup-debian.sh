#!/usr/bin/env bash
# Installs what graphsafe builds and tests with, from Debian 12's packages.
# CUDA headers (for .cu files and code including cuda_runtime.h) come from the
# CUDA Toolkit at /usr/local/cuda or $CUDA_HOME; Debian does not package CUDA 12+.
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
  cmake ninja-build g++ clang-19 libclang-19-dev llvm-19-dev libclang-rt-19-dev libtorch-dev libfmt-dev \
  googletest libgtest-dev nlohmann-json3-dev libcereal-dev libcli11-dev libyaml-cpp-dev libtree-sitter-dev binutils bc python3 \
  libxml2-utils python3-junitparser >/dev/null
cuda="${CUDA_HOME:-/usr/local/cuda}"
if [ ! -f "$cuda/include/cuda_runtime.h" ]; then
  echo "setup: no CUDA Toolkit headers at $cuda; install the CUDA Toolkit or set CUDA_HOME." >&2
  echo "setup: graphlint still builds, but cannot parse code that includes CUDA headers." >&2
fi
echo "setup: dependencies installed"
