//===-- vector_clock_test.cpp - VectorClock -------------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "hrace_vector_clock.h"

#include "hrace_clock_snapshot.h"

#include "gtest/gtest.h"

namespace hrace {
namespace {

// A clock that frees itself, so a failing assertion leaks nothing.
struct OwnedClock : VectorClock {
  ~OwnedClock() { Free(); }
};

TEST(VectorClock, UnknownSlotIsZero) {
  OwnedClock vc;
  EXPECT_EQ(0u, vc.size());
  EXPECT_EQ(0u, vc.Get(0));
  EXPECT_EQ(0u, vc.Get(1000));
}

TEST(VectorClock, SetGrowsToSlotAndZeroFillsTheGap) {
  OwnedClock vc;
  vc.Set(5, 7);
  EXPECT_EQ(6u, vc.size());
  EXPECT_EQ(7u, vc.Get(5));
  for (u32 slot = 0; slot < 5; slot++)
    EXPECT_EQ(0u, vc.Get(slot));
  EXPECT_EQ(0u, vc.Get(6));
}

TEST(VectorClock, SetKeepsEntriesWhenGrowingPastCapacity) {
  OwnedClock vc;
  for (u32 slot = 0; slot < 100; slot++)
    vc.Set(slot, slot + 1);
  EXPECT_EQ(100u, vc.size());
  for (u32 slot = 0; slot < 100; slot++)
    EXPECT_EQ(slot + 1, vc.Get(slot));
}

TEST(VectorClock, SetOverwritesAndCanLower) {
  OwnedClock vc;
  vc.Set(2, 9);
  vc.Set(2, 3);
  EXPECT_EQ(3u, vc.Get(2));
  EXPECT_EQ(3u, vc.size());
}

TEST(VectorClock, JoinIsPointwiseMaximum) {
  OwnedClock a, b;
  a.Set(0, 5);
  a.Set(1, 1);
  b.Set(0, 2);
  b.Set(1, 4);
  a.Join(b);
  EXPECT_EQ(5u, a.Get(0));
  EXPECT_EQ(4u, a.Get(1));
  EXPECT_EQ(2u, b.Get(0));
  EXPECT_EQ(4u, b.Get(1));
}

TEST(VectorClock, JoinWithLongerClockGrows) {
  OwnedClock a, b;
  a.Set(0, 3);
  b.Set(0, 1);
  b.Set(20, 8);
  a.Join(b);
  EXPECT_EQ(21u, a.size());
  EXPECT_EQ(3u, a.Get(0));
  EXPECT_EQ(0u, a.Get(10));
  EXPECT_EQ(8u, a.Get(20));
}

TEST(VectorClock, JoinWithShorterClockKeepsTail) {
  OwnedClock a, b;
  a.Set(0, 1);
  a.Set(20, 8);
  b.Set(0, 3);
  a.Join(b);
  EXPECT_EQ(21u, a.size());
  EXPECT_EQ(3u, a.Get(0));
  EXPECT_EQ(8u, a.Get(20));
}

TEST(VectorClock, JoinWithEmptyClockChangesNothing) {
  OwnedClock a, empty;
  a.Set(3, 4);
  a.Join(empty);
  EXPECT_EQ(4u, a.size());
  EXPECT_EQ(4u, a.Get(3));
  empty.Join(a);
  EXPECT_EQ(4u, empty.Get(3));
}

// AcquireClock counts an acquire only when the thread learned something.
TEST(VectorClock, JoinSaysWhetherAnEntryGrew) {
  OwnedClock a, b;
  a.Set(0, 5);
  b.Set(0, 5);
  b.Set(3, 0);
  EXPECT_FALSE(a.Join(b));
  b.Set(3, 1);
  EXPECT_TRUE(a.Join(b));
  EXPECT_FALSE(a.Join(b));
  EXPECT_FALSE(b.Join(a));
}

TEST(VectorClock, CopyFromLongerClock) {
  OwnedClock a, b;
  a.Set(0, 9);
  b.Set(0, 1);
  b.Set(30, 2);
  a.CopyFrom(b);
  EXPECT_EQ(31u, a.size());
  EXPECT_EQ(1u, a.Get(0));
  EXPECT_EQ(2u, a.Get(30));
}

TEST(VectorClock, CopyFromShorterClockDropsTail) {
  OwnedClock a, b;
  a.Set(0, 9);
  a.Set(30, 9);
  b.Set(1, 2);
  a.CopyFrom(b);
  EXPECT_EQ(2u, a.size());
  EXPECT_EQ(0u, a.Get(0));
  EXPECT_EQ(2u, a.Get(1));
  EXPECT_EQ(0u, a.Get(30));
}

TEST(VectorClock, LessOrEqual) {
  OwnedClock a, b;
  a.Set(0, 1);
  a.Set(1, 2);
  b.Set(0, 1);
  b.Set(1, 3);
  EXPECT_TRUE(a.LessOrEqual(b));
  EXPECT_FALSE(b.LessOrEqual(a));
  EXPECT_TRUE(a.LessOrEqual(a));
}

// Entries are 64 bits: a clock past 2^32 is larger than one below it.
TEST(VectorClock, EntriesPastTwoToThe32KeepTheirOrder) {
  OwnedClock before, after;
  before.Set(0, 0xffffffffu);
  after.Set(0, Clock(1) << 32);
  EXPECT_TRUE(before.LessOrEqual(after));
  EXPECT_FALSE(after.LessOrEqual(before));
  before.Join(after);
  EXPECT_EQ(Clock(1) << 32, before.Get(0));
}

TEST(VectorClock, LessOrEqualIsFalseForConcurrentClocks) {
  OwnedClock a, b;
  a.Set(0, 2);
  b.Set(1, 2);
  EXPECT_FALSE(a.LessOrEqual(b));
  EXPECT_FALSE(b.LessOrEqual(a));
}

TEST(VectorClock, LessOrEqualTreatsMissingEntriesAsZero) {
  OwnedClock shorter, longer, empty;
  shorter.Set(0, 1);
  longer.Set(0, 1);
  longer.Set(5, 1);
  EXPECT_TRUE(shorter.LessOrEqual(longer));
  EXPECT_FALSE(longer.LessOrEqual(shorter));
  EXPECT_TRUE(empty.LessOrEqual(shorter));
  // Trailing zeros in the longer clock compare equal to missing entries.
  OwnedClock padded;
  padded.Set(0, 1);
  padded.Set(9, 0);
  EXPECT_TRUE(padded.LessOrEqual(shorter));
}

TEST(VectorClock, ResetForgetsEntries) {
  OwnedClock vc;
  vc.Set(3, 4);
  vc.Reset();
  EXPECT_EQ(0u, vc.size());
  EXPECT_EQ(0u, vc.Get(3));
  // Growing again after Reset must not resurrect old values.
  vc.Set(5, 1);
  EXPECT_EQ(0u, vc.Get(3));
  EXPECT_EQ(1u, vc.Get(5));
}

TEST(VectorClock, FreeEmptiesAndClockIsReusable) {
  VectorClock vc;
  vc.Set(10, 1);
  vc.Free();
  EXPECT_EQ(0u, vc.size());
  EXPECT_EQ(0u, vc.Get(10));
  vc.Set(2, 6);
  EXPECT_EQ(6u, vc.Get(2));
  vc.Free();
  vc.Free();
  EXPECT_EQ(0u, vc.size());
}

// A ClockRef packs its slot beside the snapshot's address: the highest slot
// and a clock past 2^32 come back whole.
TEST(ClockRef, KeepsTheHighestSlotAndAClockPastTwoToThe32) {
  OwnedClock known;
  known.Set(3, 7);
  ClockSnapshot *snapshot = ClockSnapshot::Make(known);
  constexpr u32 kSlot = (1u << 16) - 1;
  constexpr Clock kClock = (Clock(1) << 40) + 5;
  ClockRef ref;
  ref.Assign(snapshot, kSlot, kClock);
  snapshot->Unref();
  EXPECT_EQ(7u, ref.Get(3));
  EXPECT_EQ(kClock, ref.Get(kSlot));
  EXPECT_EQ(kSlot + 1, ref.size());
  OwnedClock into;
  ref.JoinInto(&into);
  EXPECT_EQ(kClock, into.Get(kSlot));
  EXPECT_EQ(7u, into.Get(3));
  EXPECT_TRUE(ref.KnownBy(into));
  ref.Reset();
  EXPECT_TRUE(ref.empty());
}

} // namespace
} // namespace hrace
