//===-- handoff_test.cpp - What locks hand over, and to which memory
//-------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The rules of the write/read relations' data structures: shared clock
// snapshots (hrace_clock_snapshot.h), a lock's map of what its critical
// sections wrote (DS, hrace_lock_writes.h) and a thread's scoped hand-off
// edges (hrace_handoff.h).
//
//===----------------------------------------------------------------------===//

#include "../runtime/hrace_handoff.h"
#include "../runtime/hrace_lock_writes.h"

#include "gtest/gtest.h"

#include <vector>

namespace hrace {
namespace {

// What a thread in `slot` knew at its clock `clock`, having heard of
// nothing else (or of `other`'s slot up to `other_clock`).
struct Clock : ClockRef {
  Clock(u32 slot, u32 clock, u32 other = 0, u32 other_clock = 0) {
    VectorClock vc;
    vc.Set(other, other_clock);
    ClockSnapshot *base = ClockSnapshot::Make(vc);
    Assign(base, slot, clock);
    base->Unref();
    vc.Free();
  }
  ~Clock() { Reset(); }
};

TEST(ClockRefTest, IsTheSnapshotWithTheOwnClock) {
  Clock c(1, 9, 0, 4);
  EXPECT_EQ(4u, c.Get(0));
  EXPECT_EQ(9u, c.Get(1));
  EXPECT_EQ(0u, c.Get(2));
  EXPECT_EQ(2u, c.size());
}

TEST(ClockRefTest, KnownByAClockThatIsNoOlderAnywhere) {
  Clock c(1, 9, 0, 4);
  VectorClock vc;
  vc.Set(0, 4);
  vc.Set(1, 8);
  EXPECT_FALSE(c.KnownBy(vc));
  vc.Set(1, 9);
  EXPECT_TRUE(c.KnownBy(vc));
  vc.Set(0, 3);
  EXPECT_FALSE(c.KnownBy(vc));
  vc.Free();
}

TEST(ClockRefTest, JoinKeepsTheNewerOfOneHistory) {
  Clock older(1, 3), newer(1, 7);
  ClockRef c;
  c.Assign(newer);
  c.Join(older);
  EXPECT_EQ(7u, c.Get(1));
  c.Join(Clock(1, 9));
  EXPECT_EQ(9u, c.Get(1));
  c.Reset();
}

TEST(ClockRefTest, JoinOfUnorderedClocksKnowsBoth) {
  ClockRef c;
  c.Assign(Clock(0, 3));
  c.Join(Clock(1, 5));
  EXPECT_EQ(3u, c.Get(0));
  EXPECT_EQ(5u, c.Get(1));
  VectorClock vc;
  c.JoinInto(&vc);
  EXPECT_EQ(3u, vc.Get(0));
  EXPECT_EQ(5u, vc.Get(1));
  vc.Free();
  c.Reset();
}

// A counter changed by two threads in turns: the joined snapshot is reused
// in place while nothing else refers to it, and knows every turn.
TEST(ClockRefTest, JoinsByTurnsKnowEveryTurn) {
  ClockRef c;
  c.Assign(Clock(0, 1));
  for (u32 turn = 1; turn <= 6; turn++)
    c.Join(Clock(turn % 2, turn + 1));
  EXPECT_EQ(7u, c.Get(0));
  EXPECT_EQ(6u, c.Get(1));
  // A reference taken now sees the snapshot as it is; later joins make a
  // new one instead of changing it under the reference.
  ClockRef shared;
  shared.Assign(c);
  c.Join(Clock(0, 9));
  EXPECT_EQ(7u, shared.Get(0));
  EXPECT_EQ(9u, c.Get(0));
  shared.Reset();
  c.Reset();
}

TEST(ClockRefTest, ASnapshotOutlivesTheRefThatMadeIt) {
  ClockRef kept;
  {
    Clock c(1, 9, 0, 4);
    kept.Assign(c);
  }
  EXPECT_EQ(4u, kept.Get(0));
  EXPECT_EQ(9u, kept.Get(1));
  kept.Reset();
  EXPECT_TRUE(kept.empty());
}

// A thread publishes its clock again at each unlock until it acquires: the
// same snapshot, assigned again or at a later own clock, outlives the ref
// it came from.
TEST(ClockRefTest, TheSameSnapshotAtALaterOwnClock) {
  ClockRef kept;
  {
    Clock c(1, 9, 0, 4);
    kept.Assign(c);
    kept.Assign(c);
  }
  kept.AdvanceOwnClock(1, 12);
  EXPECT_EQ(4u, kept.Get(0));
  EXPECT_EQ(12u, kept.Get(1));
  ClockRef earlier;
  earlier.Assign(kept);
  earlier.AdvanceOwnClock(1, 10);
  earlier.Join(kept);
  EXPECT_EQ(12u, earlier.Get(1));
  kept.Join(earlier);
  EXPECT_EQ(12u, kept.Get(1));
  EXPECT_EQ(4u, kept.Get(0));
  earlier.Reset();
  kept.Reset();
}

class LockWritesTest : public ::testing::Test {
protected:
  ~LockWritesTest() override { writes.Free(); }

