#!/usr/bin/env bash
# The install a user with a GPU machine has: a virtual environment that sees
# the machine's torch (--system-site-packages), `pip install .` with no network
# and no root (the dependencies pip cannot build come from GRAPHSAFE_DEPS_DIR,
# made by scripts/device-deps.sh), then the Python scenarios run by the
# installed graphcheck, found on the venv's PATH.
#   scripts/venv-install-check.sh [VENV_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
venv=${1:-/tmp/graphsafe-venv}
rm -rf "$venv"
# The torch to build against: the one `python3` here imports (a system
# install, or a venv of its own such as the GPU machine's /opt/torch/.venv).
torch_site=$(python3 -c 'import os, torch; print(os.path.dirname(os.path.dirname(torch.__file__)))') || exit 1
python3 -m venv --system-site-packages "$venv" || exit 1
# shellcheck disable=SC1091
. "$venv/bin/activate"
# --system-site-packages sees the interpreter's own site-packages only; a torch
# living in another venv is added the way a user would, with a .pth file.
if ! python3 -c 'import torch' 2>/dev/null; then
  echo "$torch_site" > "$(python3 -c 'import site; print(site.getsitepackages()[0])')/torch-env.pth"
  echo "venv-install-check: torch from $torch_site (a .pth file in the new venv)"
fi
export GRAPHSAFE_DEPS_DIR=${GRAPHSAFE_DEPS_DIR:-$PWD/.deps}
# A copy of the checkout, so the build leaves nothing in it.
src=$(mktemp -d)
tar --exclude='./build*' --exclude=./.git --exclude=./.cache -cf - . | tar -xf - -C "$src"
if ! (cd "$src" && pip install -v --no-build-isolation --no-index . >"$venv/install.log" 2>&1); then
  echo "venv-install-check: pip install failed:"; grep -v "^  *\[\|Building CXX" "$venv/install.log" | tail -60; exit 1
fi
echo "venv-install-check: installed; graphcheck is $(command -v graphcheck)"
root=$(python3 -c 'import graphsafe, os; print(os.path.join(os.path.dirname(graphsafe.__file__), "_root"))')
ls "$root/bin" "$root/lib"
graphcheck --help | head -3
# Scenarios by the installed graphcheck (gpu-tests.sh takes a prefix holding
# bin/graphcheck): the shim (grads), the allocator tracker (a freed block, pool
# blocks), graphed callables, torch.compile, a pytest run. VENV_SCENARIOS="..."
# picks others; the C++ ones need the source build's scenario binaries.
GPU_TESTS_ONLY="${VENV_SCENARIOS:-accumulation_bug freed_static_input pool_intermediate_out_of_order retained_output_matmul compiled_reduce_overhead pytest}" \
  scripts/gpu-tests.sh "$root"
