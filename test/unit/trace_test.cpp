//===-- trace_test.cpp - Per-thread access history ------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "hrace_trace.h"

#include "gtest/gtest.h"

namespace hrace {
namespace {

class TraceTest : public ::testing::Test {
protected:
  void SetUp() override {
    // Reserves kEvents events with mmap; never unmapped.
    trace = new Trace();
    trace->Init();
  }

  bool Find(SegmentId seg, uptr addr, uptr size, AccessKind kind) {
    return trace->FindAccess(seg, 0, addr, size, kind, &found);
  }

  Trace *trace;
  AccessRecord found = {};
};

TEST_F(TraceTest, UninitializedTraceFindsNothing) {
  Trace empty;
  AccessRecord r;
  EXPECT_FALSE(empty.FindAccess(1, 0, 0x1000, 8, AccessKind::kAny, &r));
}

TEST_F(TraceTest, EmptyTraceFindsNothing) {
  EXPECT_FALSE(Find(1, 0x1000, 8, AccessKind::kWrite));
}

TEST_F(TraceTest, FindsAccessBySegmentRangeAndKind) {
  trace->AddAccess(0x1000, 8, true, false, 0xabc, 0, 5, 3);
  ASSERT_TRUE(Find(5, 0x1000, 8, AccessKind::kWrite));
  EXPECT_EQ(0x1000u, found.addr);
  EXPECT_EQ(8u, found.size);
  EXPECT_EQ(0xabcu, found.pc);
  EXPECT_TRUE(found.is_write);
  EXPECT_FALSE(found.is_atomic);
  EXPECT_EQ(3u, found.locks);
}

// Each event names the stack its access was called from, up to the depot's
// largest id, beside a position that keeps counting.
TEST_F(TraceTest, KeepsTheCallerStack) {
  constexpr StackId kLargest = StackDepot::kMaxNodes - 1;
  trace->AddAccess(0x1000, 8, true, false, 0xabc, kLargest, 5, 3);
  trace->AddAccess(0x2000, 8, true, false, 0xabc, 7, 5, 3);
  ASSERT_TRUE(Find(5, 0x1000, 8, AccessKind::kWrite));
  EXPECT_EQ(kLargest, found.callers);
  ASSERT_TRUE(Find(5, 0x2000, 8, AccessKind::kWrite));
  EXPECT_EQ(7u, found.callers);
  EXPECT_EQ(0xabcu, found.pc);
}

TEST_F(TraceTest, KeepsWhetherTheAccessWasAtomic) {
  trace->AddAccess(0x1000, 4, true, true, 0xabc, 0, 5, 0);
  ASSERT_TRUE(Find(5, 0x1000, 4, AccessKind::kWrite));
  EXPECT_TRUE(found.is_atomic);
  EXPECT_EQ(4u, found.size);
}

TEST_F(TraceTest, FindsAccessByOverlappingRange) {
  trace->AddAccess(0x1000, 8, false, false, 0xabc, 0, 5, 0);
  EXPECT_TRUE(Find(5, 0x1007, 1, AccessKind::kRead));
  EXPECT_TRUE(Find(5, 0x0ff9, 8, AccessKind::kRead));
  EXPECT_TRUE(Find(5, 0x1004, 2, AccessKind::kRead));
  EXPECT_TRUE(Find(5, 0x0f00, 0x200, AccessKind::kRead));
  EXPECT_FALSE(found.is_write);
}

TEST_F(TraceTest, AdjacentRangeIsNotFound) {
  trace->AddAccess(0x1000, 8, true, false, 0xabc, 0, 5, 0);
  EXPECT_FALSE(Find(5, 0x1008, 4, AccessKind::kWrite));
  EXPECT_FALSE(Find(5, 0x0ffc, 4, AccessKind::kWrite));
}

TEST_F(TraceTest, OtherKindIsNotFound) {
  trace->AddAccess(0x1000, 8, true, false, 0xabc, 0, 5, 0);
  EXPECT_FALSE(Find(5, 0x1000, 8, AccessKind::kRead));
}

TEST_F(TraceTest, AnyKindFindsReadsAndWrites) {
  trace->AddAccess(0x1000, 8, true, false, 0x111, 0, 5, 0);
  trace->AddAccess(0x2000, 8, false, false, 0x222, 0, 5, 0);
  ASSERT_TRUE(Find(5, 0x1000, 8, AccessKind::kAny));
  EXPECT_TRUE(found.is_write);
  ASSERT_TRUE(Find(5, 0x2000, 8, AccessKind::kAny));
  EXPECT_FALSE(found.is_write);
}

TEST_F(TraceTest, AnyKindReturnsMostRecentOfEitherKind) {
  trace->AddAccess(0x1000, 8, false, false, 0x111, 0, 5, 0);
  trace->AddAccess(0x1000, 8, true, false, 0x222, 0, 5, 0);
  ASSERT_TRUE(Find(5, 0x1000, 8, AccessKind::kAny));
  EXPECT_EQ(0x222u, found.pc);
}

// A race the cell names by a thread's plain access looks for that one,
// past the thread's later atomic accesses.
TEST_F(TraceTest, PlainOnlyPassesOverAtomicAccesses) {
  trace->AddAccess(0x1000, 8, false, false, 0x111, 0, 5, 0);
  trace->AddAccess(0x1000, 8, false, true, 0x222, 0, 5, 0);
  ASSERT_TRUE(Find(5, 0x1000, 8, AccessKind::kAny));
  EXPECT_EQ(0x222u, found.pc);
  ASSERT_TRUE(
      trace->FindAccess(5, 0, 0x1000, 8, AccessKind::kAny, &found, true));
  EXPECT_EQ(0x111u, found.pc);
  SegmentId seg = 0;
  ASSERT_TRUE(trace->FindLatestAccess(0, 0x1000, 8, AccessKind::kAny, &found,
                                      &seg, true));
  EXPECT_EQ(0x111u, found.pc);
  EXPECT_EQ(5u, seg);
}

TEST_F(TraceTest, OtherSegmentIsNotFound) {
  trace->AddAccess(0x1000, 8, true, false, 0xabc, 0, 5, 0);
  EXPECT_FALSE(Find(6, 0x1000, 8, AccessKind::kWrite));
  EXPECT_FALSE(Find(4, 0x1000, 8, AccessKind::kWrite));
}

TEST_F(TraceTest, MostRecentMatchWins) {
  trace->AddAccess(0x1000, 4, true, false, 0x111, 0, 5, 1);
  trace->AddAccess(0x1002, 4, true, false, 0x222, 0, 5, 2);
  trace->AddAccess(0x1000, 4, true, false, 0x333, 0, 6, 3);
  ASSERT_TRUE(Find(5, 0x1003, 1, AccessKind::kWrite));
  EXPECT_EQ(0x222u, found.pc);
  EXPECT_EQ(0x1002u, found.addr);
  EXPECT_EQ(2u, found.locks);
  ASSERT_TRUE(Find(5, 0x1000, 1, AccessKind::kWrite));
  EXPECT_EQ(0x111u, found.pc);
}

TEST_F(TraceTest, LargeSegmentAndLockSetIdsRoundTrip) {
  trace->AddAccess(0x1000, 1, false, false, 0x1, 0, kMaxSegmentId, 0xfffff);
  ASSERT_TRUE(Find(kMaxSegmentId, 0x1000, 1, AccessKind::kRead));
  EXPECT_EQ(0xfffffu, found.locks);
}

// An event packs the size beside the address and the segment: sizes beyond
// 16 bits and high user addresses come back whole; an access of 4 GB or
// more is kept as its first 4 GB.
TEST_F(TraceTest, LargeSizesAndHighAddressesRoundTrip) {
  const uptr high = 0x7ffff7dd0000;
  trace->AddAccess(high, 70000, true, false, 0xabc, 0, 5, 0);
  ASSERT_TRUE(Find(5, high + 69999, 1, AccessKind::kWrite));
  EXPECT_EQ(high, found.addr);
  EXPECT_EQ(70000u, found.size);
  EXPECT_FALSE(Find(5, high + 70000, 1, AccessKind::kWrite));
  trace->AddAccess(0x10000000, uptr(5) << 30, false, true, 0xdef, 0, 6,
                   0xfffff);
  ASSERT_TRUE(Find(6, 0x10000000, 1, AccessKind::kRead));
  EXPECT_EQ((uptr(1) << 32) - 1, found.size);
  EXPECT_TRUE(found.is_atomic);
  EXPECT_EQ(0xfffffu, found.locks);
}

TEST_F(TraceTest, OldestEventsAreOverwritten) {
  trace->AddAccess(0x1000, 8, true, false, 0xabc, 0, 1, 0);
  trace->AddAccess(0x2000, 8, true, false, 0xdef, 0, 1, 0);
  for (uptr i = 0; i < Trace::kEvents - 1; i++)
    trace->AddAccess(0x100000 + i * 8, 8, false, false, i, 0, 2, 0);
  EXPECT_FALSE(Find(1, 0x1000, 8, AccessKind::kWrite));
  ASSERT_TRUE(Find(1, 0x2000, 8, AccessKind::kWrite));
  EXPECT_EQ(0xdefu, found.pc);
  ASSERT_TRUE(Find(2, 0x100000, 8, AccessKind::kRead));
  EXPECT_EQ(0u, found.pc);
}

TEST_F(TraceTest, FindsAccessOfAnOldSegmentAmongManyNewerOnes) {
  // Segments 1..1000, ten accesses each, at addresses that repeat per
  // segment: only segment 300's own events may answer.
  for (SegmentId seg = 1; seg <= 1000; seg++)
    for (uptr i = 0; i < 10; i++)
      trace->AddAccess(0x1000 + 8 * i, 8, i % 2 == 0, false, seg * 100 + i, 0,
                       seg, 0);
  ASSERT_TRUE(Find(300, 0x1010, 8, AccessKind::kWrite));
  EXPECT_EQ(30002u, found.pc);
  ASSERT_TRUE(Find(1000, 0x1008, 8, AccessKind::kRead));
  EXPECT_EQ(100001u, found.pc);
  ASSERT_TRUE(Find(1, 0x1000, 8, AccessKind::kAny));
  EXPECT_EQ(100u, found.pc);
  EXPECT_FALSE(Find(300, 0x2000, 8, AccessKind::kAny));
  EXPECT_FALSE(Find(1001, 0x1000, 8, AccessKind::kAny));
}

TEST_F(TraceTest, SegmentWithoutEventsBetweenOthersFindsNothing) {
  trace->AddAccess(0x1000, 8, true, false, 0x1, 0, 4, 0);
  trace->AddAccess(0x1000, 8, true, false, 0x2, 0, 6, 0);
  EXPECT_FALSE(Find(5, 0x1000, 8, AccessKind::kWrite));
  ASSERT_TRUE(Find(4, 0x1000, 8, AccessKind::kWrite));
  EXPECT_EQ(0x1u, found.pc);
}

// Segment ids start low again two generations later: a search keeps to the
// events of the generation it is asked about.
TEST_F(TraceTest, FindsEachGenerationsEventsWhereIdsStartOver) {
  constexpr SegmentId kOddHalf = 1u << (kSegmentBits - 1);
  trace->AddAccess(0x1000, 8, true, false, 0x1, 0, 5, 0);
  trace->AddAccess(0x1000, 8, true, false, 0x2, 0, 9, 0);
  trace->StartGeneration(1);
  trace->AddAccess(0x1000, 8, true, false, 0x3, 0, kOddHalf + 5, 0);
  trace->StartGeneration(2);
  trace->AddAccess(0x1000, 8, true, false, 0x4, 0, 7, 0);
  trace->AddAccess(0x1000, 8, true, false, 0x5, 0, 8, 0);
  ASSERT_TRUE(trace->FindAccess(7, 2, 0x1000, 8, AccessKind::kWrite, &found));
  EXPECT_EQ(0x4u, found.pc);
  ASSERT_TRUE(trace->FindAccess(kOddHalf + 5, 1, 0x1000, 8, AccessKind::kWrite,
                                &found));
  EXPECT_EQ(0x3u, found.pc);
  ASSERT_TRUE(trace->FindAccess(9, 0, 0x1000, 8, AccessKind::kWrite, &found));
  EXPECT_EQ(0x2u, found.pc);
  // Generation 0's segment 5 is not generation 2's.
  EXPECT_FALSE(trace->FindAccess(5, 2, 0x1000, 8, AccessKind::kWrite, &found));
  EXPECT_FALSE(trace->FindAccess(9, 2, 0x1000, 8, AccessKind::kWrite, &found));
}

// A slot's next thread may start in the generation the last one was in:
// the generation's events are still one run.
TEST_F(TraceTest, AGenerationStartedTwiceIsOneRun) {
  trace->StartGeneration(3);
  trace->AddAccess(0x1000, 8, true, false, 0x1, 0, 4, 0);
  trace->StartGeneration(3);
  trace->AddAccess(0x2000, 8, true, false, 0x2, 0, 260, 0);
  ASSERT_TRUE(trace->FindAccess(4, 3, 0x1000, 8, AccessKind::kWrite, &found));
  EXPECT_EQ(0x1u, found.pc);
  EXPECT_FALSE(trace->FindAccess(4, 2, 0x1000, 8, AccessKind::kWrite, &found));
}

} // namespace
} // namespace hrace