  // Section number `seq` of the lock wrote [addr, addr+size).
  void Publish(uptr addr, uptr size, const ClockRef &clock, bool accumulate,
               u32 seq = 0) {
    writes.Publish(addr, size, clock, accumulate,
                   seq ? seq : writes.EndSection());
  }

  // What a read of [addr, addr+size) under the lock finds: for each writer
  // clock, the value of slots 0 and 1.
  std::vector<std::pair<u32, u32>> Find(uptr addr, uptr size) {
    std::vector<std::pair<u32, u32>> found;
    writes.ForEachWriter(addr, size, [&](const ClockRef &c, u32) {
      found.push_back({c.Get(0), c.Get(1)});
    });
    return found;
  }

  LockWrites writes;
  static constexpr uptr kFlag = 0x1000;
};

using Found = std::vector<std::pair<u32, u32>>;

TEST_F(LockWritesTest, AReadFindsTheClockOfTheWriter) {
  Publish(kFlag, 4, Clock(0, 7), false);
  EXPECT_EQ(Found({{7, 0}}), Find(kFlag, 4));
  EXPECT_EQ(Found({{7, 0}}), Find(kFlag + 2, 1));
}

TEST_F(LockWritesTest, AReadOfOtherBytesFindsNothing) {
  Publish(kFlag, 4, Clock(0, 7), false);
  EXPECT_EQ(Found(), Find(kFlag + 4, 4));
  EXPECT_EQ(Found(), Find(kFlag + 8, 8));
}

// Two flags in one 8-byte word, written by two threads: each reader is
// ordered after its own flag's writer only (seeds/000, figure 4).
TEST_F(LockWritesTest, FlagsSharingAWordStayApart) {
  Publish(kFlag, 4, Clock(0, 3), false);
  Publish(kFlag + 4, 4, Clock(1, 5), false);
  EXPECT_EQ(Found({{3, 0}}), Find(kFlag, 4));
  EXPECT_EQ(Found({{0, 5}}), Find(kFlag + 4, 4));
}

TEST_F(LockWritesTest, APlainWriteReplacesTheClock) {
  Publish(kFlag, 4, Clock(0, 3), false);
  Publish(kFlag, 4, Clock(1, 5), false);
  EXPECT_EQ(Found({{0, 5}}), Find(kFlag, 4));
  EXPECT_EQ(1u, writes.size());
}

// A counter decremented by two threads: whoever reads it is ordered after
// both, as after a release sequence continued by read-modify-writes.
TEST_F(LockWritesTest, AReadModifyWriteJoinsTheClocks) {
  Publish(kFlag, 4, Clock(0, 3), false);
  Publish(kFlag, 4, Clock(1, 5), true);
  EXPECT_EQ(Found({{3, 5}}), Find(kFlag, 4));
}

TEST_F(LockWritesTest, AWriteAcrossGranulesIsFoundFromEach) {
  Publish(kFlag + 4, 8, Clock(0, 2), false);
  EXPECT_EQ(Found({{2, 0}}), Find(kFlag + 4, 1));
  EXPECT_EQ(Found({{2, 0}}), Find(kFlag + 8, 4));
  EXPECT_EQ(Found(), Find(kFlag, 4));
}

TEST_F(LockWritesTest, ALongWriteIsKeptByItsFirstGranules) {
  Publish(kFlag, 4096, Clock(0, 2), false);
  EXPECT_EQ(LockWrites::kMaxGranulesPerWrite, writes.size());
  EXPECT_EQ(Found({{2, 0}}), Find(kFlag, 8));
  EXPECT_EQ(Found(), Find(kFlag + 2048, 8));
}

TEST_F(LockWritesTest, TheOldestLocationIsForgottenWhenFull) {
  for (u32 i = 0; i <= LockWrites::kMaxEntries; i++)
    Publish(kFlag + 8 * i, 8, Clock(0, i + 1), false);
  EXPECT_EQ(LockWrites::kMaxEntries, writes.size());
  EXPECT_EQ(Found(), Find(kFlag, 8));
  EXPECT_EQ(Found({{2, 0}}), Find(kFlag + 8, 8));
  EXPECT_EQ(Found({{LockWrites::kMaxEntries + 1, 0}}),
            Find(kFlag + 8 * LockWrites::kMaxEntries, 8));
}

TEST_F(LockWritesTest, AnEntryRemembersTheSectionThatWroteItLast) {
  Publish(kFlag, 4, Clock(0, 3), false);
  Publish(kFlag + 8, 4, Clock(0, 4), false);
  Publish(kFlag, 4, Clock(1, 5), true);
  EXPECT_EQ(4u, writes.EndSection());
  std::vector<u32> seqs;
  writes.ForEachWriter(kFlag, 16,
                       [&](const ClockRef &, u32 seq) { seqs.push_back(seq); });
  EXPECT_EQ(std::vector<u32>({3, 2}), seqs);
}

// The locations a section wrote share what their writer knew; a later
// read-modify-write of one joins into its own copy.
TEST_F(LockWritesTest, AReadModifyWriteOfOneLocationLeavesItsSectionsOthers) {
  u32 seq = writes.EndSection();
  Clock first(0, 3);
  Publish(kFlag, 16, first, false, seq);
  Publish(kFlag + 16, 4, first, false, seq);
  Publish(kFlag + 8, 8, Clock(1, 5), true);
  EXPECT_EQ(Found({{3, 0}}), Find(kFlag, 4));
  EXPECT_EQ(Found({{3, 5}}), Find(kFlag + 8, 4));
  EXPECT_EQ(Found({{3, 0}}), Find(kFlag + 16, 4));
}

TEST_F(LockWritesTest, ALocationWrittenTwiceInOneSectionKeepsItsClock) {
  u32 seq = writes.EndSection();
  Clock clock(0, 3);
  Publish(kFlag, 4, clock, false, seq);
  Publish(kFlag + 8, 4, clock, false, seq);
  Publish(kFlag, 4, clock, false, seq);
  EXPECT_EQ(2u, writes.size());
  EXPECT_EQ(Found({{3, 0}}), Find(kFlag, 4));
  EXPECT_EQ(Found({{3, 0}}), Find(kFlag + 8, 4));
}

// A location written again by a later section takes the new clock in its
// own record; the record its first section's other locations share stays
// theirs.
TEST_F(LockWritesTest, APlainWriteOfOneLocationLeavesItsSectionsOthers) {
  u32 seq = writes.EndSection();
  Clock first(0, 3);
  Publish(kFlag, 4, first, false, seq);
  Publish(kFlag + 8, 4, first, false, seq);
  Publish(kFlag + 16, 4, Clock(0, 4), false);
  u32 later = writes.EndSection();
  Clock second(1, 5);
  Publish(kFlag + 16, 4, second, false, later);
  Publish(kFlag, 4, second, false, later);
  EXPECT_EQ(Found({{0, 5}}), Find(kFlag, 4));
  EXPECT_EQ(Found({{3, 0}}), Find(kFlag + 8, 4));
  EXPECT_EQ(Found({{0, 5}}), Find(kFlag + 16, 4));
  EXPECT_EQ(3u, writes.size());
}

// What a reader of section `seq` may take from the location: for each
// writer clock, the value of slots 0 and 1.
class LockWritesAsOfTest : public LockWritesTest {
protected:
  Found AsOf(uptr addr, uptr size, u32 seq) {
    Found found;
    writes.ForEachWriterAsOf(addr, size, seq, [&](const ClockRef &c) {
      found.push_back({c.Get(0), c.Get(1)});
    });
    return found;
  }
};

// A node's counter, created by one thread and bumped by every visitor: a
// reader of any section after the creation learned at least what the
// creator knew, and a reader of the latest section all of it.
TEST_F(LockWritesAsOfTest, LaterJoinsLeaveWhatThePlainWriterKnew) {
  Publish(kFlag, 4, Clock(0, 3), false);
  Publish(kFlag, 4, Clock(1, 5), true);
  Publish(kFlag, 4, Clock(1, 6), true);
  EXPECT_EQ(Found({{3, 0}}), AsOf(kFlag, 4, 1));
  EXPECT_EQ(Found({{3, 0}}), AsOf(kFlag, 4, 2));
  EXPECT_EQ(Found({{3, 6}}), AsOf(kFlag, 4, 3));
}

// The value read was replaced since: nothing the map holds now was known
// to that reader.
TEST_F(LockWritesAsOfTest, APlainWriteLaterHidesEarlierSections) {
  Publish(kFlag, 4, Clock(0, 3), false);
  Publish(kFlag, 4, Clock(1, 5), true);
  Publish(kFlag, 4, Clock(1, 7), false);
  EXPECT_EQ(Found(), AsOf(kFlag, 4, 1));
  EXPECT_EQ(Found(), AsOf(kFlag, 4, 2));
  EXPECT_EQ(Found({{0, 7}}), AsOf(kFlag, 4, 3));
}

// Past 12 locations the map searches an index by granule: a section's 20
// locations share its record, and a read-modify-write of one of them, and
// of another sharing a granule with it, copy it apart.
TEST_F(LockWritesAsOfTest, AnIndexedMapCopiesASharedRecordOnAJoin) {
  u32 seq = writes.EndSection();
  Clock first(0, 3);
  for (u32 i = 0; i < 20; i++)
    Publish(kFlag + 8 * i, 4, first, false, seq);
  Publish(kFlag + 8 * 15, 4, Clock(1, 5), true);
  Publish(kFlag + 8 * 15 + 4, 4, Clock(1, 6), true);
  EXPECT_EQ(21u, writes.size());
  for (u32 i = 0; i < 20; i++) {
    Found expected = i == 15 ? Found({{3, 5}}) : Found({{3, 0}});
    EXPECT_EQ(expected, AsOf(kFlag + 8 * i, 4, seq + 2)) << i;
  }
  EXPECT_EQ(Found({{0, 6}}), AsOf(kFlag + 8 * 15 + 4, 4, seq + 2));
}

// A full map forgets its oldest location; a reader of it gets what every
// evicted location's writer knew, once they all came before its section,
// and nothing for a granule that was never evicted.
TEST_F(LockWritesAsOfTest, AnEvictedLocationYieldsWhatItsEvictedWritersKnew) {
  for (u32 i = 0; i <= LockWrites::kMaxEntries + 1; i++)
    Publish(kFlag + 8 * i, 8, Clock(0, i + 1), false);
  // Locations 0 and 1 are gone, written in sections 1 and 2.
  EXPECT_EQ(Found(), AsOf(kFlag, 8, 1));
  EXPECT_EQ(Found({{2, 0}}), AsOf(kFlag, 8, 2));
  EXPECT_EQ(Found({{2, 0}}), AsOf(kFlag + 8, 4, 66));
  EXPECT_EQ(Found(), AsOf(kFlag - 8, 8, 66));
  EXPECT_EQ(Found({{3, 0}}), AsOf(kFlag + 16, 8, 66));
}

// A counter bumped after the reader's section, then evicted, takes the
// summary of what evicted writers knew past that section; the reader of an
// older evicted location still gets what their plain writers knew (a tree
// node's child read just before the next node is locked, while another
// thread bumps a sibling's count).
TEST_F(LockWritesAsOfTest, AnEvictedCounterBumpedLaterLeavesThePlainWriters) {
  uptr counter = kFlag + 8;
  Publish(kFlag, 8, Clock(0, 1), false);
  Publish(counter, 8, Clock(0, 2), true);
  for (u32 i = 0; i < LockWrites::kMaxEntries - 1; i++)
    Publish(kFlag + 16 + 8 * i, 8, Clock(0, 2), false);
  // kFlag is gone, in section 65; the reader's section is that one.
  u32 reader = 65;
  Publish(counter, 8, Clock(1, 9), true);
  Publish(kFlag + 16 + 8 * LockWrites::kMaxEntries, 8, Clock(0, 2), false);
  // The counter is gone too, bumped in section 66.
  EXPECT_EQ(Found({{2, 0}}), AsOf(kFlag, 8, reader));
  EXPECT_EQ(Found({{2, 9}}), AsOf(kFlag, 8, reader + 1));
  EXPECT_EQ(Found({{2, 0}}), AsOf(counter, 8, reader));
}

// A join into a location its section shares with others copies the
// section's record, with what the plain writer knew.
TEST_F(LockWritesAsOfTest, AJoinIntoASharedRecordKeepsThePlainWriter) {
  u32 seq = writes.EndSection();
  Clock first(0, 3);
  Publish(kFlag, 16, first, false, seq);
  Publish(kFlag + 8, 8, Clock(1, 5), true);
  EXPECT_EQ(Found({{3, 0}}), AsOf(kFlag + 8, 4, seq));
  EXPECT_EQ(Found({{3, 0}}), AsOf(kFlag, 4, seq + 1));
  EXPECT_EQ(Found({{3, 5}}), AsOf(kFlag + 8, 4, seq + 1));
}

TEST_F(LockWritesTest, FreeForgetsEverything) {
  Publish(kFlag, 4, Clock(0, 7), false);
  writes.Free();
  EXPECT_EQ(Found(), Find(kFlag, 4));
  Publish(kFlag, 4, Clock(0, 8), false);
  EXPECT_EQ(Found({{8, 0}}), Find(kFlag, 4));
}

// A reader whose clock knows slot 0 up to `zero` and slot 1 up to `one`:
// is it ordered after every write of the granule at `granule` that the map
// holds or may have forgotten (ReadAfterLockedWrites)?
class LockWritesKnownTest : public LockWritesTest {
protected:
  bool KnownBy(uptr granule, u32 zero, u32 one) {
    VectorClock reader;
    reader.Set(0, zero);
    reader.Set(1, one);
    bool known = writes.WritesOfGranuleKnownBy(granule, reader);
    reader.Free();
    return known;
  }
};

TEST_F(LockWritesKnownTest, AReaderThatKnowsTheLastWriterIsAfterTheWrites) {
  Publish(kFlag, 4, Clock(0, 3), false);
  Publish(kFlag, 4, Clock(1, 5), false);
  EXPECT_TRUE(KnownBy(kFlag, 0, 5));
  EXPECT_FALSE(KnownBy(kFlag, 3, 4));
}

TEST_F(LockWritesKnownTest, EveryWriterOfTheGranuleCounts) {
  Publish(kFlag, 4, Clock(0, 3), false);
  Publish(kFlag + 4, 4, Clock(1, 5), false);
  EXPECT_FALSE(KnownBy(kFlag, 3, 0));
  EXPECT_TRUE(KnownBy(kFlag, 3, 5));
}

TEST_F(LockWritesKnownTest, ReadModifyWritesNeedEveryUpdater) {
  Publish(kFlag, 4, Clock(0, 3), false);
  Publish(kFlag, 4, Clock(1, 5), true);
  EXPECT_FALSE(KnownBy(kFlag, 0, 5));
  EXPECT_TRUE(KnownBy(kFlag, 3, 5));
}

TEST_F(LockWritesKnownTest, AGranuleNeverWrittenShowsNothing) {
  Publish(kFlag, 4, Clock(0, 3), false);
  EXPECT_FALSE(KnownBy(kFlag + 8, 9, 9));
}

TEST_F(LockWritesKnownTest, AForgottenGranuleNeedsEveryForgottenWriter) {
  // The first two locations are forgotten: writers (slot 0, 1), (slot 1, 2).
  for (u32 i = 0; i <= LockWrites::kMaxEntries + 1; i++)
    Publish(kFlag + 8 * i, 8, Clock(i % 2, i + 1), false);
  EXPECT_EQ(Found(), Find(kFlag, 8));
  EXPECT_FALSE(KnownBy(kFlag, 1, 0));
  EXPECT_TRUE(KnownBy(kFlag, 1, 2));
}

TEST_F(LockWritesKnownTest, AMapThatMissedAWriteShowsNothing) {
  Publish(kFlag, 4, Clock(0, 3), false);
  Publish(kFlag + 64, 4096, Clock(0, 4), false);
  EXPECT_FALSE(KnownBy(kFlag, 9, 9));
}

TEST_F(LockWritesKnownTest, AMapMarkedLostShowsNothingUntilFreed) {
  Publish(kFlag, 4, Clock(0, 3), false);
  writes.MarkLost();
  EXPECT_FALSE(KnownBy(kFlag, 9, 9));
  writes.Free();
  Publish(kFlag, 4, Clock(0, 3), false);
  EXPECT_TRUE(KnownBy(kFlag, 9, 9));
}

class HandoffEdgesTest : public ::testing::Test {
protected:
  ~HandoffEdgesTest() override { edges.Free(); }

