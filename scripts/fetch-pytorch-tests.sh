#!/usr/bin/env bash
# Collects PyTorch's own CUDA graph tests for the GPU machine (which has no
# network): test/test_cuda.py from Debian 13's pytorch source package
# (2.6.0+dfsg) and expecttest from Debian 13's python3-expecttest, into
# .deps/pytorch-tests/, which the device tool carries. These machines run
# Debian 12, so apt reads trixie's lists through a private configuration and
# the system's apt state is left alone. scripts/pytorch-graph-tests.sh runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=$PWD/.deps/pytorch-tests
apt_dir=$(mktemp -d)
trap 'rm -rf "$apt_dir"' EXIT
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/work" "$dest"
printf 'deb http://deb.debian.org/debian trixie main\ndeb-src http://deb.debian.org/debian trixie main\n' \
  > "$apt_dir/sources.list"
apt_opts=(-o Dir::Etc::SourceList="$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
          -o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache" -o Debug::NoLocking=1
          -o APT::Sandbox::User=root)
apt-get "${apt_opts[@]}" update -qq
cd "$apt_dir/work"
apt-get "${apt_opts[@]}" download python3-expecttest
apt-get "${apt_opts[@]}" source --download-only pytorch
tar -xJf pytorch_*.orig.tar.xz --wildcards --strip-components=2 -C "$dest" '*/test/test_cuda.py'
dpkg-deb -x python3-expecttest_*.deb pkg
cp -r pkg/usr/lib/python3/dist-packages/expecttest "$dest/"
echo "fetch-pytorch-tests: $(ls "$dest" | tr '\n' ' ')from $(ls pytorch_*.dsc) and $(ls python3-expecttest_*.deb)"
