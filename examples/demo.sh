#!/usr/bin/env bash
#
# Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Usage: examples/demo.sh BUILD_DIR
#
# Shows HybridRace at work from a built tree: installs it into
# BUILD_DIR/install, builds and runs a racy program with hrace-clang, then
# builds the examples/ CMake project against the install and runs its tests.
# The racy program and one ctest test fail on purpose; the demo itself fails
# only when a step does not work as shown (including no race being reported).
set -euo pipefail

if (($# != 1)); then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
examples=$(cd "$(dirname "$0")" && pwd)
prefix=$build/install
work=$build/demo

if [[ -t 1 ]]; then
  bold=$'\e[1m' plain=$'\e[0m'
else
  bold='' plain=''
fi
heading() { printf '\n%s==== %s ====%s\n' "$bold" "$*" "$plain"; }
# Echoes a command, then runs it.
run() {
  printf '$ %s\n' "$*"
  "$@"
}
# The same, hiding the command's progress output (errors still show).
run_quiet() {
  printf '$ %s\n' "$*"
  "$@" >/dev/null
}

heading "Installing HybridRace into $prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
echo "installed: $prefix/bin/hrace-clang, $prefix/lib/hrace, $prefix/lib/cmake/HybridRace"
rm -rf "$work"
mkdir -p "$work"

heading "Compiling examples/counter_race.c: two threads, one unlocked counter"
run "$prefix/bin/hrace-clang" -fsanitize-hybrid-race -g \
  "$examples/counter_race.c" -o "$work/counter_race"

heading "Running it: HybridRace reports the race"
rc=0
run "$work/counter_race" || rc=$?
echo "exit code: $rc"
if ((rc == 0)); then
  echo "demo: counter_race exited 0; the race was not reported" >&2
  exit 1
fi

# The examples are compiled by the clang HybridRace was built against, which
# the package records.
config=$prefix/lib/cmake/HybridRace/HybridRaceConfig.cmake
clang=$(sed -n 's/^set(HybridRace_CLANG "\(.*\)")$/\1/p' "$config")
clangxx=$(sed -n 's/^set(HybridRace_CLANGXX "\(.*\)")$/\1/p' "$config")

heading "Building the examples/ CMake project with find_package(HybridRace)"
run_quiet cmake -S "$examples" -B "$work/examples" \
  -DHybridRace_DIR="$prefix/lib/cmake/HybridRace" \
  -DCMAKE_C_COMPILER="$clang" -DCMAKE_CXX_COMPILER="$clangxx"
run_quiet cmake --build "$work/examples" -j 2

heading "Running its tests: counter_race fails, it has a data race"
run ctest --test-dir "$work/examples" --output-on-failure || true
failed=$(cut -d: -f2 "$work/examples/Testing/Temporary/LastTestsFailed.log" \
  2>/dev/null || true)
if [[ $failed != counter_race ]]; then
  echo "demo: expected exactly counter_race to fail, got: ${failed:-none}" >&2
  exit 1
fi

heading "Done"
echo "As expected, the detector flagged counter_race and passed bank_locked"
echo "and work_queue."