  HandoffEdges edges;
  // A queue in one heap block whose head held a node in another.
  static constexpr uptr kQueue = 0x10000, kQueueEnd = 0x10040;
  static constexpr uptr kNode = 0x20000, kNodeEnd = 0x20020;
};

TEST_F(HandoffEdgesTest, ReachesTheBlockOfTheLocationRead) {
  edges.Add(Clock(1, 5), kQueue + 8, kNode);
  EXPECT_EQ(5u, edges.Reach(1, 5, kQueue, kQueueEnd));
  EXPECT_EQ(5u, edges.Reach(1, 3, kQueue, kQueueEnd));
}

TEST_F(HandoffEdgesTest, ReachesTheBlockWhoseAddressTheReadReturned) {
  edges.Add(Clock(1, 5), kQueue + 8, kNode);
  EXPECT_EQ(5u, edges.Reach(1, 5, kNode, kNodeEnd));
}

TEST_F(HandoffEdgesTest, ReachesNoOtherMemory) {
  edges.Add(Clock(1, 5), kQueue + 8, kNode);
  EXPECT_EQ(0u, edges.Reach(1, 5, 0x30000, 0x30100));
  EXPECT_TRUE(edges.MayOrder(1, 5));
}

TEST_F(HandoffEdgesTest, ReachesOnlyWhatTheWriterHadDone) {
  edges.Add(Clock(1, 5), kQueue + 8, kNode);
  EXPECT_EQ(0u, edges.Reach(1, 6, kQueue, kQueueEnd));
  EXPECT_EQ(0u, edges.Reach(2, 1, kQueue, kQueueEnd));
  EXPECT_FALSE(edges.MayOrder(1, 6));
}

TEST_F(HandoffEdgesTest, ANonPointerReadScopesItsLocationOnly) {
  edges.Add(Clock(1, 5), kQueue, 0);
  EXPECT_EQ(5u, edges.Reach(1, 5, kQueue, kQueueEnd));
  EXPECT_EQ(0u, edges.Reach(1, 5, 0, 0x100));
}

TEST_F(HandoffEdgesTest, ReadingTheSameLocationAgainJoinsIntoOneEdge) {
  edges.Add(Clock(1, 5), kQueue, kNode);
  edges.Add(Clock(2, 4), kQueue, kNode);
  for (u32 i = 0; i < HandoffEdges::kMax - 1; i++)
    edges.Add(Clock(3, 1), 0x50000 + 8 * i, 0);
  EXPECT_EQ(5u, edges.Reach(1, 5, kNode, kNodeEnd));
  EXPECT_EQ(4u, edges.Reach(2, 4, kNode, kNodeEnd));
}

TEST_F(HandoffEdgesTest, ReachIsTheFurthestEdgeInScopeThatKnows) {
  edges.Add(Clock(1, 5), kQueue, kNode);
  edges.Add(Clock(1, 9), 0x50000, 0);
  edges.Add(Clock(1, 7), kQueue + 8, 0);
  EXPECT_EQ(7u, edges.Reach(1, 5, kQueue, kQueueEnd));
  EXPECT_EQ(5u, edges.Reach(1, 5, kNode, kNodeEnd));
}

// Records: what a hand-off ordered, for the threads ordered after its
// reader.
class HandoffRecordsTest : public ::testing::Test {
protected:
  // The current thread is ordered after slot 3 up to `known3` (and nothing
  // of any other slot), as KnowsPoint would say.
  bool Orders(u32 slot, hrace::Clock clock, uptr addr, hrace::Clock known3) {
    HeapRange found;
    bool orders = records.Orders(
        slot, clock, addr,
        [&](hrace::Clock c, u32 thread) { return thread == 7 && c <= known3; },
        &found);
    if (orders)
      block = found;
    return orders;
  }

