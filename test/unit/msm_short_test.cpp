//===-- msm_short_test.cpp - The msm=short transition table ---------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "../detectors/hrace_msm_short.h"

// This file holds the one definition of the fixture's hrace_rtl.cpp doubles.
#define HRACE_HYBRID_FIXTURE_DEFINE_RTL
#include "hybrid_fixture.h"
#include "shadow_once.h"

namespace hrace {
namespace hybrid_test {
namespace {

// One or more tests per row of the transition table in hrace_msm_short.h;
// each row is quoted above its tests. a, b and c are unordered unless a test
// orders them.
class MsmShortTest : public HybridTest<MsmShort, Msm::kShort> {};

TEST_F(MsmShortTest, SharedCellHoldsLargestCandidateAndThreadSetIds) {
  ShadowCell cell =
      SharedModified(kMaxSegmentId, kMaxLockSets - 1, kThreadSetOverflow);
  EXPECT_EQ(kMaxSegmentId, cell.segment());
  EXPECT_EQ(kMaxLockSets - 1, hybrid::Candidates(cell));
  EXPECT_EQ(kThreadSetOverflow, hybrid::Threads(cell));
}

// New  r / w  -  ER/EW  TS = cur, Lo = L
TEST_F(MsmShortTest, NewReadGoesExclusiveRead) {
  a.Lock(kM);
  a.ReadLock(kN);
  EXPECT_CELL(ExclusiveRead(a.segment, LockSet({kM, kN})), Read(New(), &a));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, NewWriteGoesExclusiveWrite) {
  a.Lock(kM);
  a.ReadLock(kN);
  EXPECT_CELL(ExclusiveWrite(a.segment, LockSet({kM})), Write(New(), &a));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// EW  r  TS = cur  (no change: keeps the write)
TEST_F(MsmShortTest, OwnReadInWriteSegmentKeepsTheWrite) {
  a.Lock(kM);
  ShadowCell cell = ExclusiveWrite(a.segment, LockSet({kM}));
  EXPECT_CELL(cell, Read(cell, &a));
  EXPECT_TRUE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, ConcurrentReadAfterOwnerReadsItsWriteIsRace) {
  ShadowCell cell = Run(New(), &a, true);
  cell = Run(cell, &a, false);
  EXPECT_CELL(Race(), Run(cell, &b, false));
  EXPECT_TRUE(Reported(RaceCause::kUnordered, a.segment, AccessKind::kWrite,
                       kEmptyLockSet, kEmptyLockSet));
}

// EW  r  TS hb cur  ERaW  R = cur, W = TS
TEST_F(MsmShortTest, ExclusiveWriteOrderedReadKeepsTheWrite) {
  SegmentId ts = a.segment;
  Order(&a, &b);
  b.ReadLock(kN);
  EXPECT_CELL(ReadAfterWrite(b.segment, ts, true, true),
              Read(ExclusiveWrite(ts, LockSet({kM})), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// The core of double-checked locking: the writer reads its own write after
// leaving the critical section, and the write is still there for others.
TEST_F(MsmShortTest, OwnReadAfterUnlockKeepsTheWrite) {
  a.Lock(kM);
  SegmentId ts = a.segment;
  ShadowCell cell = Run(New(), &a, true);
  a.Unlock(kM);
  EXPECT_CELL(ReadAfterWrite(a.segment, ts, false, true), Run(cell, &a, false));
}

// That re-stamp keeps a write made under a lock: another thread's read
// under the lock meanwhile is all that orders its joiners after the write,
// so the re-stamp is not stored plainly over it (StoredPlainly). An
// unlocked write's, or the owner's own write again, may be.
TEST_F(MsmShortTest, OwnersRestampKeepingALockedWriteIsNotStoredPlainly) {
  a.Lock(kM);
  SegmentId ts = a.segment;
  ShadowCell locked_write = Run(New(), &a, true);
  a.Unlock(kM);
  EXPECT_FALSE(MsmShort::RestampStoredPlainly(Run(locked_write, &a, false)));
  EXPECT_TRUE(MsmShort::RestampStoredPlainly(Run(locked_write, &a, true)));
  EXPECT_TRUE(MsmShort::RestampStoredPlainly(
      ReadAfterWrite(a.segment, ts, true, false)));
  EXPECT_TRUE(MsmShort::RestampStoredPlainly(Run(New(), &a, false)));
}

// Any change of a cell that keeps no access made under a lock is stored
// plainly (StoredPlainly): an access it forgets could only have been
// ordered after the kept ones by happens-before or a hand-off, never
// excused by a lock. A lock set in the cell (an exclusive state's Lo, a
// shared state's C, either flag of Exclusive-Read-after-Write) keeps the
// compare-and-swap, and so does a change into an atomic state.
TEST_F(MsmShortTest, OnlyACellKeepingNoLockedAccessIsChangedPlainly) {
  SegmentId ts = a.segment;
  SetId threads = ThreadSet({&a, &b});
  LockSetId m = LockSet({kM});
  ShadowCell read = ExclusiveRead(b.segment, kEmptyLockSet);
  auto plainly = [&](ShadowCell old) {
    return MsmShort::ChangeStoredPlainly(old, read);
  };
  EXPECT_TRUE(plainly(New()));
  EXPECT_TRUE(plainly(ExclusiveWrite(ts, kEmptyLockSet)));
  EXPECT_TRUE(plainly(ExclusiveRead(ts, kEmptyLockSet)));
  EXPECT_TRUE(plainly(ReadAfterWrite(b.segment, ts, false, false)));
  EXPECT_TRUE(plainly(SharedRead(ts, kEmptyLockSet, threads)));
  EXPECT_TRUE(plainly(SharedModified(ts, kEmptyLockSet, threads)));
  EXPECT_FALSE(plainly(ExclusiveWrite(ts, m)));
  EXPECT_FALSE(plainly(ExclusiveRead(ts, m)));
  EXPECT_FALSE(plainly(ReadAfterWrite(b.segment, ts, true, false)));
  EXPECT_FALSE(plainly(ReadAfterWrite(b.segment, ts, false, true)));
  EXPECT_FALSE(plainly(SharedRead(ts, m, threads)));
  EXPECT_FALSE(plainly(SharedModified(ts, m, threads)));
  EXPECT_FALSE(plainly(ShadowCell::Make(CellState::kRace, 0, 0)));
  EXPECT_FALSE(MsmShort::ChangeStoredPlainly(
      ExclusiveWrite(ts, kEmptyLockSet),
      ShadowCell::Make(CellState::kAtomicAfterPlainWrite, ts, b.segment)));
}

// EW,ER  w; ER r  TS hb cur  ER/EW  TS = cur, Lo = L
TEST_F(MsmShortTest, ExclusiveWriteOrderedWriteTakesTheSegment) {
  SegmentId ts = a.segment;
  Order(&a, &b);
  b.Lock(kN);
  EXPECT_CELL(ExclusiveWrite(b.segment, LockSet({kN})),
              Write(ExclusiveWrite(ts, LockSet({kM})), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, ExclusiveReadOrderedWriteGoesExclusiveWrite) {
  SegmentId ts = a.segment;
  Order(&a, &b);
  EXPECT_CELL(ExclusiveWrite(b.segment, kEmptyLockSet),
              Write(ExclusiveRead(ts, LockSet({kM})), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, ExclusiveReadOrderedReadTakesTheSegment) {
  SegmentId ts = a.segment;
  Order(&a, &b);
  b.Lock(kM);
  EXPECT_CELL(ExclusiveRead(b.segment, LockSet({kM})),
              Read(ExclusiveRead(ts, kEmptyLockSet), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, TransitivelyOrderedWriteGoesExclusiveWrite) {
  SegmentId ts = a.segment;
  Order(&a, &b);
  Order(&b, &c);
  EXPECT_CELL(ExclusiveWrite(c.segment, kEmptyLockSet),
              Write(ExclusiveWrite(ts, kEmptyLockSet), &c));
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, OwnWriteInLaterSegmentTakesTheSegment) {
  SegmentId ts = a.segment;
  a.NewSegment();
  EXPECT_CELL(ExclusiveWrite(a.segment, kEmptyLockSet),
              Write(ExclusiveWrite(ts, LockSet({kM})), &a));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, OwnWriteInReadSegmentGoesExclusiveWrite) {
  a.Lock(kM);
  EXPECT_CELL(ExclusiveWrite(a.segment, LockSet({kM})),
              Write(ExclusiveRead(a.segment, LockSet({kM})), &a));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, OwnAccessInSameSegmentUnderSameLocksIsNoop) {
  a.Lock(kM);
  ShadowCell written = ExclusiveWrite(a.segment, LockSet({kM}));
  EXPECT_CELL(written, Write(written, &a));
  EXPECT_TRUE(noop);
  ShadowCell read = ExclusiveRead(a.segment, LockSet({kM}));
  EXPECT_CELL(read, Read(read, &a));
  EXPECT_TRUE(noop);
  EXPECT_FALSE(race.found);
}

// An unlock ends the owner's segment, so its next access is not a no-op and
// stores the locks it holds now (none), not those of the locked access.
TEST_F(MsmShortTest, OwnWriteAfterUnlockTakesItsLocks) {
  a.Lock(kM);
  ShadowCell cell = Run(New(), &a, true);
  a.Unlock(kM);
  EXPECT_CELL(ExclusiveWrite(a.segment, kEmptyLockSet), Run(cell, &a, true));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, OwnReadAfterUnlockTakesItsLocks) {
  a.Lock(kM);
  ShadowCell cell = Run(New(), &a, false);
  a.Unlock(kM);
  EXPECT_CELL(ExclusiveRead(a.segment, kEmptyLockSet), Run(cell, &a, false));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, UnprotectedWriteAfterUnlockThenLockedWriteIsRace) {
  a.Lock(kM);
  ShadowCell cell = Run(New(), &a, true);
  a.Unlock(kM);
  cell = Run(cell, &a, true);
  b.Lock(kM);
  EXPECT_CELL(Race(), Run(cell, &b, true));
  EXPECT_TRUE(Reported(RaceCause::kUnordered, a.segment, AccessKind::kWrite,
                       kEmptyLockSet, LockSet({kM})));
}

TEST_F(MsmShortTest, UnprotectedReadAfterUnlockThenLockedWriteIsRace) {
  a.Lock(kM);
  ShadowCell cell = Run(New(), &a, false);
  a.Unlock(kM);
  cell = Run(cell, &a, false);
  b.Lock(kM);
  EXPECT_CELL(Race(), Run(cell, &b, true));
  EXPECT_TRUE(Reported(RaceCause::kUnordered, a.segment, AccessKind::kRead,
                       kEmptyLockSet, LockSet({kM})));
}

// ERaW  r  R = cur  (no change)
TEST_F(MsmShortTest, ReadAfterWriteReadInTheReadSegmentIsNoop) {
  ShadowCell cell = ReadAfterWrite(a.segment, c.segment, false, false);
  EXPECT_CELL(cell, Read(cell, &a));
  EXPECT_TRUE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, ReadAfterWriteWriteInTheReadSegmentIsNotNoop) {
  a.Lock(kM);
  ShadowCell cell = ReadAfterWrite(a.segment, c.segment, true, false);
  EXPECT_CELL(ExclusiveWrite(a.segment, LockSet({kM})), Write(cell, &a));
  EXPECT_FALSE(noop);
}

// ERaW  r  R hb cur  ERaW  R = cur, keep W
TEST_F(MsmShortTest, ReadAfterWriteOrderedReadTakesTheReadKeepsTheWrite) {
  SegmentId w = a.segment;
  Order(&a, &b);
  SegmentId r = b.segment;
  Order(&b, &c);
  EXPECT_CELL(ReadAfterWrite(c.segment, w, false, true),
              Read(ReadAfterWrite(r, w, true, true), &c));
  EXPECT_FALSE(race.found);
}

// ERaW  w  R hb cur  EW  TS = cur, Lo = L
TEST_F(MsmShortTest, ReadAfterWriteOrderedWriteGoesExclusiveWrite) {
  SegmentId w = a.segment;
  Order(&a, &b);
  SegmentId r = b.segment;
  Order(&b, &c);
  c.Lock(kN);
  EXPECT_CELL(ExclusiveWrite(c.segment, LockSet({kN})),
              Write(ReadAfterWrite(r, w, false, false), &c));
  EXPECT_FALSE(race.found);
}

// ERaW  r  not R hb, W hb cur  SR  TS = R, C = Lr ? L : {}, S = {t, owner R}
TEST_F(MsmShortTest, ReadAfterWriteConcurrentReadsAfterTheWriteShare) {
  SegmentId w = a.segment;
  Order(&a, &b);
  Order(&a, &c);
  ShadowCell cell = Run(ExclusiveWrite(w, kEmptyLockSet), &b, false);
  c.Lock(kM);
  EXPECT_CELL(SharedRead(b.segment, kEmptyLockSet, ThreadSet({&b, &c})),
              Read(cell, &c));
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, ReadAfterWriteLockedReadersShareTheirLocks) {
  SegmentId w = a.segment;
  Order(&a, &b);
  Order(&a, &c);
  c.Lock(kM);
  EXPECT_CELL(SharedRead(b.segment, LockSet({kM}), ThreadSet({&b, &c})),
              Read(ReadAfterWrite(b.segment, w, true, false), &c));
  EXPECT_FALSE(race.found);
}

// ERaW  r  not W hb, Lw, L != {}  SM  TS = cur, C = L, S = {t, owners}
TEST_F(MsmShortTest, ReadAfterWriteLockedReadConcurrentWithLockedWriteShares) {
  SegmentId w = a.segment;
  Order(&a, &b);
  c.Lock(kM);
  EXPECT_CELL(SharedModified(c.segment, LockSet({kM}), ThreadSet({&a, &b, &c})),
              Read(ReadAfterWrite(b.segment, w, false, true), &c));
  EXPECT_FALSE(race.found);
}

// ERaW  r  not W hb otherwise  Race  report W
// A third thread reads while the write is handed to an ordered reader: the
// cell has not forgotten the write.
TEST_F(MsmShortTest, ReadConcurrentWithAWriteAnOrderedThreadReadIsRace) {
  SegmentId w = a.segment;
  ShadowCell cell = Run(New(), &a, true);
  Order(&a, &b);
  cell = Run(cell, &b, false);
  EXPECT_CELL(Race(), Run(cell, &c, false));
  EXPECT_TRUE(Reported(RaceCause::kUnordered, w, AccessKind::kWrite,
                       kEmptyLockSet, kEmptyLockSet));
}

// Double-checked locking: the write under the lock, the unlocked read.
TEST_F(MsmShortTest, UnprotectedReadOfALockedWriteReadAgainIsRace) {
  a.Lock(kM);
  SegmentId w = a.segment;
  ShadowCell cell = Run(New(), &a, true);
  a.Unlock(kM);
  cell = Run(cell, &a, false);
  EXPECT_CELL(Race(), Run(cell, &b, false));
  EXPECT_TRUE(Reported(RaceCause::kUnordered, w, AccessKind::kWrite,
                       kEmptyLockSet, kEmptyLockSet));
}

// ERaW  w  not R hb, Lr, L != {}, W hb cur or Lw  SM  TS = cur, C = L
TEST_F(MsmShortTest, ReadAfterWriteLockedWriteConcurrentWithLockedReadShares) {
  SegmentId w = a.segment;
  Order(&a, &b);
  Order(&a, &c);
  c.Lock(kM);
  EXPECT_CELL(SharedModified(c.segment, LockSet({kM}), ThreadSet({&a, &b, &c})),
              Write(ReadAfterWrite(b.segment, w, true, false), &c));
  EXPECT_FALSE(race.found);
}

// ERaW  w  not R hb otherwise  Race  report R (or W if only W is unprotected)
TEST_F(MsmShortTest, ReadAfterWriteWriteConcurrentWithTheReadIsRace) {
  SegmentId w = a.segment;
  Order(&a, &b);
  Order(&a, &c);
  EXPECT_CELL(Race(), Write(ReadAfterWrite(b.segment, w, false, false), &c));
  EXPECT_TRUE(Reported(RaceCause::kUnordered, b.segment, AccessKind::kRead,
                       kEmptyLockSet, kEmptyLockSet));
}

TEST_F(MsmShortTest, ReadAfterWriteLockedWriteConcurrentWithBareWriteIsRace) {
  SegmentId w = a.segment;
  Order(&a, &b);
  c.Lock(kM);
  EXPECT_CELL(Race(), Write(ReadAfterWrite(b.segment, w, true, false), &c));
  EXPECT_TRUE(Reported(RaceCause::kUnordered, w, AccessKind::kWrite,
                       kEmptyLockSet, LockSet({kM})));
}

// ER  r  not hb  SR  keep TS, C = Lo & L, S = {t, owner}
TEST_F(MsmShortTest, ExclusiveReadUnorderedReadGoesSharedRead) {
  b.Lock(kM);
  EXPECT_CELL(SharedRead(a.segment, LockSet({kM}), ThreadSet({&a, &b})),
              Read(ExclusiveRead(a.segment, LockSet({kM, kN})), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, ExclusiveReadUnorderedUnprotectedReadGoesSharedRead) {
  EXPECT_CELL(SharedRead(a.segment, kEmptyLockSet, ThreadSet({&a, &b})),
              Read(ExclusiveRead(a.segment, LockSet({kM})), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// EW,ER  w; EW r  not hb, Lo & L != {}  SM
//                                      TS = cur, C = Lo & L, S = {t, owner}
TEST_F(MsmShortTest,
       ExclusiveWriteUnorderedWriteWithCommonLockGoesSharedModified) {
  b.Lock(kM);
  EXPECT_CELL(SharedModified(b.segment, LockSet({kM}), ThreadSet({&a, &b})),
              Write(ExclusiveWrite(a.segment, LockSet({kM, kN})), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest,
       ExclusiveWriteUnorderedReadWithCommonLockGoesSharedModified) {
  b.ReadLock(kM);
  EXPECT_CELL(SharedModified(b.segment, LockSet({kM}), ThreadSet({&a, &b})),
              Read(ExclusiveWrite(a.segment, LockSet({kM})), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest,
       ExclusiveReadUnorderedWriteWithCommonLockGoesSharedModified) {
  b.Lock(kM);
  b.Lock(kN);
  EXPECT_CELL(SharedModified(b.segment, LockSet({kM}), ThreadSet({&a, &b})),
              Write(ExclusiveRead(a.segment, LockSet({kM})), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// EW,ER  w; EW r  not hb, Lo & L == {}  Race  report
TEST_F(MsmShortTest, ExclusiveWriteUnorderedUnprotectedWriteIsRace) {
  EXPECT_CELL(Race(), Write(ExclusiveWrite(a.segment, kEmptyLockSet), &b));
  EXPECT_FALSE(noop);
  EXPECT_TRUE(Reported(RaceCause::kUnordered, a.segment, AccessKind::kWrite,
                       kEmptyLockSet, kEmptyLockSet));
}

TEST_F(MsmShortTest, ExclusiveWriteUnorderedReadUnderOtherLockIsRace) {
  b.Lock(kN);
  EXPECT_CELL(Race(), Read(ExclusiveWrite(a.segment, LockSet({kM})), &b));
  EXPECT_FALSE(noop);
  EXPECT_TRUE(Reported(RaceCause::kUnordered, a.segment, AccessKind::kWrite,
                       LockSet({kM}), LockSet({kN})));
}

TEST_F(MsmShortTest, ExclusiveReadUnorderedWriteWithoutCommonLockIsRace) {
  b.Lock(kN);
  EXPECT_CELL(Race(), Write(ExclusiveRead(a.segment, LockSet({kM})), &b));
  EXPECT_FALSE(noop);
  EXPECT_TRUE(Reported(RaceCause::kUnordered, a.segment, AccessKind::kRead,
                       LockSet({kM}), LockSet({kN})));
}

TEST_F(MsmShortTest, WriteOrderedBeforeTheOwnersWriteIsRace) {
  SegmentId ts = a.segment;
  Order(&b, &a);
  EXPECT_CELL(Race(), Write(ExclusiveWrite(ts, kEmptyLockSet), &b));
  EXPECT_TRUE(Reported(RaceCause::kUnordered, ts, AccessKind::kWrite,
                       kEmptyLockSet, kEmptyLockSet));
}

// The race the paper's MSM-short misses (seeds/000, 4.2.5): Lo = {} of the
// unprotected first write leaves no candidate for the locked second one.
TEST_F(MsmShortTest, UnprotectedInitThenUnrelatedLockIsRace) {
  ShadowCell cell = Run(New(), &a, true);
  b.Lock(kM);
  EXPECT_CELL(Race(), Run(cell, &b, true));
  EXPECT_TRUE(Reported(RaceCause::kUnordered, a.segment, AccessKind::kWrite,
                       kEmptyLockSet, LockSet({kM})));
}

TEST_F(MsmShortTest, WriteUnderReadHeldLockIsRace) {
  b.ReadLock(kM);
  EXPECT_CELL(Race(), Write(ExclusiveWrite(a.segment, LockSet({kM})), &b));
  EXPECT_TRUE(Reported(RaceCause::kUnordered, a.segment, AccessKind::kWrite,
                       LockSet({kM}), kEmptyLockSet));
}

// SR  r  -  SR  C &= L, S += t
TEST_F(MsmShortTest, SharedReadReadNarrowsCandidatesAndAddsTheThread) {
  c.Lock(kM);
  ShadowCell cell =
      SharedRead(a.segment, LockSet({kM, kN}), ThreadSet({&a, &b}));
  EXPECT_CELL(SharedRead(a.segment, LockSet({kM}), ThreadSet({&a, &b, &c})),
              Read(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, SharedReadUnprotectedReadEmptiesCandidatesWithoutRace) {
  ShadowCell cell = SharedRead(a.segment, LockSet({kM}), ThreadSet({&a, &b}));
  EXPECT_CELL(SharedRead(a.segment, kEmptyLockSet, ThreadSet({&a, &b, &c})),
              Read(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, SharedReadReadByAMemberKeepsTheThreadSet) {
  b.Lock(kM);
  ShadowCell cell = SharedRead(a.segment, LockSet({kM}), ThreadSet({&a, &b}));
  EXPECT_CELL(cell, Read(cell, &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// SR  w  TS hb cur or C & L != {}  SM  C &= L, S += t
TEST_F(MsmShortTest, SharedReadWriteWithCommonLockGoesSharedModified) {
  c.Lock(kN);
  ShadowCell cell =
      SharedRead(a.segment, LockSet({kM, kN}), ThreadSet({&a, &b}));
  EXPECT_CELL(SharedModified(a.segment, LockSet({kN}), ThreadSet({&a, &b, &c})),
              Write(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, SharedReadOrderedUnprotectedWriteGoesSharedModified) {
  SegmentId ts = a.segment;
  ShadowCell cell = SharedRead(ts, LockSet({kM}), ThreadSet({&a, &b}));
  Order(&a, &c);
  EXPECT_CELL(SharedModified(ts, kEmptyLockSet, ThreadSet({&a, &b, &c})),
              Write(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// SR  w  not hb, C & L == {}  Race  report
TEST_F(MsmShortTest, SharedReadUnorderedUnprotectedWriteIsRace) {
  ShadowCell cell = SharedRead(a.segment, LockSet({kM}), ThreadSet({&a, &b}));
  EXPECT_CELL(Race(), Write(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_TRUE(Reported(RaceCause::kLockSetEmpty, a.segment, AccessKind::kAny,
                       LockSet({kM}), kEmptyLockSet));
}

// SR  w  TS is t's, after t's last acquire, S has t'  Race  a read of t'
TEST_F(MsmShortTest, SharedReadWriteByTheFirstReaderIsRaceWithTheOthers) {
  // a read first, b after it (the cell held a's read): however TS orders
  // a's write, b's read cannot happen before it.
  ShadowCell cell = SharedRead(a.segment, LockSet({kM}), ThreadSet({&a, &b}));
  EXPECT_CELL(Race(), Write(cell, &a));
  EXPECT_TRUE(Reported(RaceCause::kReadersUnordered, 0, AccessKind::kRead,
                       LockSet({kM}), kEmptyLockSet));
  EXPECT_EQ(b.thread_id, race.prev_thread);
}

TEST_F(MsmShortTest, SharedReadFirstReaderAcquiredBeforeItsReadWriteIsRace) {
  Order(&b, &a);
  a.NewSegment();
  ShadowCell cell = SharedRead(a.segment, LockSet({kM}), ThreadSet({&a, &b}));
  EXPECT_CELL(Race(), Write(cell, &a));
  EXPECT_TRUE(Reported(RaceCause::kReadersUnordered, 0, AccessKind::kRead,
                       LockSet({kM}), kEmptyLockSet));
}

TEST_F(MsmShortTest, SharedReadFirstReaderThatAcquiredSinceGoesSharedModified) {
  SegmentId ts = a.segment;
  ShadowCell cell = SharedRead(ts, LockSet({kM}), ThreadSet({&a, &b}));
  // In the segment of its read: the acquire may have come after it, and b
  // may have released after its own read.
  Order(&b, &a);
  EXPECT_CELL(SharedModified(ts, kEmptyLockSet, ThreadSet({&a, &b})),
              Write(cell, &a));
  EXPECT_FALSE(race.found);
  a.NewSegment();
  EXPECT_CELL(SharedModified(ts, kEmptyLockSet, ThreadSet({&a, &b})),
              Write(cell, &a));
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, SharedReadWriteByItsOnlyReaderGoesSharedModified) {
  SegmentId ts = a.segment;
  ShadowCell cell = SharedRead(ts, LockSet({kM}), ThreadSet({&a}));
  EXPECT_CELL(SharedModified(ts, kEmptyLockSet, ThreadSet({&a})),
              Write(cell, &a));
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, SharedReadWriteUnderReadHeldLockIsRace) {
  c.ReadLock(kM);
  ShadowCell cell = SharedRead(a.segment, LockSet({kM}), ThreadSet({&a, &b}));
  EXPECT_CELL(Race(), Write(cell, &c));
  EXPECT_TRUE(Reported(RaceCause::kLockSetEmpty, a.segment, AccessKind::kAny,
                       LockSet({kM}), kEmptyLockSet));
}

// SM  r / w  C & L != {}  SM  C &= L, S += t
TEST_F(MsmShortTest, SharedModifiedProtectedWriteNarrowsCandidates) {
  c.Lock(kM);
  ShadowCell cell =
      SharedModified(b.segment, LockSet({kM, kN}), ThreadSet({&a, &b}));
  EXPECT_CELL(SharedModified(b.segment, LockSet({kM}), ThreadSet({&a, &b, &c})),
              Write(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, SharedModifiedReadUnderReadHeldLockIsProtected) {
  c.ReadLock(kM);
  ShadowCell cell =
      SharedModified(b.segment, LockSet({kM}), ThreadSet({&a, &b}));
  EXPECT_CELL(SharedModified(b.segment, LockSet({kM}), ThreadSet({&a, &b, &c})),
              Read(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// SM  r / w  C & L == {}, TS hb cur  ER/EW  TS = cur, Lo = L
TEST_F(MsmShortTest, SharedModifiedEmptyLockSetOrderedGoesExclusive) {
  ShadowCell cell =
      SharedModified(b.segment, LockSet({kM}), ThreadSet({&a, &b}));
  Order(&b, &c);
  c.Lock(kN);
  EXPECT_CELL(ExclusiveWrite(c.segment, LockSet({kN})), Write(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, SharedModifiedEmptyLockSetOrderedReadGoesExclusiveRead) {
  ShadowCell cell =
      SharedModified(b.segment, LockSet({kM}), ThreadSet({&a, &b}));
  Order(&b, &c);
  c.Lock(kN);
  EXPECT_CELL(ExclusiveRead(c.segment, LockSet({kN})), Read(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// SM  r / w  C & L == {}, not hb  Race  report
TEST_F(MsmShortTest, SharedModifiedEmptyLockSetUnorderedWriteIsRace) {
  c.Lock(kN);
  ShadowCell cell =
      SharedModified(b.segment, LockSet({kM}), ThreadSet({&a, &b}));
  EXPECT_CELL(Race(), Write(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_TRUE(Reported(RaceCause::kLockSetEmpty, b.segment, AccessKind::kAny,
                       LockSet({kM}), LockSet({kN})));
}

TEST_F(MsmShortTest, SharedModifiedEmptyLockSetUnorderedReadIsRace) {
  ShadowCell cell =
      SharedModified(b.segment, LockSet({kM}), ThreadSet({&a, &b}));
  EXPECT_CELL(Race(), Read(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_TRUE(Reported(RaceCause::kLockSetEmpty, b.segment, AccessKind::kAny,
                       LockSet({kM}), kEmptyLockSet));
}

TEST_F(MsmShortTest, SharedModifiedWriteUnderReadHeldLockIsRace) {
  c.ReadLock(kM);
  ShadowCell cell =
      SharedModified(b.segment, LockSet({kM}), ThreadSet({&a, &b}));
  EXPECT_CELL(Race(), Write(cell, &c));
  EXPECT_TRUE(Reported(RaceCause::kLockSetEmpty, b.segment, AccessKind::kAny,
                       LockSet({kM}), kEmptyLockSet));
}

// SR,SM  r / w  join rule: all of S but t ended before t  ER/EW
//                                                         TS = cur, Lo = L
TEST_F(MsmShortTest, JoinRuleMakesSharedExclusive) {
  ShadowCell cell =
      SharedModified(b.segment, LockSet({kM}), ThreadSet({&a, &b}));
  Join(&a, &b);
  a.Lock(kM);
  EXPECT_CELL(ExclusiveWrite(a.segment, LockSet({kM})), Write(cell, &a));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, JoinRuleMakesSharedReadExclusiveRead) {
  ShadowCell cell = SharedRead(b.segment, LockSet({kM}), ThreadSet({&a, &b}));
  Join(&a, &b);
  EXPECT_CELL(ExclusiveRead(a.segment, kEmptyLockSet), Read(cell, &a));
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, JoinRuleAppliesToAThreadOutsideTheSet) {
  ShadowCell cell =
      SharedModified(b.segment, LockSet({kM}), ThreadSet({&a, &b}));
  Join(&c, &a);
  Join(&c, &b);
  c.Lock(kM);
  EXPECT_CELL(ExclusiveWrite(c.segment, LockSet({kM})), Write(cell, &c));
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, JoinRuleNeedsTheEndToHappenBefore) {
  ShadowCell cell =
      SharedModified(b.segment, LockSet({kM}), ThreadSet({&a, &b}));
  b.End();
  a.Lock(kM);
  EXPECT_CELL(cell, Write(cell, &a));
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortTest, JoinRuleNeedsEveryOtherThreadToEnd) {
  ShadowCell cell =
      SharedModified(b.segment, LockSet({kM}), ThreadSet({&a, &b, &c}));
  Join(&a, &b);
  a.Lock(kM);
  EXPECT_CELL(cell, Write(cell, &a));
  EXPECT_FALSE(race.found);
}

// The rule's answer is memoised per thread; a later join or end must count.
TEST_F(MsmShortTest, JoinRuleSeesAnAcquireAfterAnEarlierCheck) {
  ShadowCell cell =
      SharedModified(b.segment, LockSet({kM}), ThreadSet({&a, &b}));
  b.End();
  a.Lock(kM);
  EXPECT_CELL(cell, Write(cell, &a));
  a.Acquire(b);
  EXPECT_CELL(ExclusiveWrite(a.segment, LockSet({kM})), Write(cell, &a));
}

TEST_F(MsmShortTest, JoinRuleSeesAnEndAfterAnEarlierCheck) {
  ShadowCell cell =
      SharedModified(b.segment, LockSet({kM}), ThreadSet({&a, &b}));
  a.Acquire(b);
  a.Lock(kM);
  EXPECT_CELL(cell, Write(cell, &a));
  b.End();
  EXPECT_CELL(ExclusiveWrite(a.segment, LockSet({kM})), Write(cell, &a));
}

TEST_F(MsmShortTest, JoinRuleNeverShrinksAnOverflowedThreadSet) {
  ShadowCell cell =
      SharedModified(b.segment, LockSet({kM}), kThreadSetOverflow);
  Join(&a, &b);
  a.Lock(kM);
  EXPECT_CELL(cell, Write(cell, &a));
  EXPECT_FALSE(race.found);
}

// Race  any  -  Race  nothing is checked
TEST_F(MsmShortTest, RaceIsTerminal) {
  for (Thread *t : {&a, &b, &c}) {
    for (bool write : {false, true}) {
      EXPECT_CELL(Race(), Access(Race(), t, write));
      EXPECT_TRUE(noop);
      EXPECT_FALSE(race.found);
    }
  }
}

TEST_F(MsmShortTest, RaceStaysRaceAfterJoins) {
  Join(&c, &a);
  Join(&c, &b);
  EXPECT_CELL(Race(), Write(Race(), &c));
  EXPECT_FALSE(race.found);
}

// Where a row reports, a hand-off edge that orders the previous access
// turns "not hb" into "hb" for that row, inside the edge's heap blocks only.
// The blocks live in the runtime's meta table, so this suite maps the shadow.
class MsmShortHandoffTest : public MsmShortTest {
protected:
  static void SetUpTestSuite() {
    MsmShortTest::SetUpTestSuite();
    InitShadowOnce();
    InitHeapBlocks();
    RecordHeapBlock(Addr(queue), sizeof(queue));
    RecordHeapBlock(Addr(item), sizeof(item));
  }
  ~MsmShortHandoffTest() override { b.relations.handoffs.Free(); }

  // b read, under a lock, the queue's head, which a wrote and which held the
  // item: b is ordered after a for the queue's and the item's blocks.
  void HandOffQueueHead() {
    ClockSnapshot *knew = ClockSnapshot::Make(a.vc);
    ClockRef clock;
    clock.Assign(knew, a.slot, a.clock);
    knew->Unref();
    b.relations.handoffs.Add(clock, Addr(&queue[1]), Addr(item));
    clock.Reset();
    a.NewSegment();
  }
  ShadowCell Access(ShadowCell cell, Thread *thr, bool write, uptr addr) {
    race = {};
    return MsmShort::Transition(cell, thr, AccessContext{write, addr, false},
                                &race);
  }

  alignas(16) static inline u64 queue[4];
  alignas(16) static inline u64 item[4];
  alignas(16) static inline u64 global[4];
};

TEST_F(MsmShortHandoffTest, HandedOverItemIsOrdered) {
  SegmentId w = a.segment;
  HandOffQueueHead();
  EXPECT_CELL(
      ExclusiveWrite(b.segment, kEmptyLockSet),
      Access(ExclusiveWrite(w, kEmptyLockSet), &b, true, Addr(&item[2])));
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortHandoffTest, HandedOverItemReadKeepsTheWrite) {
  SegmentId w = a.segment;
  HandOffQueueHead();
  EXPECT_CELL(
      ReadAfterWrite(b.segment, w, false, false),
      Access(ExclusiveWrite(w, kEmptyLockSet), &b, false, Addr(&item[0])));
  EXPECT_FALSE(race.found);
}

TEST_F(MsmShortHandoffTest, HandOffOrdersTheBlockOfTheLocationRead) {
  SegmentId w = a.segment;
  HandOffQueueHead();
  EXPECT_CELL(
      ExclusiveWrite(b.segment, kEmptyLockSet),
      Access(ExclusiveWrite(w, kEmptyLockSet), &b, true, Addr(&queue[3])));
}

TEST_F(MsmShortHandoffTest, HandOffOrdersNoOtherMemory) {
  SegmentId w = a.segment;
  HandOffQueueHead();
  EXPECT_CELL(Race(), Access(ExclusiveWrite(w, kEmptyLockSet), &b, true,
                             Addr(&global[0])));
  EXPECT_TRUE(Reported(RaceCause::kUnordered, w, AccessKind::kWrite,
                       kEmptyLockSet, kEmptyLockSet));
}

TEST_F(MsmShortHandoffTest, HandOffOrdersNothingTheWriterDidLater) {
  HandOffQueueHead();
  SegmentId later = a.segment;
  EXPECT_CELL(Race(), Access(ExclusiveWrite(later, kEmptyLockSet), &b, true,
                             Addr(&item[0])));
}

TEST_F(MsmShortHandoffTest, HandOffEndsASharedLocationsLockSet) {
  SegmentId w = a.segment;
  HandOffQueueHead();
  EXPECT_CELL(ExclusiveWrite(b.segment, kEmptyLockSet),
              Access(SharedModified(w, LockSet({kM}), ThreadSet({&a, &c})), &b,
                     true, Addr(&item[1])));
  EXPECT_FALSE(race.found);
}

// Restamp (the access path's re-stamp by the owner) agrees with the table
// for every exclusive state of a segment of the thread, earlier or current,
// that the access changes, for reads and writes, whatever locks each held.
TEST_F(MsmShortTest, RestampByOwnerIsTheTransition) {
  SegmentId other = b.segment;
  ExpectRestampsAreTransitions([other](SegmentId earlier, bool locked) {
    LockSetId lo = locked ? LockSet({kM}) : kEmptyLockSet;
    return std::vector<ShadowCell>{
        ExclusiveWrite(earlier, lo), ExclusiveRead(earlier, lo),
        ReadAfterWrite(earlier, other, locked, false),
        ReadAfterWrite(earlier, other, locked, true)};
  });
}

// The inline tests pass only cells the access leaves as they are, with
// and without a lock held (runtime/hrace_inline_test.h).
TEST_F(MsmShortTest, InlineTestsPassOnlyWhatTheAccessLeavesUnchanged) {
  std::vector<ShadowCell> cells = CellsOfEveryState();
  ExpectInlineTestsPassOnlyNoops(cells);
  a.Lock(kM);
  ExpectInlineTestsPassOnlyNoops(cells);
}

// A memo test of a shared value leaves its segment out: it covers the
// granules of a structure that different segments shared.
TEST_F(MsmShortTest, MemoInlineTestOfASharedValueAnySegment) {
  SetId ab = ThreadSet({&a, &b});
  ShadowCell seen = SharedRead(b.segment, kEmptyLockSet, ab);
  ASSERT_TRUE(LeavesUnchanged(seen, &a, false));
  InlineNoopTest memo = MsmShort::MemoInlineTest(seen, false);
  u64 whole = GranuleCell::SpreadMask(0xff);
  EXPECT_TRUE(memo.Passes(
      GranuleCell::Make(SharedRead(a.segment, kEmptyLockSet, ab), 0xff).raw(),
      whole));
  EXPECT_FALSE(memo.Passes(
      GranuleCell::Make(SharedModified(b.segment, kEmptyLockSet, ab), 0xff)
          .raw(),
      whole));
}

// The memo test on a value (a split granule's byte cell) passes the bytes of
// a Shared-Read granule that differ only in the segment that shared each,
// never a value whose top aux bits a granule cell could not hold, and
// nothing once the memo tests are dropped.
TEST_F(MsmShortTest, MemoTestOfAByteCellAnySegmentOnlyValuesAGranuleHolds) {
  SetId ab = ThreadSet({&a, &b});
  ShadowCell seen = SharedRead(b.segment, kEmptyLockSet, ab);
  ASSERT_TRUE(LeavesUnchanged(seen, &a, false));
  SetInlineTest(kReadMemoTest, MsmShort::MemoInlineTest(seen, false));
  EXPECT_TRUE(ValuePassesMemoTest(
      SharedRead(a.segment, kEmptyLockSet, ab).raw(), false));
  EXPECT_FALSE(ValuePassesMemoTest(
      SharedRead(a.segment, kEmptyLockSet, ab).raw(), true));
  u64 wide = seen.raw() | (u64(1) << (ShadowCell::kAuxShift + 26));
  EXPECT_FALSE(ValuePassesMemoTest(wide, false));
  DropInlineMemoTests();
  EXPECT_FALSE(ValuePassesMemoTest(seen.raw(), false));
}

} // namespace
} // namespace hybrid_test
} // namespace hrace
