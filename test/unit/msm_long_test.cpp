//===-- msm_long_test.cpp - The msm=long transition table -----------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "../detectors/hrace_msm_long.h"

#include "hybrid_fixture.h"

namespace hrace {
namespace hybrid_test {
namespace {

// One or more tests per row of the transition table in hrace_msm_long.h;
// each row is quoted above its tests. a, b and c are unordered unless a test
// orders them. The exclusive cells keep the owner's locks L as in msm=short,
// but msm=long decides nothing with them: only a report shows them.
class MsmLongTest : public HybridTest<MsmLong, Msm::kLong> {};

// ExclusiveReadWrite (hybrid_fixture.h) is a suspicion made by a write; this
// one was made by a read.
ShadowCell ExclusiveReadWriteByRead(SegmentId ts, LockSetId lo) {
  return MsmLong::Suspicion(ts, lo, /*write=*/false);
}

// New  r / w  -  ER/EW  TS = cur
TEST_F(MsmLongTest, NewReadGoesExclusiveRead) {
  a.Lock(kM);
  a.ReadLock(kN);
  EXPECT_CELL(ExclusiveRead(a.segment, LockSet({kM, kN})), Read(New(), &a));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest, NewWriteGoesExclusiveWrite) {
  a.Lock(kM);
  a.ReadLock(kN);
  EXPECT_CELL(ExclusiveWrite(a.segment, LockSet({kM})), Write(New(), &a));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// EW,ER  r / w  TS hb cur  ER/EW  TS = cur
TEST_F(MsmLongTest, ExclusiveWriteOrderedReadGoesExclusiveRead) {
  SegmentId ts = a.segment;
  Order(&a, &b);
  EXPECT_CELL(ExclusiveRead(b.segment, kEmptyLockSet),
              Read(ExclusiveWrite(ts, kEmptyLockSet), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest, ExclusiveWriteOrderedWriteTakesTheSegment) {
  SegmentId ts = a.segment;
  Order(&a, &b);
  EXPECT_CELL(ExclusiveWrite(b.segment, kEmptyLockSet),
              Write(ExclusiveWrite(ts, kEmptyLockSet), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest, ExclusiveReadOrderedWriteGoesExclusiveWrite) {
  SegmentId ts = a.segment;
  Order(&a, &b);
  EXPECT_CELL(ExclusiveWrite(b.segment, kEmptyLockSet),
              Write(ExclusiveRead(ts, kEmptyLockSet), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest, ExclusiveReadOrderedReadTakesTheSegment) {
  SegmentId ts = a.segment;
  Order(&a, &b);
  EXPECT_CELL(ExclusiveRead(b.segment, kEmptyLockSet),
              Read(ExclusiveRead(ts, kEmptyLockSet), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest, OwnWriteInLaterSegmentTakesTheSegment) {
  SegmentId ts = a.segment;
  a.NewSegment();
  EXPECT_CELL(ExclusiveWrite(a.segment, kEmptyLockSet),
              Write(ExclusiveWrite(ts, kEmptyLockSet), &a));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest, OwnWriteInReadSegmentGoesExclusiveWrite) {
  EXPECT_CELL(ExclusiveWrite(a.segment, kEmptyLockSet),
              Write(ExclusiveRead(a.segment, kEmptyLockSet), &a));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest, OwnAccessInSameSegmentIsNoop) {
  ShadowCell written = ExclusiveWrite(a.segment, kEmptyLockSet);
  EXPECT_CELL(written, Write(written, &a));
  EXPECT_TRUE(noop);
  ShadowCell read = ExclusiveRead(a.segment, kEmptyLockSet);
  EXPECT_CELL(read, Read(read, &a));
  EXPECT_TRUE(noop);
  EXPECT_FALSE(race.found);
}

// As in msm=short (its row "EW  r  TS = cur  no change"), a read by the owner
// in its own segment keeps the write, so a concurrent reader still meets it.
TEST_F(MsmLongTest, OwnReadInWriteSegmentKeepsTheWrite) {
  ShadowCell cell = ExclusiveWrite(a.segment, kEmptyLockSet);
  EXPECT_CELL(cell, Read(cell, &a));
  EXPECT_TRUE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest, ConcurrentReadAfterOwnerReadsItsWriteIsRace) {
  ShadowCell cell = Run(New(), &a, true);
  cell = Run(cell, &a, false);
  EXPECT_CELL(Race(), Run(cell, &b, false));
  EXPECT_TRUE(Reported(RaceCause::kUnordered, a.segment, AccessKind::kWrite,
                       kEmptyLockSet, kEmptyLockSet));
}

// ER  r  not hb  SR  keep TS, C = L
TEST_F(MsmLongTest, ExclusiveReadUnorderedReadGoesSharedRead) {
  b.Lock(kM);
  EXPECT_CELL(SharedRead(a.segment, LockSet({kM}), ThreadSet({&a, &b})),
              Read(ExclusiveRead(a.segment, LockSet({kN})), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest, ExclusiveReadUnorderedUnprotectedReadGoesSharedRead) {
  EXPECT_CELL(SharedRead(a.segment, kEmptyLockSet, ThreadSet({&a, &b})),
              Read(ExclusiveRead(a.segment, kEmptyLockSet), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// EW,ER  w; EW r  not hb, L != {}  SM1  keep TS, C = L
TEST_F(MsmLongTest, ExclusiveWriteUnorderedWriteWithLockGoesSharedModified1) {
  b.Lock(kM);
  EXPECT_CELL(SharedModified(a.segment, LockSet({kM}), ThreadSet({&a, &b})),
              Write(ExclusiveWrite(a.segment, LockSet({kM, kN})), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest, ExclusiveWriteUnorderedReadWithLockGoesSharedModified1) {
  b.ReadLock(kN);
  EXPECT_CELL(SharedModified(a.segment, LockSet({kN}), ThreadSet({&a, &b})),
              Read(ExclusiveWrite(a.segment, kEmptyLockSet), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest, ExclusiveReadUnorderedWriteWithLockGoesSharedModified1) {
  b.Lock(kM);
  EXPECT_CELL(SharedModified(a.segment, LockSet({kM}), ThreadSet({&a, &b})),
              Write(ExclusiveRead(a.segment, kEmptyLockSet), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// msm=long follows the paper (C = L) and misses the race of its 4.2.5.
TEST_F(MsmLongTest, UnprotectedInitThenUnrelatedLockGoesSharedModified1) {
  ShadowCell cell = Run(New(), &a, true);
  b.Lock(kM);
  EXPECT_CELL(SharedModified(a.segment, LockSet({kM}), ThreadSet({&a, &b})),
              Run(cell, &b, true));
  EXPECT_FALSE(race.found);
}

// EW,ER  w; EW r  not hb, L == {}  Race  report
TEST_F(MsmLongTest, ExclusiveWriteUnorderedUnprotectedWriteIsRace) {
  EXPECT_CELL(Race(), Write(ExclusiveWrite(a.segment, LockSet({kM})), &b));
  EXPECT_FALSE(noop);
  EXPECT_TRUE(Reported(RaceCause::kUnordered, a.segment, AccessKind::kWrite,
                       LockSet({kM}), kEmptyLockSet));
}

TEST_F(MsmLongTest, ExclusiveWriteUnorderedUnprotectedReadIsRace) {
  EXPECT_CELL(Race(), Read(ExclusiveWrite(a.segment, kEmptyLockSet), &b));
  EXPECT_FALSE(noop);
  EXPECT_TRUE(Reported(RaceCause::kUnordered, a.segment, AccessKind::kWrite,
                       kEmptyLockSet, kEmptyLockSet));
}

TEST_F(MsmLongTest, ExclusiveReadUnorderedUnprotectedWriteIsRace) {
  EXPECT_CELL(Race(), Write(ExclusiveRead(a.segment, kEmptyLockSet), &b));
  EXPECT_FALSE(noop);
  EXPECT_TRUE(Reported(RaceCause::kUnordered, a.segment, AccessKind::kRead,
                       kEmptyLockSet, kEmptyLockSet));
}

TEST_F(MsmLongTest, WriteUnderReadHeldLockIsRace) {
  b.ReadLock(kM);
  EXPECT_CELL(Race(), Write(ExclusiveWrite(a.segment, LockSet({kM})), &b));
  EXPECT_TRUE(Reported(RaceCause::kUnordered, a.segment, AccessKind::kWrite,
                       LockSet({kM}), kEmptyLockSet));
}

// SR  r  -  SR  C &= L
TEST_F(MsmLongTest, SharedReadReadNarrowsCandidatesAndAddsTheThread) {
  c.Lock(kM);
  ShadowCell cell =
      SharedRead(a.segment, LockSet({kM, kN}), ThreadSet({&a, &b}));
  EXPECT_CELL(SharedRead(a.segment, LockSet({kM}), ThreadSet({&a, &b, &c})),
              Read(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest, SharedReadUnprotectedReadEmptiesCandidatesWithoutRace) {
  ShadowCell cell = SharedRead(a.segment, LockSet({kM}), ThreadSet({&a, &b}));
  EXPECT_CELL(SharedRead(a.segment, kEmptyLockSet, ThreadSet({&a, &b, &c})),
              Read(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// SR  w  C & L != {}  SM1  C &= L, keep TS
TEST_F(MsmLongTest, SharedReadProtectedWriteGoesSharedModified1) {
  c.Lock(kN);
  ShadowCell cell =
      SharedRead(a.segment, LockSet({kM, kN}), ThreadSet({&a, &b}));
  EXPECT_CELL(SharedModified(a.segment, LockSet({kN}), ThreadSet({&a, &b, &c})),
              Write(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// SR  w  C & L == {}  ERW  TS = cur (suspicion)
TEST_F(MsmLongTest, SharedReadUnprotectedWriteGoesExclusiveReadWrite) {
  ShadowCell cell = SharedRead(a.segment, LockSet({kM}), ThreadSet({&a, &b}));
  EXPECT_CELL(ExclusiveReadWrite(c.segment, kEmptyLockSet), Write(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest, SharedReadWriteUnderReadHeldLockGoesExclusiveReadWrite) {
  c.ReadLock(kM);
  ShadowCell cell = SharedRead(a.segment, LockSet({kM}), ThreadSet({&a, &b}));
  EXPECT_CELL(ExclusiveReadWrite(c.segment, kEmptyLockSet), Write(cell, &c));
  EXPECT_FALSE(race.found);
}

// SM1  r / w  C & L != {}  SM1  C &= L, TS = cur
TEST_F(MsmLongTest, SharedModified1ProtectedWriteTakesTheSegment) {
  c.Lock(kM);
  ShadowCell cell =
      SharedModified(a.segment, LockSet({kM, kN}), ThreadSet({&a, &b}));
  EXPECT_CELL(SharedModified(c.segment, LockSet({kM}), ThreadSet({&a, &b, &c})),
              Write(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest, SharedModified1ReadUnderReadHeldLockTakesTheSegment) {
  c.ReadLock(kM);
  ShadowCell cell =
      SharedModified(a.segment, LockSet({kM}), ThreadSet({&a, &b}));
  EXPECT_CELL(SharedModified(c.segment, LockSet({kM}), ThreadSet({&a, &b, &c})),
              Read(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// SM1  r / w  C & L == {}  ERW  TS = cur (suspicion)
TEST_F(MsmLongTest, SharedModified1EmptyLockSetGoesExclusiveReadWrite) {
  c.Lock(kN);
  ShadowCell cell =
      SharedModified(a.segment, LockSet({kM}), ThreadSet({&a, &b}));
  EXPECT_CELL(ExclusiveReadWrite(c.segment, LockSet({kN})), Write(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest, SharedModified1UnprotectedReadGoesExclusiveReadWrite) {
  ShadowCell cell =
      SharedModified(a.segment, LockSet({kM}), ThreadSet({&a, &b}));
  EXPECT_CELL(ExclusiveReadWriteByRead(c.segment, kEmptyLockSet),
              Read(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest,
       SharedModified1WriteUnderReadHeldLockGoesExclusiveReadWrite) {
  c.ReadLock(kM);
  ShadowCell cell =
      SharedModified(a.segment, LockSet({kM}), ThreadSet({&a, &b}));
  EXPECT_CELL(ExclusiveReadWrite(c.segment, kEmptyLockSet), Write(cell, &c));
  EXPECT_FALSE(race.found);
}

// ERW  r  TS hb cur  SR  C = L, keep TS
TEST_F(MsmLongTest, ExclusiveReadWriteOrderedReadGoesSharedRead) {
  SegmentId ts = a.segment;
  Order(&a, &b);
  b.ReadLock(kM);
  EXPECT_CELL(SharedRead(ts, LockSet({kM}), ThreadSet({&a, &b})),
              Read(ExclusiveReadWrite(ts, LockSet({kN})), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest, ExclusiveReadWriteOwnReadGoesSharedRead) {
  EXPECT_CELL(SharedRead(a.segment, kEmptyLockSet, ThreadSet({&a})),
              Read(ExclusiveReadWrite(a.segment, kEmptyLockSet), &a));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest, ExclusiveReadWriteByReadOrderedReadGoesSharedRead) {
  SegmentId ts = a.segment;
  Order(&a, &b);
  EXPECT_CELL(SharedRead(ts, kEmptyLockSet, ThreadSet({&a, &b})),
              Read(ExclusiveReadWriteByRead(ts, LockSet({kN})), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// ERW  r  TS a read  SR  C = L, keep TS
TEST_F(MsmLongTest, ExclusiveReadWriteByReadUnorderedReadGoesSharedRead) {
  b.Lock(kM);
  EXPECT_CELL(SharedRead(a.segment, LockSet({kM}), ThreadSet({&a, &b})),
              Read(ExclusiveReadWriteByRead(a.segment, kEmptyLockSet), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// A location written under a lock, then only read after a barrier: the
// first unprotected read is the suspicion, and however many unprotected
// reads follow, none is reported (two reads never race).
TEST_F(MsmLongTest, UnprotectedReadsAfterSuspicionByReadNeverReport) {
  ShadowCell cell =
      SharedModified(a.segment, LockSet({kM}), ThreadSet({&a, &b}));
  Order(&a, &b);
  Order(&a, &c);
  cell = Run(cell, &b, false);
  ASSERT_EQ(CellState::kExclusiveReadWrite, cell.state());
  for (Thread *t : {&c, &b, &c, &b}) {
    cell = Run(cell, t, false);
    EXPECT_EQ(CellState::kSharedRead, cell.state());
    EXPECT_FALSE(race.found);
  }
}

// ERW  r  not hb, TS a write  SM2  C = L, keep TS
TEST_F(MsmLongTest, ExclusiveReadWriteUnorderedReadGoesSharedModified2) {
  b.Lock(kM);
  EXPECT_CELL(SharedModified2(a.segment, LockSet({kM}), ThreadSet({&a, &b})),
              Read(ExclusiveReadWrite(a.segment, kEmptyLockSet), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest, ExclusiveReadWriteUnorderedUnprotectedReadIsNoRace) {
  EXPECT_CELL(SharedModified2(a.segment, kEmptyLockSet, ThreadSet({&a, &b})),
              Read(ExclusiveReadWrite(a.segment, kEmptyLockSet), &b));
  EXPECT_FALSE(race.found);
}

// ERW  w  TS hb cur  ERW  TS = cur
TEST_F(MsmLongTest, ExclusiveReadWriteOrderedWriteTakesTheSegment) {
  SegmentId ts = a.segment;
  Order(&a, &b);
  EXPECT_CELL(ExclusiveReadWrite(b.segment, kEmptyLockSet),
              Write(ExclusiveReadWrite(ts, kEmptyLockSet), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest, ExclusiveReadWriteOwnWriteStaysExclusiveReadWrite) {
  a.Lock(kM);
  EXPECT_CELL(ExclusiveReadWrite(a.segment, LockSet({kM})),
              Write(ExclusiveReadWrite(a.segment, kEmptyLockSet), &a));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// ERW  w  not hb, L != {}  SM2  C = L, keep TS
TEST_F(MsmLongTest,
       ExclusiveReadWriteUnorderedProtectedWriteGoesSharedModified2) {
  b.Lock(kM);
  EXPECT_CELL(SharedModified2(a.segment, LockSet({kM}), ThreadSet({&a, &b})),
              Write(ExclusiveReadWrite(a.segment, kEmptyLockSet), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// ERW  w  not hb, L == {}  Race  report
TEST_F(MsmLongTest, ExclusiveReadWriteUnorderedUnprotectedWriteIsRace) {
  EXPECT_CELL(Race(), Write(ExclusiveReadWrite(a.segment, LockSet({kN})), &b));
  EXPECT_FALSE(noop);
  EXPECT_TRUE(Reported(RaceCause::kUnordered, a.segment, AccessKind::kWrite,
                       LockSet({kN}), kEmptyLockSet));
}

// The report names the suspicion's access as a read when a read made it,
// and shows its locks without the flag.
TEST_F(MsmLongTest, ExclusiveReadWriteByReadUnorderedUnprotectedWriteIsRace) {
  EXPECT_CELL(Race(),
              Write(ExclusiveReadWriteByRead(a.segment, LockSet({kN})), &b));
  EXPECT_TRUE(Reported(RaceCause::kUnordered, a.segment, AccessKind::kRead,
                       LockSet({kN}), kEmptyLockSet));
}

TEST_F(MsmLongTest, ExclusiveReadWriteWriteUnderReadHeldLockIsRace) {
  b.ReadLock(kM);
  EXPECT_CELL(Race(), Write(ExclusiveReadWrite(a.segment, kEmptyLockSet), &b));
  EXPECT_TRUE(Reported(RaceCause::kUnordered, a.segment, AccessKind::kWrite,
                       kEmptyLockSet, kEmptyLockSet));
}

// Readers a and b share the location; c's unprotected write is only a
// suspicion, b's unprotected write after it is the race.
TEST_F(MsmLongTest, SecondUnorderedUnprotectedWriteAfterSuspicionIsRace) {
  ShadowCell cell = Run(New(), &a, false);
  cell = Run(cell, &b, false);
  ASSERT_EQ(CellState::kSharedRead, cell.state());
  cell = Run(cell, &c, true);
  EXPECT_CELL(ExclusiveReadWrite(c.segment, kEmptyLockSet), cell);
  EXPECT_FALSE(race.found);
  EXPECT_CELL(Race(), Run(cell, &b, true));
  EXPECT_TRUE(Reported(RaceCause::kUnordered, c.segment, AccessKind::kWrite,
                       kEmptyLockSet, kEmptyLockSet));
}

// SM2  r / w  C & L != {}  SM2  C &= L, TS = cur
TEST_F(MsmLongTest, SharedModified2ProtectedWriteTakesTheSegment) {
  c.Lock(kM);
  ShadowCell cell =
      SharedModified2(a.segment, LockSet({kM, kN}), ThreadSet({&a, &b}));
  EXPECT_CELL(
      SharedModified2(c.segment, LockSet({kM}), ThreadSet({&a, &b, &c})),
      Write(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest, SharedModified2ReadUnderReadHeldLockTakesTheSegment) {
  c.ReadLock(kM);
  ShadowCell cell =
      SharedModified2(a.segment, LockSet({kM}), ThreadSet({&a, &b}));
  EXPECT_CELL(
      SharedModified2(c.segment, LockSet({kM}), ThreadSet({&a, &b, &c})),
      Read(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// SM2  r / w  C & L == {}, TS hb cur  ERW  TS = cur
TEST_F(MsmLongTest, SharedModified2EmptyLockSetOrderedGoesExclusiveReadWrite) {
  SegmentId ts = a.segment;
  ShadowCell cell = SharedModified2(ts, LockSet({kM}), ThreadSet({&a, &b}));
  Order(&a, &c);
  c.Lock(kN);
  EXPECT_CELL(ExclusiveReadWrite(c.segment, LockSet({kN})), Write(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// SM2  r / w  C & L == {}, not hb  Race  report
TEST_F(MsmLongTest, SharedModified2EmptyLockSetUnorderedWriteIsRace) {
  ShadowCell cell =
      SharedModified2(a.segment, LockSet({kM}), ThreadSet({&a, &b}));
  EXPECT_CELL(Race(), Write(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_TRUE(Reported(RaceCause::kLockSetEmpty, a.segment, AccessKind::kAny,
                       LockSet({kM}), kEmptyLockSet));
}

TEST_F(MsmLongTest, SharedModified2EmptyLockSetUnorderedReadIsRace) {
  c.Lock(kN);
  ShadowCell cell =
      SharedModified2(a.segment, LockSet({kM}), ThreadSet({&a, &b}));
  EXPECT_CELL(Race(), Read(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_TRUE(Reported(RaceCause::kLockSetEmpty, a.segment, AccessKind::kAny,
                       LockSet({kM}), LockSet({kN})));
}

TEST_F(MsmLongTest, SharedModified2WriteUnderReadHeldLockIsRace) {
  c.ReadLock(kM);
  ShadowCell cell =
      SharedModified2(a.segment, LockSet({kM}), ThreadSet({&a, &b}));
  EXPECT_CELL(Race(), Write(cell, &c));
  EXPECT_TRUE(Reported(RaceCause::kLockSetEmpty, a.segment, AccessKind::kAny,
                       LockSet({kM}), kEmptyLockSet));
}

// shared  r / w  join rule  ER/EW  TS = cur
TEST_F(MsmLongTest, JoinRuleMakesSharedExclusive) {
  ShadowCell cell =
      SharedModified(b.segment, LockSet({kM}), ThreadSet({&a, &b}));
  Join(&a, &b);
  a.Lock(kM);
  EXPECT_CELL(ExclusiveWrite(a.segment, LockSet({kM})), Write(cell, &a));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest, JoinRuleMakesSharedReadExclusive) {
  ShadowCell cell = SharedRead(b.segment, kEmptyLockSet, ThreadSet({&a, &b}));
  Join(&a, &b);
  EXPECT_CELL(ExclusiveWrite(a.segment, kEmptyLockSet), Write(cell, &a));
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest, JoinRuleMakesSharedModified2Exclusive) {
  ShadowCell cell =
      SharedModified2(b.segment, kEmptyLockSet, ThreadSet({&a, &b}));
  Join(&a, &b);
  EXPECT_CELL(ExclusiveRead(a.segment, kEmptyLockSet), Read(cell, &a));
  EXPECT_FALSE(race.found);
}

TEST_F(MsmLongTest, JoinRuleNeedsTheEndToHappenBefore) {
  ShadowCell cell =
      SharedModified(b.segment, LockSet({kM}), ThreadSet({&a, &b}));
  b.End();
  a.Lock(kM);
  EXPECT_CELL(SharedModified(a.segment, LockSet({kM}), ThreadSet({&a, &b})),
              Write(cell, &a));
  EXPECT_FALSE(race.found);
}

// A set that never held another thread (an owner's read of ERW) is not left
// by anyone: the write is a suspicion, not the owner's exclusive write.
TEST_F(MsmLongTest, JoinRuleNeedsAnotherThread) {
  ShadowCell cell = SharedRead(a.segment, kEmptyLockSet, ThreadSet({&a}));
  EXPECT_CELL(ExclusiveReadWrite(a.segment, kEmptyLockSet), Write(cell, &a));
  EXPECT_FALSE(race.found);
}

// Race  any  -  Race  nothing is checked
TEST_F(MsmLongTest, RaceIsTerminal) {
  for (Thread *t : {&a, &b, &c}) {
    for (bool write : {false, true}) {
      EXPECT_CELL(Race(), Access(Race(), t, write));
      EXPECT_TRUE(noop);
      EXPECT_FALSE(race.found);
    }
  }
}

TEST_F(MsmLongTest, RaceStaysRaceAfterJoins) {
  Join(&c, &a);
  Join(&c, &b);
  EXPECT_CELL(Race(), Write(Race(), &c));
  EXPECT_FALSE(race.found);
}

// Restamp (the access path's re-stamp by the owner) agrees with the table
// for both exclusive states of a segment of the thread, earlier or current,
// that the access changes.
TEST_F(MsmLongTest, RestampByOwnerIsTheTransition) {
  ExpectRestampsAreTransitions([](SegmentId earlier, bool locked) {
    LockSetId lo = locked ? LockSet({kM}) : kEmptyLockSet;
    return std::vector<ShadowCell>{ExclusiveWrite(earlier, lo),
                                   ExclusiveRead(earlier, lo)};
  });
}

// The inline tests pass only cells the access leaves as they are, with
// and without a lock held (runtime/hrace_inline_test.h).
TEST_F(MsmLongTest, InlineTestsPassOnlyWhatTheAccessLeavesUnchanged) {
  std::vector<ShadowCell> cells = CellsOfEveryState();
  ExpectInlineTestsPassOnlyNoops(cells);
  a.Lock(kM);
  ExpectInlineTestsPassOnlyNoops(cells);
}

} // namespace
} // namespace hybrid_test
} // namespace hrace
