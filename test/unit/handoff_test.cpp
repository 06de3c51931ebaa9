//===-- handoff_test.cpp - What locks hand over, and to which memory -------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The rules of the write/read relations' two data structures: a lock's map
// of what its critical sections wrote (DS, hrace_lock_writes.h) and a
// thread's scoped hand-off edges (hrace_handoff.h).
//
//===----------------------------------------------------------------------===//

#include "../runtime/hrace_handoff.h"
#include "../runtime/hrace_lock_writes.h"

#include "gtest/gtest.h"

#include <vector>

namespace hrace {
namespace {

// A clock that knows slot `slot` up to `clock` (and nothing else).
struct Clock : VectorClock {
  Clock(u32 slot, u32 clock) { Set(slot, clock); }
  ~Clock() { Free(); }
};

class LockWritesTest : public ::testing::Test {
protected:
  ~LockWritesTest() override { writes.Free(); }

  // What a read of [addr, addr+size) under the lock finds: for each writer
  // clock, the value of slots 0 and 1.
  std::vector<std::pair<u32, u32>> Find(uptr addr, uptr size) {
    std::vector<std::pair<u32, u32>> found;
    writes.ForEachWriter(addr, size, [&](const VectorClock &c) {
      found.push_back({c.Get(0), c.Get(1)});
    });
    return found;
  }

  LockWrites writes;
  static constexpr uptr kFlag = 0x1000;
};

using Found = std::vector<std::pair<u32, u32>>;

TEST_F(LockWritesTest, AReadFindsTheClockOfTheWriter) {
  writes.Publish(kFlag, 4, Clock(0, 7), false);
  EXPECT_EQ(Found({{7, 0}}), Find(kFlag, 4));
  EXPECT_EQ(Found({{7, 0}}), Find(kFlag + 2, 1));
}

TEST_F(LockWritesTest, AReadOfOtherBytesFindsNothing) {
  writes.Publish(kFlag, 4, Clock(0, 7), false);
  EXPECT_EQ(Found(), Find(kFlag + 4, 4));
  EXPECT_EQ(Found(), Find(kFlag + 8, 8));
}

// Two flags in one 8-byte word, written by two threads: each reader is
// ordered after its own flag's writer only (seeds/000, figure 4).
TEST_F(LockWritesTest, FlagsSharingAWordStayApart) {
  writes.Publish(kFlag, 4, Clock(0, 3), false);
  writes.Publish(kFlag + 4, 4, Clock(1, 5), false);
  EXPECT_EQ(Found({{3, 0}}), Find(kFlag, 4));
  EXPECT_EQ(Found({{0, 5}}), Find(kFlag + 4, 4));
}

TEST_F(LockWritesTest, APlainWriteReplacesTheClock) {
  writes.Publish(kFlag, 4, Clock(0, 3), false);
  writes.Publish(kFlag, 4, Clock(1, 5), false);
  EXPECT_EQ(Found({{0, 5}}), Find(kFlag, 4));
  EXPECT_EQ(1u, writes.size());
}

// A counter decremented by two threads: whoever reads it is ordered after
// both, as after a release sequence continued by read-modify-writes.
TEST_F(LockWritesTest, AReadModifyWriteJoinsTheClocks) {
  writes.Publish(kFlag, 4, Clock(0, 3), false);
  writes.Publish(kFlag, 4, Clock(1, 5), true);
  EXPECT_EQ(Found({{3, 5}}), Find(kFlag, 4));
}

TEST_F(LockWritesTest, AWriteAcrossGranulesIsFoundFromEach) {
  writes.Publish(kFlag + 4, 8, Clock(0, 2), false);
  EXPECT_EQ(Found({{2, 0}}), Find(kFlag + 4, 1));
  EXPECT_EQ(Found({{2, 0}}), Find(kFlag + 8, 4));
  EXPECT_EQ(Found(), Find(kFlag, 4));
}

TEST_F(LockWritesTest, ALongWriteIsKeptByItsFirstGranules) {
  writes.Publish(kFlag, 4096, Clock(0, 2), false);
  EXPECT_EQ(LockWrites::kMaxGranulesPerWrite, writes.size());
  EXPECT_EQ(Found({{2, 0}}), Find(kFlag, 8));
  EXPECT_EQ(Found(), Find(kFlag + 2048, 8));
}

TEST_F(LockWritesTest, TheOldestLocationIsForgottenWhenFull) {
  for (u32 i = 0; i <= LockWrites::kMaxEntries; i++)
    writes.Publish(kFlag + 8 * i, 8, Clock(0, i + 1), false);
  EXPECT_EQ(LockWrites::kMaxEntries, writes.size());
  EXPECT_EQ(Found(), Find(kFlag, 8));
  EXPECT_EQ(Found({{2, 0}}), Find(kFlag + 8, 8));
  EXPECT_EQ(Found({{LockWrites::kMaxEntries + 1, 0}}),
            Find(kFlag + 8 * LockWrites::kMaxEntries, 8));
}

TEST_F(LockWritesTest, FreeForgetsEverything) {
  writes.Publish(kFlag, 4, Clock(0, 7), false);
  writes.Free();
  EXPECT_EQ(Found(), Find(kFlag, 4));
  writes.Publish(kFlag, 4, Clock(0, 8), false);
  EXPECT_EQ(Found({{8, 0}}), Find(kFlag, 4));
}

class HandoffEdgesTest : public ::testing::Test {
protected:
  ~HandoffEdgesTest() override { edges.Free(); }

