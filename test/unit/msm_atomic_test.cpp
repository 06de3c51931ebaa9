//===-- msm_atomic_test.cpp - Atomic accesses beside the machines ---------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The rows of the tables in detectors/hrace_msm_atomic.h, over the default
// machine (msm=short): atomic accesses among themselves, atomic after plain,
// plain after atomic.
//
//===----------------------------------------------------------------------===//

#include "../detectors/hrace_msm_atomic.h"
#include "../detectors/hrace_msm_short.h"

#include "hybrid_fixture.h"

namespace hrace {
namespace hybrid_test {
namespace {

ShadowCell Atomic(SegmentId w, SegmentId r) {
  return ShadowCell::Make(CellState::kAtomic, w, r);
}
ShadowCell AtomicAfterPlainWrite(SegmentId w, SegmentId r) {
  return ShadowCell::Make(CellState::kAtomicAfterPlainWrite, w, r);
}

class MsmAtomicTest : public HybridTest<MsmShort, Msm::kShort> {
protected:
  using Atomics = MsmAtomic<MsmShort>;

  ShadowCell AtomicRead(ShadowCell cell, Thread *thr) {
    return AtomicAccess(cell, thr, false);
  }
  ShadowCell AtomicWrite(ShadowCell cell, Thread *thr) {
    return AtomicAccess(cell, thr, true);
  }
  ShadowCell AtomicAccess(ShadowCell cell, Thread *thr, bool write) {
    noop = Atomics::IsNoop(cell, thr, write);
    race = {};
    return Atomics::AtomicTransition(cell, thr, AccessContext{write, 0, true},
                                     &race);
  }
  ShadowCell PlainRead(ShadowCell cell, Thread *thr) {
    return PlainAccess(cell, thr, false);
  }
  ShadowCell PlainWrite(ShadowCell cell, Thread *thr) {
    return PlainAccess(cell, thr, true);
  }
  ShadowCell PlainAccess(ShadowCell cell, Thread *thr, bool write) {
    race = {};
    return Atomics::PlainTransition(cell, thr, AccessContext{write, 0, false},
                                    &race);
  }

  // a's plain access under M, then b's atomic access under M: a location
  // shared under {M}, a a plain member and b an atomic one. a still holds M.
  ShadowCell SharedUnderM(bool a_writes, bool b_writes) {
    a.Lock(kM);
    ShadowCell cell = Access(New(), &a, a_writes);
    b.Lock(kM);
    return AtomicAccess(cell, &b, b_writes);
  }

