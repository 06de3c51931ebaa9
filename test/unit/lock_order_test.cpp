//===-- lock_order_test.cpp - The lock-order graph and its cycles ---------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "../../detectors/hrace_lock_order.h"

#include "gtest/gtest.h"

#include <vector>

namespace hrace {
namespace {

class LockOrderGraphTest : public ::testing::Test {
protected:
  // Adds from -> to by thread T<thread>; returns the cycle it closes, as the
  // sequence of locks it passes through (empty: none).
  std::vector<LockId> Add(LockId from, LockId to, u32 thread = 1) {
    EXPECT_FALSE(graph.HasEdge(from, to));
    LockOrderEdge e;
    e.from = from;
    e.to = to;
    e.thread_id = thread;
    LockIdentity a, b;
    a.addr = 0x1000 + from;
    b.addr = 0x1000 + to;
    LockOrderEdge cycle[8];
    u32 n = graph.AddEdge(e, a, b, cycle, 8);
    std::vector<LockId> locks;
    for (u32 i = 0; i < n && i < 8; i++) {
      EXPECT_EQ(cycle[i].to, cycle[(i + 1) % n].from) << "edge " << i;
      locks.push_back(cycle[i].from);
    }
    EXPECT_TRUE(graph.HasEdge(from, to));
    return locks;
  }

