//===-- cas_pair_and_mapping.cpp - AArch64 checks run under qemu-aarch64 --===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The runtime's AArch64-specific code, compiled for AArch64 and run under
// qemu-aarch64 by `make check-aarch64`: the LL/SC pair compare-and-swap
// (single-threaded semantics, then two threads racing on the same pairs with
// no lost update), the pair's plain store and load (LDP and STP: their
// semantics, and where FEAT_LSE2 makes them atomic, two storers never seen
// torn) and the arithmetic of the 39-, 42-, 47- and 48-bit layouts. Plain
// asserts: the cross sysroot has no GoogleTest.
//
//===----------------------------------------------------------------------===//
#include "../../shadow/hrace_shadow.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>

using namespace hrace;

namespace {

int failures;

void Check(bool ok, const char *what) {
  if (!ok) {
    printf("FAILED: %s\n", what);
    failures++;
  }
}

void CasPairSemantics() {
  alignas(16) u64 pair[2] = {7, 7};
  Check(CasCellPair(pair, 7, 9), "equal pair is replaced");
  Check(pair[0] == 9 && pair[1] == 9, "both cells hold the new value");
  pair[1] = 8;
  Check(!CasCellPair(pair, 9, 1), "a changed second cell fails the pair");
  Check(pair[0] == 9 && pair[1] == 8, "a failed pair leaves both cells");
  pair[0] = 5;
  pair[1] = 9;
  Check(!CasCellPair(pair, 9, 1), "a changed first cell fails the pair");
  Check(pair[0] == 5 && pair[1] == 9, "and leaves both cells");
}

void CasGranulePairSemantics() {
  alignas(16) u64 granule[2] = {3, 4};
  GranulePair seen{GranuleCell(3), GranuleCell(4)};
  GranulePair next{GranuleCell(5), GranuleCell(6)};
  Check(CasGranulePair(granule, seen, next), "a granule pair is replaced");
  Check(granule[0] == 5 && granule[1] == 6, "each cell gets its own value");
  Check(!CasGranulePair(granule, seen, next), "a stale pair fails");
  granule[1] = 7;
  Check(!CasGranulePair(granule, next, seen),
        "a changed second cell fails the pair");
  Check(granule[0] == 5 && granule[1] == 7, "a failed pair leaves both cells");
}

void PlainPairSemantics() {
  alignas(16) u64 granule[2] = {3, 4};
  GranulePair halves{
      GranuleCell::Make(ShadowCell::Make(CellState::kExclusiveWrite, 5, 0),
                        0x0f),
      GranuleCell::Make(ShadowCell::Make(CellState::kExclusiveWrite, 6, 0),
                        0xf0)};
  StoreGranulePair(granule, halves);
  Check(granule[0] == halves.first.raw() && granule[1] == halves.second.raw(),
        "a plain pair store writes each cell");
  Check(LoadGranulePairAtomically(granule) == halves,
        "the pair loads back as stored");
  StoreGranulePair(granule, {GranuleCell(), GranuleCell(9)});
  Check(granule[0] == 9 && granule[1] == 0,
        "a plain pair store keeps a lone value first");
}

// Two threads store different pairs; a third loads: with FEAT_LSE2 it sees
// one pair or the other, never a cell of each.
alignas(16) u64 stored[2];
const u64 kStoredPairs[2][2] = {{1, 2}, {3, 4}};
int stop_storing;

void *StorePairs(void *arg) {
  const u64 *pair = kStoredPairs[reinterpret_cast<long>(arg)];
  GranulePair g{GranuleCell(pair[0]), GranuleCell(pair[1])};
  while (!__atomic_load_n(&stop_storing, __ATOMIC_RELAXED))
    StoreGranulePair(stored, g);
  return nullptr;
}

void PlainPairsNeverTorn() {
  constexpr unsigned long kHwcapUscat = 1ul << 25;
  if (!(getauxval(AT_HWCAP) & kHwcapUscat)) {
    printf("no FEAT_LSE2: plain pairs are not atomic, not checked\n");
    return;
  }
  stored[0] = 1;
  stored[1] = 2;
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], nullptr, StorePairs, reinterpret_cast<void *>(i));
  long torn = 0;
  for (int i = 0; i < 200000; i++) {
    GranulePair g = LoadGranulePairAtomically(stored);
    u64 a = g.first.raw(), b = g.second.raw();
    torn += !(a == 1 && b == 2) && !(a == 3 && b == 4);
  }
  __atomic_store_n(&stop_storing, 1, __ATOMIC_RELAXED);
  for (pthread_t x : t)
    pthread_join(x, nullptr);
  Check(torn == 0, "a plain pair is never seen torn");
}

