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
  void SetUp() override {
    // Reserves the whole id space (12 GiB, MAP_NORESERVE); never unmapped.
    segments = new SegmentTable();
    segments->Init();
  }

  SegmentTable *segments;
};

TEST_F(SegmentTest, EmptyTable) { EXPECT_EQ(0u, segments->count()); }

TEST_F(SegmentTest, CreateReturnsIncreasingIdsFromOne) {
  EXPECT_EQ(1u, segments->Create(0, 1, 0));
  EXPECT_EQ(2u, segments->Create(0, 2, 0));
  EXPECT_EQ(3u, segments->Create(1, 1, 1));
  EXPECT_EQ(3u, segments->count());
}

TEST_F(SegmentTest, GetReturnsWhatWasCreated) {
  SegmentId a = segments->Create(3, 17, 42);
  SegmentId b = segments->Create(8191, 0xffffffffu, 0xfffffffeu);
  SegmentInfo ia = segments->Get(a);
  EXPECT_EQ(3u, ia.slot);
  EXPECT_EQ(17u, ia.clock);
  EXPECT_EQ(42u, ia.thread_id);
  SegmentInfo ib = segments->Get(b);
  EXPECT_EQ(8191u, ib.slot);
  EXPECT_EQ(0xffffffffu, ib.clock);
  EXPECT_EQ(0xfffffffeu, ib.thread_id);
}

TEST_F(SegmentTest, IdsAreNeverZero) {
  for (int i = 0; i < 1000; i++)
    EXPECT_NE(0u, segments->Create(0, i, 0));
}

} // namespace
} // namespace hrace
