#!/usr/bin/env bash
# Installs the Debian packages HybridRace needs, if any is missing.
set -euo pipefail
llvm=${1:-14}
pkgs=(cmake make python3 "clang-$llvm" "llvm-$llvm" "llvm-$llvm-dev" "llvm-$llvm-tools"
      libgtest-dev libbenchmark-dev valgrind "libclang-rt-$llvm-dev")
# `install-deps.sh N aarch64`: also the cross sysroot and user-mode qemu.
if [[ ${2:-} == aarch64 ]]; then
  pkgs+=(qemu-user gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
((${#missing[@]} == 0)) && exit 0
echo "install-deps: installing ${missing[*]}"
sudo=""
[[ $(id -u) -eq 0 ]] || sudo=sudo
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
