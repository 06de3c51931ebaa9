//===-- segment_test.cpp - The segment table ------------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "hrace_segment.h"

#include "gtest/gtest.h"

namespace hrace {
namespace {

class SegmentTest : public ::testing::Test {
protected:
  // Reserves the table (48 MiB, MAP_NORESERVE); never unmapped. Four pages
  // per generation unless a test asks for more.
  void Make(u32 pages_per_generation = 4) {
    segments = new SegmentTable();
    segments->Init(pages_per_generation);
  }
  void SetUp() override { Make(); }

  SegmentTable *segments;
};

TEST_F(SegmentTest, EmptyTable) {
  EXPECT_EQ(0u, segments->pages_used());
  EXPECT_EQ(0u, segments->generation());
}

TEST_F(SegmentTest, ConsecutiveClocksOfOneThreadShareAPage) {
  SegmentCursor t;
  EXPECT_EQ(1u, segments->Create(&t, 0, 1, 0));
  EXPECT_EQ(2u, segments->Create(&t, 0, 2, 0));
  EXPECT_EQ(3u, segments->Create(&t, 0, 3, 0));
  EXPECT_EQ(1u, segments->pages_used());
  EXPECT_EQ(2u, segments->Get(2).clock);
  EXPECT_EQ(3u, segments->Get(3).clock);
}

// A page's clocks run on past 2^32 (clocks are 64 bits and never wrap).
TEST_F(SegmentTest, ClocksPastTwoToThe32StayExact) {
  SegmentCursor t;
  Clock start = (Clock(1) << 32) - 1;
  SegmentId first = segments->Create(&t, 0, start, 0);
  SegmentId second = segments->Create(&t, 0, start + 1, 0);
  EXPECT_EQ(first + 1, second);
  EXPECT_EQ(start, segments->Get(first).clock);
  EXPECT_EQ(Clock(1) << 32, segments->Get(second).clock);
}

TEST_F(SegmentTest, EachThreadHasItsOwnPage) {
  SegmentCursor a, b;
  SegmentId a1 = segments->Create(&a, 0, 1, 0);
  SegmentId b1 = segments->Create(&b, 1, 1, 1);
  SegmentId a2 = segments->Create(&a, 0, 2, 0);
  EXPECT_EQ(a1 + 1, a2);
  EXPECT_EQ(kSegmentsPerPage, b1);
  EXPECT_EQ(1u, segments->Get(b1).slot);
  EXPECT_EQ(0u, segments->Get(a2).slot);
}

// InSamePage tells a thread's own segments by id alone: ids of one page are
// one thread's, and another thread's never share its page.
TEST_F(SegmentTest, OnlyOneThreadsSegmentsShareAPage) {
  SegmentCursor a, b;
  SegmentId a1 = segments->Create(&a, 0, 1, 0);
  SegmentId b1 = segments->Create(&b, 1, 1, 1);
  SegmentId a2 = segments->Create(&a, 0, 2, 0);
  SegmentId b2 = segments->Create(&b, 1, 2, 1);
  EXPECT_TRUE(InSamePage(a1, a2));
  EXPECT_TRUE(InSamePage(b1, b2));
  EXPECT_FALSE(InSamePage(a1, b1));
  EXPECT_FALSE(InSamePage(a2, b2));
  // A renamed thread (a forked child's) starts a page of its own.
  SegmentId renamed = segments->Create(&a, 0, 3, 7);
  EXPECT_FALSE(InSamePage(a2, renamed));
}

TEST_F(SegmentTest, AJumpInTheClockOrANewNameStartsANewPage) {
  SegmentCursor t;
  SegmentId first = segments->Create(&t, 0, 1, 0);
  SegmentId jumped = segments->Create(&t, 0, 5, 0);
  EXPECT_EQ(kSegmentsPerPage, jumped);
  EXPECT_EQ(5u, segments->Get(jumped).clock);
  EXPECT_EQ(1u, segments->Get(first).clock);
  SegmentId renamed = segments->Create(&t, 0, 6, 9);
  EXPECT_EQ(2 * kSegmentsPerPage, renamed);
  EXPECT_EQ(9u, segments->Get(renamed).thread_id);
}

TEST_F(SegmentTest, AFullPageContinuesOnANewOne) {
  SegmentCursor t;
  SegmentId last = 0;
  for (u32 clock = 1; clock <= kSegmentsPerPage; clock++)
    last = segments->Create(&t, 2, clock, 7);
  EXPECT_EQ(kSegmentsPerPage, last);
  EXPECT_EQ(2u, segments->pages_used());
  SegmentInfo info = segments->Get(last);
  EXPECT_EQ(2u, info.slot);
  EXPECT_EQ(kSegmentsPerPage, info.clock);
  EXPECT_EQ(7u, info.thread_id);
}

TEST_F(SegmentTest, GetReturnsWhatWasCreated) {
  SegmentCursor a, b;
  SegmentId ia = segments->Create(&a, 3, 17, 42);
  SegmentId ib = segments->Create(&b, 65535, 0xfffffff0u, 0xfffffffeu);
  EXPECT_EQ(3u, segments->Get(ia).slot);
  EXPECT_EQ(17u, segments->Get(ia).clock);
  EXPECT_EQ(42u, segments->Get(ia).thread_id);
  EXPECT_EQ(65535u, segments->Get(ib).slot);
  EXPECT_EQ(0xfffffff0u, segments->Get(ib).clock);
  EXPECT_EQ(0xfffffffeu, segments->Get(ib).thread_id);
}

TEST_F(SegmentTest, IdsAreNeverZeroAndFitTheCell) {
  Make(kMaxPagesPerGeneration);
  SegmentCursor t;
  for (u32 clock = 1; clock < 10 * kSegmentsPerPage; clock++) {
    SegmentId id = segments->Create(&t, 0, clock, 0);
    EXPECT_NE(0u, id);
    EXPECT_LE(id, kMaxSegmentId);
  }
}

// When a generation's pages run out Create says 0; the next generation hands
// out the other half of the id space, and the ids of the generation before
// keep their meaning until that half is used again.
TEST_F(SegmentTest, GenerationsAlternateHalvesOfTheIdSpace) {
  SegmentCursor t[5];
  SegmentId old_ids[4];
  for (u32 i = 0; i < 4; i++)
    old_ids[i] = segments->Create(&t[i], i, 1, i);
  EXPECT_EQ(0u, segments->Create(&t[4], 4, 1, 4));
  segments->StartNextGeneration(0);
  EXPECT_EQ(1u, segments->generation());
  // Another thread that saw generation 0 run out does not skip one.
  segments->StartNextGeneration(0);
  EXPECT_EQ(1u, segments->generation());
  SegmentId fresh = segments->Create(&t[4], 4, 1, 4);
  EXPECT_NE(0u, fresh & (1u << (kSegmentBits - 1)));
  for (u32 i = 0; i < 4; i++)
    EXPECT_EQ(0u, old_ids[i] & (1u << (kSegmentBits - 1)));
  EXPECT_EQ(4u, segments->Get(fresh).slot);
  EXPECT_EQ(2u, segments->Get(old_ids[2]).slot);
  // A cursor of the old generation takes a page of the new one.
  SegmentId continued = segments->Create(&t[0], 0, 2, 0);
  EXPECT_NE(old_ids[0] + 1, continued);
  EXPECT_EQ(2u, segments->Get(continued).clock);
  // Generation 2 uses the first half again.
  for (u32 i = 2; i < 4; i++)
    segments->Create(&t[i], i, 2, i);
  EXPECT_EQ(0u, segments->Create(&t[1], 1, 2, 1));
  segments->StartNextGeneration(1);
  SegmentId again = segments->Create(&t[1], 1, 2, 1);
  EXPECT_EQ(0u, again & (1u << (kSegmentBits - 1)));
  EXPECT_EQ(1u, segments->Get(again).slot);
}

} // namespace
} // namespace hrace