void CasRunStopsAtChange() {
  alignas(16) u64 cells[8];
  for (int changed = 0; changed <= 8; changed++) {
    for (u64 &c : cells)
      c = ShadowCell::Make(CellState::kExclusiveWrite, 3, 0).raw();
    ShadowCell old(cells[0]);
    ShadowCell now = ShadowCell::Make(CellState::kExclusiveWrite, 4, 0);
    if (changed < 8)
      cells[changed] = now.raw() + 1;
    Check(CasCellRun(cells, 8, old, now) == static_cast<uptr>(changed),
          "CasCellRun stops at the first changed cell");
  }
}

// Two threads increment the same pairs through CasCellPair: every success
// is one increment, so the final value counts them all.
constexpr int kPairs = 4;
constexpr int kRounds = 200000;
alignas(16) u64 shared[2 * kPairs];
long successes[2];

void *Hammer(void *arg) {
  long me = reinterpret_cast<long>(arg);
  for (int i = 0; i < kRounds; i++) {
    u64 *pair = &shared[2 * (i % kPairs)];
    u64 seen = __atomic_load_n(&pair[0], __ATOMIC_RELAXED);
    if (CasCellPair(pair, seen, seen + 1))
      successes[me]++;
  }
  return nullptr;
}

void CasPairUnderContention() {
  pthread_t t;
  pthread_create(&t, nullptr, Hammer, reinterpret_cast<void *>(1));
  Hammer(nullptr);
  pthread_join(t, nullptr);
  u64 total = 0;
  bool halves_agree = true;
  for (int p = 0; p < kPairs; p++) {
    total += shared[2 * p];
    halves_agree &= shared[2 * p] == shared[2 * p + 1];
  }
  Check(halves_agree, "the two cells of a pair never diverge");
  Check(total == static_cast<u64>(successes[0] + successes[1]),
        "no increment is lost");
  printf("contended pair CAS: %ld + %ld successes\n", successes[0],
         successes[1]);
}

void CheckMapping(unsigned bits) {
  char what[64];
  snprintf(what, sizeof(what), "a layout for %u bits", bits);
  Check(SelectMapping(bits), what);
  const uptr regions[3][2] = {{Mapping::kLowBeg, Mapping::kLowEnd},
                              {Mapping::kPieBeg, Mapping::kPieEnd},
                              {Mapping::kHighBeg, Mapping::kHighEnd}};
  uptr previous_end = Mapping::kShadowBeg;
  for (const auto &r : regions) {
    uptr first = reinterpret_cast<uptr>(MemToShadow(r[0]));
    uptr last = reinterpret_cast<uptr>(MemToShadow(r[1] - 1));
    Check(first == previous_end, "regions' shadows are packed in order");
    Check(last + sizeof(u64) <= kShadowEnd, "shadow stays in its range");
    Check(MemToShadow(r[0] + 1) == MemToShadow(r[0]) + 1,
          "consecutive bytes, consecutive cells");
    Check(IsAppMem(r[0]) && IsAppMem(r[1] - 1) && !IsAppMem(r[1]),
          "IsAppMem at the region's edges");
    previous_end = last + sizeof(u64);
  }
  Check(!IsAppMem(Mapping::kShadowBeg) && !IsAppMem(kMetaEnd - 1),
        "shadow and meta are not application memory");
  previous_end = Mapping::kGranuleBeg;
  for (const auto &r : regions) {
    uptr first = reinterpret_cast<uptr>(MemToGranule(r[0]));
    uptr last = reinterpret_cast<uptr>(MemToGranule(r[1] - 1));
    Check(first == previous_end, "regions' granule cells are packed in order");
    Check(last + 2 * sizeof(u64) <= kGranuleEnd,
          "granule cells stay in their range");
    Check(MemToGranule(r[0] + 8) == MemToGranule(r[0]) + 2,
          "consecutive granules, consecutive pairs of cells");
    previous_end = last + 2 * sizeof(u64);
  }
  Check(!IsAppMem(Mapping::kGranuleBeg) && !IsAppMem(kGranuleEnd - 1),
        "granule cells are not application memory");
}

} // namespace

int main() {
  CasPairSemantics();
  CasGranulePairSemantics();
  CasRunStopsAtChange();
  CasPairUnderContention();
  PlainPairSemantics();
  PlainPairsNeverTorn();
  const unsigned layouts[] = {39, 42, 47, 48};
  for (unsigned bits : layouts)
    CheckMapping(bits);
  Check(!SelectMapping(44), "no layout for 44 bits");
  if (failures) {
    printf("%d checks failed\n", failures);
    return 1;
  }
  printf("all AArch64 checks passed\n");
  return 0;
}