  // The last access raced with `prev`, an access of `kind`, atomic or not.
  testing::AssertionResult RacedWith(SegmentId prev, AccessKind kind,
                                     bool atomic) {
    if (!race.found)
      return testing::AssertionFailure() << "no race";
    if (race.prev_segment != prev || race.prev_kind != kind ||
        race.prev_atomic != atomic)
      return testing::AssertionFailure()
             << "previous: segment " << race.prev_segment << " kind "
             << static_cast<int>(race.prev_kind) << " atomic "
             << race.prev_atomic;
    return testing::AssertionSuccess();
  }
};

TEST_F(MsmAtomicTest, NewAtomicWriteAndReadGoAtomic) {
  EXPECT_CELL(Atomic(a.segment, 0), AtomicWrite(New(), &a));
  EXPECT_CELL(Atomic(0, a.segment), AtomicRead(New(), &a));
  EXPECT_FALSE(race.found);
}

TEST_F(MsmAtomicTest, UnorderedAtomicsNeverRace) {
  ShadowCell cell = AtomicWrite(New(), &a);
  cell = AtomicWrite(cell, &b);
  EXPECT_CELL(Atomic(b.segment, 0), cell);
  EXPECT_FALSE(race.found);
  cell = AtomicRead(cell, &c);
  EXPECT_CELL(Atomic(b.segment, c.segment), cell);
  // A write keeps a reader it is not ordered after, for later plain writes.
  EXPECT_CELL(Atomic(a.segment, c.segment), AtomicWrite(cell, &a));
  EXPECT_FALSE(race.found);
}

TEST_F(MsmAtomicTest, ConcurrentAtomicReadersKeepTheFirst) {
  ShadowCell cell = AtomicRead(New(), &a);
  EXPECT_CELL(cell, AtomicRead(cell, &b));
  EXPECT_FALSE(race.found);
  Order(&a, &b);
  EXPECT_CELL(Atomic(0, b.segment), AtomicRead(cell, &b));
}

TEST_F(MsmAtomicTest, RereadAndRewriteInTheSameSegmentAreNoops) {
  ShadowCell read = Atomic(0, a.segment);
  EXPECT_CELL(read, AtomicRead(read, &a));
  EXPECT_TRUE(noop);
  ShadowCell written = Atomic(a.segment, 0);
  EXPECT_CELL(written, AtomicWrite(written, &a));
  EXPECT_TRUE(noop);
  AtomicWrite(Atomic(a.segment, b.segment), &a);
  EXPECT_FALSE(noop);
}

TEST_F(MsmAtomicTest, AThreadsRereadAfterItsReleaseKeepsItsFirstRead) {
  ShadowCell cell = AtomicRead(New(), &a);
  a.NewSegment();
  EXPECT_CELL(cell, AtomicRead(cell, &a));
  EXPECT_TRUE(noop);
}

TEST_F(MsmAtomicTest, PlainReadOfUnorderedAtomicWriteRaces) {
  ShadowCell cell = AtomicWrite(New(), &a);
  EXPECT_CELL(Race(), PlainRead(cell, &b));
  EXPECT_TRUE(RacedWith(a.segment, AccessKind::kWrite, true));
  EXPECT_EQ(RaceCause::kAtomicUnordered, race.cause);
}

TEST_F(MsmAtomicTest, PlainWriteAfterUnorderedAtomicReadRaces) {
  ShadowCell cell = AtomicRead(New(), &a);
  EXPECT_CELL(Race(), PlainWrite(cell, &b));
  EXPECT_TRUE(RacedWith(a.segment, AccessKind::kRead, true));
}

TEST_F(MsmAtomicTest, PlainReadBesideUnorderedAtomicReadKeepsTheReader) {
  ShadowCell cell = AtomicRead(New(), &a);
  EXPECT_CELL(cell, PlainRead(cell, &b));
  EXPECT_FALSE(race.found);
}

TEST_F(MsmAtomicTest, OrderedPlainAccessMakesTheLocationItsOwn) {
  ShadowCell cell = AtomicWrite(New(), &a);
  Order(&a, &b);
  b.Lock(kM);
  EXPECT_CELL(ExclusiveWrite(b.segment, LockSet({kM})), PlainWrite(cell, &b));
  EXPECT_FALSE(race.found);
}

TEST_F(MsmAtomicTest, AtomicReadOfUnorderedPlainWriteRaces) {
  ShadowCell cell = Write(New(), &a);
  EXPECT_CELL(Race(), AtomicRead(cell, &b));
  EXPECT_TRUE(RacedWith(a.segment, AccessKind::kWrite, false));
}

TEST_F(MsmAtomicTest, AtomicWriteAfterUnorderedPlainReadRaces) {
  ShadowCell cell = Read(New(), &a);
  EXPECT_CELL(Race(), AtomicWrite(cell, &b));
  EXPECT_TRUE(race.found);
}

TEST_F(MsmAtomicTest, AtomicWriteUnderTheLockOfPlainWritesIsProtected) {
  a.Lock(kM);
  ShadowCell cell = Write(New(), &a);
  b.Lock(kM);
  // Shared under {M}: the machine keeps the location, and its lock set.
  EXPECT_CELL(SharedModified(b.segment, LockSet({kM}), ThreadSet({&a}, {&b})),
              AtomicWrite(cell, &b));
  EXPECT_FALSE(race.found);
}

// A locked atomic access keeps the location shared; a later unlocked atomic
// access runs its lock set empty, and atomics never race with each other.
TEST_F(MsmAtomicTest, AtomicsKeptAsSharedNeverRaceWithALaterAtomic) {
  ShadowCell cell = SharedUnderM(true, false);
  EXPECT_CELL(SharedModified(b.segment, LockSet({kM}), ThreadSet({&a}, {&b})),
              cell);
  a.Unlock(kM);
  EXPECT_CELL(Atomic(a.segment, 0), AtomicWrite(cell, &a));
  EXPECT_FALSE(race.found);
}

// Double-checked locking: once the report is dropped, the location is the
// atomic accessor's alone. Its plain read under the lock that ordered the
// other thread's atomic store before it is no race.
TEST_F(MsmAtomicTest, ADroppedReportLeavesNoLockedAccessToReport) {
  ShadowCell cell = SharedUnderM(false, true);
  EXPECT_CELL(SharedModified(b.segment, LockSet({kM}), ThreadSet({&a}, {&b})),
              cell);
  a.Unlock(kM);
  cell = AtomicRead(cell, &a);
  EXPECT_FALSE(race.found);
  EXPECT_CELL(Atomic(0, a.segment), cell);
  a.Lock(kM);
  PlainRead(cell, &a);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmAtomicTest, AtomicsKeptAsSharedReadersNeverRaceWithALaterAtomic) {
  ShadowCell cell = SharedUnderM(false, false);
  EXPECT_CELL(SharedRead(a.segment, LockSet({kM}), ThreadSet({&a}, {&b})),
              cell);
  // a's own read is in the segment the state keeps: the machine checks the
  // other readers, and the only other one was atomic.
  a.locks.Remove(kM);
  EXPECT_CELL(Atomic(a.segment, 0), AtomicWrite(cell, &a));
  EXPECT_FALSE(race.found);
}

TEST_F(MsmAtomicTest, AnotherThreadsPlainAccessKeptAsSharedRacesALaterAtomic) {
  ShadowCell cell = SharedUnderM(true, false);
  // The machine's report would name b's atomic read, the segment the state
  // keeps; the report names a, whose access was plain.
  EXPECT_CELL(Race(), AtomicRead(cell, &c));
  ASSERT_TRUE(race.found);
  EXPECT_EQ(RaceCause::kSharedWithPlainAccess, race.cause);
  EXPECT_EQ(0u, race.prev_segment);
  EXPECT_EQ(a.thread_id, race.prev_thread);
  EXPECT_EQ(AccessKind::kAny, race.prev_kind);
  EXPECT_FALSE(race.prev_atomic);
}

// A thread set that overflowed its table says nothing of its members: the
// machine's report stands, named by the segment the state keeps.
TEST_F(MsmAtomicTest, AnOverflowedThreadSetKeepsTheMachinesReport) {
  ShadowCell cell =
      SharedModified(b.segment, LockSet({kM}), kThreadSetOverflow);
  EXPECT_CELL(Race(), AtomicRead(cell, &a));
  EXPECT_EQ(RaceCause::kLockSetEmpty, race.cause);
  EXPECT_EQ(b.segment, race.prev_segment);
}

TEST_F(MsmAtomicTest, OwnersAtomicReadOfItsPlainWriteKeepsTheWrite) {
  a.Lock(kM);
  ShadowCell cell = Write(New(), &a);
  EXPECT_CELL(cell, AtomicRead(cell, &a));
  EXPECT_FALSE(race.found);
}

TEST_F(MsmAtomicTest, OrderedAtomicReadKeepsThePlainWrite) {
  SegmentId w = a.segment;
  ShadowCell cell = Write(New(), &a);
  Order(&a, &b);
  cell = AtomicRead(cell, &b);
  EXPECT_CELL(AtomicAfterPlainWrite(w, b.segment), cell);
  EXPECT_FALSE(race.found);
  // A third thread, ordered after neither, still meets the plain write, as
  // an atomic reader or writer and as a plain reader.
  EXPECT_CELL(Race(), AtomicRead(cell, &c));
  EXPECT_TRUE(RacedWith(w, AccessKind::kWrite, false));
  EXPECT_CELL(Race(), AtomicWrite(cell, &c));
  EXPECT_CELL(Race(), PlainRead(cell, &c));
  EXPECT_TRUE(RacedWith(w, AccessKind::kWrite, false));
}

TEST_F(MsmAtomicTest, RaceStaysRace) {
  EXPECT_CELL(Race(), AtomicWrite(Race(), &a));
  EXPECT_TRUE(noop);
  EXPECT_FALSE(race.found);
}

} // namespace
} // namespace hybrid_test
} // namespace hrace