  HeapRange block = {0, 0};

  HandoffRecords records{};
  static constexpr uptr kItem = 0x20000, kItemEnd = 0x20020;
};

TEST_F(HandoffRecordsTest, OrdersTheBlockForThreadsOrderedAfterTheReader) {
  // T7, at clock 4 of slot 3, was handed the item that slot 1 wrote up to
  // clock 5.
  records.Add(4, 7, 1, 5, kItem, kItemEnd);
  EXPECT_TRUE(HandoffRecords::AnyAdded());
  EXPECT_TRUE(Orders(1, 5, kItem + 8, 4));
  EXPECT_EQ(kItem, block.beg);
  EXPECT_EQ(kItemEnd, block.end);
  EXPECT_TRUE(Orders(1, 2, kItem, 9));
  // Not ordered after the reader's access.
  EXPECT_FALSE(Orders(1, 5, kItem, 3));
  // Beyond what the hand-off knew, another writer, other memory.
  EXPECT_FALSE(Orders(1, 6, kItem, 4));
  EXPECT_FALSE(Orders(2, 1, kItem, 4));
  EXPECT_FALSE(Orders(1, 5, kItemEnd, 4));
}

TEST_F(HandoffRecordsTest, OneSegmentsAccessesToOneBlockShareARecord) {
  records.Add(4, 7, 1, 5, kItem, kItemEnd);
  records.Add(4, 7, 1, 8, kItem, kItemEnd);
  for (u32 i = 0; i < HandoffRecords::kMax - 1; i++)
    records.Add(5, 7, 2, 1, 0x50000 + 0x100 * i, 0x50000 + 0x100 * i + 8);
  EXPECT_TRUE(Orders(1, 8, kItem, 4));
}

TEST_F(HandoffRecordsTest, ANewThreadInTheSlotMayForgetThem) {
  records.Add(4, 7, 1, 5, kItem, kItemEnd);
  records.Forget();
  EXPECT_FALSE(Orders(1, 5, kItem, 9));
  records.Add(12, 8, 1, 5, kItem, kItemEnd);
  EXPECT_FALSE(Orders(1, 5, kItem, 20));
  records.Add(13, 7, 1, 5, kItem, kItemEnd);
  EXPECT_TRUE(Orders(1, 5, kItem, 20));
}

TEST_F(HandoffRecordsTest, TheOldestRecordsAreForgotten) {
  records.Add(4, 7, 1, 5, kItem, kItemEnd);
  for (u32 i = 0; i < HandoffRecords::kMax; i++)
    records.Add(5, 7, 2, 1, 0x50000 + 0x100 * i, 0x50000 + 0x100 * i + 8);
  EXPECT_FALSE(Orders(1, 5, kItem, 9));
  EXPECT_TRUE(Orders(2, 1, 0x50000, 9));
}

// Candidates: reads noted at unlock, looked up only near a report.
TEST_F(HandoffEdgesTest, CandidatesInScopeAreFoundNewestFirst) {
  edges.AddCandidate({0x100, kQueue + 8, kNode, 8, 1, 4});
  edges.AddCandidate({0x100, 0x50000, 0, 4, 1, 5});
  std::vector<uptr> seen;
  EXPECT_FALSE(edges.FindCandidate(kQueue, kQueueEnd, [&](const auto &c) {
    seen.push_back(c.location);
    return false;
  }));
  EXPECT_EQ(std::vector<uptr>({kQueue + 8}), seen);
  EXPECT_TRUE(
      edges.FindCandidate(0x50000, 0x50004, [](const auto &) { return true; }));
  EXPECT_TRUE(
      edges.FindCandidate(kNode, kNodeEnd, [](const auto &) { return true; }));
  EXPECT_FALSE(
      edges.FindCandidate(0x60000, 0x60100, [](const auto &) { return true; }));
}

TEST_F(HandoffEdgesTest, ARepeatedReadIsOneCandidateWithTheNewestSection) {
  edges.AddCandidate({0x100, kQueue, 0, 4, 1, 4});
  edges.AddCandidate({0x100, kQueue, 0, 4, 1, 9});
  u32 found = 0, seq = 0;
  edges.FindCandidate(kQueue, kQueueEnd, [&](const auto &c) {
    found++;
    seq = c.seq;
    return false;
  });
  EXPECT_EQ(1u, found);
  EXPECT_EQ(9u, seq);
}

TEST_F(HandoffEdgesTest, TheOldestEdgesAreForgotten) {
  edges.Add(Clock(1, 5), kQueue, kNode);
  for (u32 i = 0; i < HandoffEdges::kMax; i++)
    edges.Add(Clock(3, 1), 0x50000 + 8 * i, 0);
  EXPECT_EQ(0u, edges.Reach(1, 5, kNode, kNodeEnd));
}

} // namespace
} // namespace hrace