  HandoffEdges edges;
  // A queue in one heap block whose head held a node in another.
  static constexpr uptr kQueue = 0x10000, kQueueEnd = 0x10040;
  static constexpr uptr kNode = 0x20000, kNodeEnd = 0x20020;
};

TEST_F(HandoffEdgesTest, OrdersTheBlockOfTheLocationRead) {
  edges.Add(Clock(1, 5), kQueue + 8, kNode);
  EXPECT_TRUE(edges.Orders(1, 5, kQueue, kQueueEnd));
  EXPECT_TRUE(edges.Orders(1, 3, kQueue, kQueueEnd));
}

TEST_F(HandoffEdgesTest, OrdersTheBlockWhoseAddressTheReadReturned) {
  edges.Add(Clock(1, 5), kQueue + 8, kNode);
  EXPECT_TRUE(edges.Orders(1, 5, kNode, kNodeEnd));
}

TEST_F(HandoffEdgesTest, OrdersNoOtherMemory) {
  edges.Add(Clock(1, 5), kQueue + 8, kNode);
  EXPECT_FALSE(edges.Orders(1, 5, 0x30000, 0x30100));
  EXPECT_TRUE(edges.MayOrder(1, 5));
}

TEST_F(HandoffEdgesTest, OrdersOnlyWhatTheWriterHadDone) {
  edges.Add(Clock(1, 5), kQueue + 8, kNode);
  EXPECT_FALSE(edges.Orders(1, 6, kQueue, kQueueEnd));
  EXPECT_FALSE(edges.Orders(2, 1, kQueue, kQueueEnd));
  EXPECT_FALSE(edges.MayOrder(1, 6));
}

TEST_F(HandoffEdgesTest, ANonPointerReadScopesItsLocationOnly) {
  edges.Add(Clock(1, 5), kQueue, 0);
  EXPECT_TRUE(edges.Orders(1, 5, kQueue, kQueueEnd));
  EXPECT_FALSE(edges.Orders(1, 5, 0, 0x100));
}

TEST_F(HandoffEdgesTest, ReadingTheSameLocationAgainJoinsIntoOneEdge) {
  edges.Add(Clock(1, 5), kQueue, kNode);
  edges.Add(Clock(2, 4), kQueue, kNode);
  for (u32 i = 0; i < HandoffEdges::kMax - 1; i++)
    edges.Add(Clock(3, 1), 0x50000 + 8 * i, 0);
  EXPECT_TRUE(edges.Orders(1, 5, kNode, kNodeEnd));
  EXPECT_TRUE(edges.Orders(2, 4, kNode, kNodeEnd));
}

TEST_F(HandoffEdgesTest, TheOldestEdgesAreForgotten) {
  edges.Add(Clock(1, 5), kQueue, kNode);
  for (u32 i = 0; i < HandoffEdges::kMax; i++)
    edges.Add(Clock(3, 1), 0x50000 + 8 * i, 0);
  EXPECT_FALSE(edges.Orders(1, 5, kNode, kNodeEnd));
}

} // namespace
} // namespace hrace