  LockOrderGraph graph;
};

TEST_F(LockOrderGraphTest, ConsistentOrderHasNoCycle) {
  EXPECT_TRUE(Add(1, 2).empty());
  EXPECT_TRUE(Add(2, 3).empty());
  EXPECT_TRUE(Add(1, 3).empty());
  EXPECT_EQ(3u, graph.lock_count());
  EXPECT_EQ(3u, graph.edge_count());
}

TEST_F(LockOrderGraphTest, TwoLockInversionIsACycleOfTwo) {
  EXPECT_TRUE(Add(1, 2, 1).empty());
  std::vector<LockId> cycle = Add(2, 1, 2);
  EXPECT_EQ((std::vector<LockId>{2, 1}), cycle);
}

TEST_F(LockOrderGraphTest, FivePhilosophersAreOneCycleOfFive) {
  for (LockId i = 1; i < 5; i++)
    EXPECT_TRUE(Add(i, i + 1, i).empty());
  EXPECT_EQ((std::vector<LockId>{5, 1, 2, 3, 4}), Add(5, 1, 5));
}

TEST_F(LockOrderGraphTest, TheShortestCycleThroughTheNewEdgeIsFound) {
  // 2 -> 3 -> 4 -> 1 and a shortcut 2 -> 1.
  Add(2, 3);
  Add(3, 4);
  Add(4, 1);
  Add(2, 1);
  EXPECT_EQ((std::vector<LockId>{1, 2}), Add(1, 2));
}

TEST_F(LockOrderGraphTest, EachCycleIsFoundOnlyByTheEdgeThatClosesIt) {
  Add(1, 2);
  EXPECT_EQ(2u, Add(2, 1).size());
  // A new edge that closes a different cycle is reported; one that closes
  // none is not, even though the graph still has the old cycle.
  EXPECT_TRUE(Add(2, 3).empty());
  EXPECT_EQ(3u, Add(3, 1).size());
}

TEST_F(LockOrderGraphTest, ARemovedLockTakesItsEdgesAlong) {
  Add(1, 2);
  Add(2, 3);
  graph.RemoveLock(2);
  EXPECT_FALSE(graph.HasEdge(1, 2));
  EXPECT_FALSE(graph.HasEdge(2, 3));
  EXPECT_EQ(2u, graph.lock_count());
  EXPECT_EQ(0u, graph.edge_count());
  // The lock made again at the same address is a new name: no cycle with
  // the old one's edges.
  EXPECT_TRUE(Add(3, 4).empty());
  EXPECT_TRUE(Add(4, 1).empty());
  LockIdentity identity;
  EXPECT_FALSE(graph.Identity(2, &identity));
  ASSERT_TRUE(graph.Identity(4, &identity));
  EXPECT_EQ(0x1004u, identity.addr);
}

// A lock's first two edges on a side are kept in its node, the rest on the
// heap: edges past those two are found, searched and removed as well, and
// a node slot reused after a lock with a heap list keeps working.
TEST_F(LockOrderGraphTest, EdgesPastTheTwoInPlaceAreFoundSearchedAndRemoved) {
  for (LockId to = 2; to <= 6; to++)
    ASSERT_TRUE(Add(1, to).empty());
  for (LockId from = 7; from <= 11; from++)
    ASSERT_TRUE(Add(from, 6).empty());
  // The search from 1 reaches 6 by its fifth edge out, and 2 and 3 by the
  // two that moved from the node to the heap.
  EXPECT_EQ((std::vector<LockId>{6, 1}), Add(6, 1));
  EXPECT_EQ((std::vector<LockId>{2, 1}), Add(2, 1));
  EXPECT_EQ((std::vector<LockId>{3, 1}), Add(3, 1));
  graph.RemoveLock(4);
  EXPECT_FALSE(graph.HasEdge(1, 4));
  for (LockId to : {2u, 3u, 5u, 6u})
    EXPECT_TRUE(graph.HasEdge(1, to)) << to;
  graph.RemoveLock(9);
  for (LockId from : {7u, 8u, 10u, 11u})
    EXPECT_TRUE(graph.HasEdge(from, 6)) << from;
  EXPECT_EQ(13u - 2u, graph.edge_count());
  graph.RemoveLock(1);
  EXPECT_EQ(4u, graph.edge_count());
  // Lock 12 takes lock 1's slot (freed last, reused first), with its list
  // on the heap, now empty.
  EXPECT_TRUE(Add(12, 2).empty());
  EXPECT_TRUE(Add(12, 3).empty());
  EXPECT_TRUE(Add(12, 5).empty());
  EXPECT_EQ((std::vector<LockId>{5, 12}), Add(5, 12));
}

TEST_F(LockOrderGraphTest, ManyLocksChurnWithoutGrowingTheGraph) {
  for (LockId i = 1; i <= 100000; i += 2) {
    Add(i, i + 1);
    graph.RemoveLock(i);
    graph.RemoveLock(i + 1);
  }
  EXPECT_EQ(0u, graph.lock_count());
  EXPECT_EQ(0u, graph.edge_count());
}

TEST_F(LockOrderGraphTest, DeepNestingIsLinearInEdgesAndFindsTheLongCycle) {
  // A thread holding 300 locks in order adds an edge from each held lock.
  const LockId kDepth = 300;
  for (LockId to = 2; to <= kDepth; to++)
    for (LockId from = 1; from < to; from++)
      ASSERT_TRUE(Add(from, to).empty());
  EXPECT_EQ(kDepth * (kDepth - 1) / 2, graph.edge_count());
  // The inverted innermost pair is the shortest cycle.
  EXPECT_EQ((std::vector<LockId>{kDepth, 1}), Add(kDepth, 1));
}

TEST_F(LockOrderGraphTest, ACycleLongerThanTheBufferReportsItsLength) {
  const LockId kLength = 20;
  for (LockId i = 1; i < kLength; i++)
    Add(i, i + 1);
  LockOrderEdge e;
  e.from = kLength;
  e.to = 1;
  LockOrderEdge cycle[4];
  EXPECT_EQ(kLength, graph.AddEdge(e, {}, {}, cycle, 4));
  EXPECT_EQ(kLength, cycle[0].from);
  EXPECT_EQ(1u, cycle[1].from);
  EXPECT_EQ(3u, cycle[3].from);
}

TEST(HeldAcquisitionsTest, HoldsGrowPastAnyFixedLimitAndPopByName) {
  HeldAcquisitions held;
  for (LockId i = 1; i <= 500; i++)
    held.Push(i, 0x1000 + i);
  EXPECT_EQ(500u, held.count());
  held.Pop(250);
  EXPECT_EQ(499u, held.count());
  EXPECT_EQ(251u, held.at(249)->id);
  held.Pop(9999);
  EXPECT_EQ(499u, held.count());
  held.Free();
  EXPECT_EQ(0u, held.count());
}

TEST(HeldAcquisitionsTest, RemembersEdgesItWasTold) {
  HeldAcquisitions held;
  EXPECT_FALSE(held.KnowsEdge(1, 2));
  held.RememberEdge(1, 2);
  EXPECT_TRUE(held.KnowsEdge(1, 2));
  EXPECT_FALSE(held.KnowsEdge(2, 1));
}

} // namespace
} // namespace hrace
