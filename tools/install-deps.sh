#!/usr/bin/env bash
# Installs the Debian packages HybridRace needs, if any is missing.
set -euo pipefail
llvm=${1:-14}
pkgs=(cmake make python3 "clang-$llvm" "llvm-$llvm" "llvm-$llvm-dev" "llvm-$llvm-tools"
      libgtest-dev libbenchmark-dev valgrind "libclang-rt-$llvm-dev" python3-jsonschema)
# `install-deps.sh N aarch64`: also the cross sysroot and user-mode qemu.
aarch64=0
if [[ ${2:-} == aarch64 ]]; then
  aarch64=1
  pkgs+=(gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross binutils)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# qemu-user 8 or later: 7.2 (Debian 12's own) keeps flags for every page of
# a MAP_NORESERVE reservation, and the shadow reserves 64 TB. Debian 12 gets
# it from bookworm-backports.
qemu_ok=1
if ((aarch64)); then
  # No qemu at all is "too old" too, not an error.
  major=$( (qemu-aarch64 --version 2>/dev/null || true) |
    sed -n 's/.*version \([0-9]*\)\..*/\1/p')
  [[ -n $major && $major -ge 8 ]] || qemu_ok=0
fi
((${#missing[@]} == 0 && qemu_ok)) && exit 0
sudo=""
[[ $(id -u) -eq 0 ]] || sudo=sudo
if ((!qemu_ok)) && grep -q bookworm /etc/os-release; then
  echo "deb http://deb.debian.org/debian bookworm-backports main" |
    $sudo tee /etc/apt/sources.list.d/hrace-bookworm-backports.list >/dev/null
fi
$sudo apt-get update -qq
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi
if ((!qemu_ok)); then
  echo "install-deps: installing qemu-user (8 or later)"
  if grep -q bookworm /etc/os-release; then
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq -t bookworm-backports qemu-user
  else
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq qemu-user
  fi
fi
