//===-- ndr_test.cpp - Write dependencies of non-deterministic reads ------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The criteria of seeds/002 section IV-A (relevance, directness, freedom)
// and our serialised-update rule, on hand-built epochs: no threads.
//
//===----------------------------------------------------------------------===//

#include "../../detectors/hrace_ndr.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <deque>
#include <memory>
#include <vector>

namespace hrace {
namespace {

constexpr u32 kSlots = 4;

class NdrTest : public ::testing::Test {
protected:
  // An epoch of thread `thread` (slot = thread) with its clock and what it
  // knows of the other threads.
  NdrEpoch *Epoch(u32 thread, u64 seq, Clock clock, std::vector<Clock> vc = {},
                  std::vector<NdrLockHold> locks = {}) {
    auto *e = static_cast<NdrEpoch *>(
        std::calloc(1, NdrEpochBytes(kSlots, static_cast<u32>(locks.size()))));
    epochs_.emplace_back(e, &std::free);
    e->thread_id = thread;
    e->slot = thread;
    e->seq = seq;
    e->clock = clock;
    e->vc_size = kSlots;
    NdrPlaceLocks(e);
    for (u32 i = 0; i < vc.size(); i++)
      e->vc[i] = vc[i];
    e->vc[thread] = clock;
    e->lock_count = static_cast<u32>(locks.size());
    for (u32 i = 0; i < locks.size(); i++)
      e->locks[i] = locks[i];
    return e;
  }

  EpochVariable *Var(NdrEpoch *e, NdrBytes read_first, NdrBytes written,
                     NdrBytes read_after_write = 0) {
    vars_.emplace_back();
    EpochVariable *v = &vars_.back();
    v->epoch = e;
    v->read_first = read_first;
    v->written = written;
    v->read_after_write = read_after_write;
    return v;
  }

  std::vector<const EpochVariable *> Deps(const EpochVariable &read,
                                          bool after_own_write,
                                          std::vector<EpochVariable *> writes) {
    std::vector<const EpochVariable *> w(writes.begin(), writes.end());
    const EpochVariable *deps[16];
    NdrBytes mask = after_own_write ? read.read_after_write : read.read_first;
    u32 n = NdrWriteDependencies(read, after_own_write, mask, w.data(),
                                 static_cast<u32>(w.size()), deps, 16);
    return std::vector<const EpochVariable *>(deps, deps + n);
  }

  bool NonDeterministic(const EpochVariable &read, bool after_own_write,
                        std::vector<EpochVariable *> writes) {
    return NonDeterministicIn(
        read, after_own_write ? read.read_after_write : read.read_first, writes,
        after_own_write);
  }

  // The read of bytes `mask` of `read` (first reads unless
  // after_own_write), checked as one.
  bool NonDeterministicIn(const EpochVariable &read, NdrBytes mask,
                          std::vector<EpochVariable *> writes,
                          bool after_own_write = false) {
    std::vector<const EpochVariable *> w(writes.begin(), writes.end());
    const EpochVariable *deps[16];
    u32 n = NdrWriteDependencies(read, after_own_write, mask, w.data(),
                                 static_cast<u32>(w.size()), deps, 16);
    return NdrIsNonDeterministic(read, mask, deps, n);
  }

  std::vector<std::unique_ptr<NdrEpoch, void (*)(void *)>> epochs_;
  std::deque<EpochVariable> vars_;
};

TEST_F(NdrTest, EpochsOfOneThreadAreInProgramOrder) {
  NdrEpoch *a = Epoch(1, 1, 5), *b = Epoch(1, 2, 5);
  EXPECT_TRUE(NdrHappensBefore(a, b));
  EXPECT_FALSE(NdrHappensBefore(b, a));
}

TEST_F(NdrTest, OtherThreadsAreOrderedByVectorClock) {
  NdrEpoch *a = Epoch(1, 1, 5);
  NdrEpoch *knows = Epoch(2, 1, 3, {0, 5, 0, 0});
  NdrEpoch *does_not = Epoch(2, 2, 3, {0, 4, 0, 0});
  EXPECT_TRUE(NdrHappensBefore(a, knows));
  EXPECT_FALSE(NdrHappensBefore(a, does_not));
}

TEST_F(NdrTest, ParallelWriteMakesTheReadNonDeterministic) {
  // seeds/002 figure 7: reads of x in T1 against x = 5 in T2.
  EpochVariable *read = Var(Epoch(1, 1, 1), 0xf, 0);
  EpochVariable *write = Var(Epoch(2, 1, 1), 0, 0xf);
  auto deps = Deps(*read, false, {write});
  ASSERT_EQ(deps.size(), 1u);
  EXPECT_TRUE(NdrIsParallel(*read, *deps[0]));
  EXPECT_TRUE(NonDeterministic(*read, false, {write}));
}

TEST_F(NdrTest, OrderedSingleWriteIsDeterministic) {
  EpochVariable *write = Var(Epoch(2, 1, 1), 0, 0xf);
  EpochVariable *read = Var(Epoch(1, 1, 1, {0, 0, 1, 0}), 0xf, 0);
  EXPECT_EQ(Deps(*read, false, {write}).size(), 1u);
  EXPECT_FALSE(NonDeterministic(*read, false, {write}));
}

TEST_F(NdrTest, RelevanceDropsWritesAfterTheRead) {
  // Figure 6, left: the read happens before the write.
  EpochVariable *read = Var(Epoch(1, 1, 1), 0xf, 0);
  EpochVariable *later_own = Var(Epoch(1, 2, 1), 0, 0xf);
  EpochVariable *later_other = Var(Epoch(2, 1, 1, {0, 1, 0, 0}), 0, 0xf);
  EXPECT_TRUE(Deps(*read, false, {later_own, later_other}).empty());
}

TEST_F(NdrTest, ReadFirstDoesNotDependOnItsEpochsLaterWrite) {
  EpochVariable *v = Var(Epoch(1, 1, 1), 0xf, 0xf);
  EXPECT_TRUE(Deps(*v, false, {v}).empty());
  auto deps = Deps(*v, true, {v});
  ASSERT_EQ(deps.size(), 0u) << "no read after own write was made";
  v->read_after_write = 0xf;
  deps = Deps(*v, true, {v});
  ASSERT_EQ(deps.size(), 1u);
  EXPECT_EQ(deps[0], v);
  EXPECT_FALSE(NonDeterministic(*v, true, {v}));
}

TEST_F(NdrTest, DirectnessKeepsOnlyTheLatestWrite) {
  // Figure 6, middle: x = 1; x = 2; print(x), each in its own epoch.
  EpochVariable *first = Var(Epoch(1, 1, 1), 0, 0xf);
  EpochVariable *second = Var(Epoch(1, 2, 1), 0, 0xf);
  EpochVariable *read = Var(Epoch(1, 3, 1), 0xf, 0);
  auto deps = Deps(*read, false, {second, first});
  ASSERT_EQ(deps.size(), 1u);
  EXPECT_EQ(deps[0], second);
}

TEST_F(NdrTest, DirectnessNeedsTheLaterWriteToCoverTheBytes) {
  EpochVariable *whole = Var(Epoch(1, 1, 1), 0, 0xff);
  EpochVariable *half = Var(Epoch(1, 2, 1), 0, 0x0f);
  EpochVariable *read = Var(Epoch(1, 3, 1), 0xff, 0);
  EXPECT_EQ(Deps(*read, false, {half, whole}).size(), 2u);
  // Each gives its own bytes of the read.
  EXPECT_FALSE(NonDeterministic(*read, false, {half, whole}));
}

TEST_F(NdrTest, OrderedWritesOfDifferentBytesLeaveNoChoice) {
  // A struct of two ints written field by field, then read whole.
  EpochVariable *low = Var(Epoch(1, 1, 1), 0, 0x0f);
  EpochVariable *high = Var(Epoch(2, 1, 1, {0, 1, 0, 0}), 0, 0xf0);
  EpochVariable *read = Var(Epoch(0, 1, 1, {0, 1, 1, 0}), 0xff, 0);
  EXPECT_EQ(Deps(*read, false, {high, low}).size(), 2u);
  EXPECT_FALSE(NonDeterministic(*read, false, {high, low}));
}

TEST_F(NdrTest, DistinctBytesAreNoDependency) {
  EpochVariable *read = Var(Epoch(1, 1, 1), 0x0f, 0);
  EpochVariable *write = Var(Epoch(2, 1, 1), 0, 0xf0);
  EXPECT_TRUE(Deps(*read, false, {write}).empty());
}

TEST_F(NdrTest, FreedomShutsOutWritesUnderTheContinuousLock) {
  // Figure 6, right: lock; x = 1; ...; print(x); unlock in T1, x = 2 under
  // the same lock in T2. T1's write and read are in two epochs of one
  // holding of lock 7.
  NdrEpoch *write_epoch = Epoch(1, 1, 1, {}, {{7, true, 1}});
  NdrEpoch *read_epoch = Epoch(1, 2, 1, {}, {{7, true, 1}});
  EpochVariable *own = Var(write_epoch, 0, 0xf);
  EpochVariable *read = Var(read_epoch, 0xf, 0);
  EpochVariable *other = Var(Epoch(2, 1, 1, {}, {{7, true, 1}}), 0, 0xf);
  auto deps = Deps(*read, false, {other, own});
  ASSERT_EQ(deps.size(), 1u);
  EXPECT_EQ(deps[0], own);
  EXPECT_FALSE(NonDeterministic(*read, false, {other, own}));
}

TEST_F(NdrTest, FreedomNeedsOneHolding) {
  // Figure 11: T1 wrote under the first holding of lock 7 and reads under
  // the third; T2's write in the second is a dependency.
  EpochVariable *own = Var(Epoch(1, 1, 1, {}, {{7, true, 1}}), 0xf, 0xf);
  EpochVariable *other = Var(Epoch(2, 1, 1, {}, {{7, true, 2}}), 0, 0xf);
  EpochVariable *read = Var(Epoch(1, 2, 1, {}, {{7, true, 3}}), 0xf, 0);
  auto deps = Deps(*read, false, {other, own});
  EXPECT_EQ(deps.size(), 2u);
  EXPECT_TRUE(NonDeterministic(*read, false, {other, own}));
}

TEST_F(NdrTest, FreedomInsideOneEpoch) {
  // lock; x = 1; print(x); unlock against x = 2 under the same lock.
  EpochVariable *v = Var(Epoch(1, 1, 1, {}, {{7, true, 1}}), 0, 0xf, 0xf);
  EpochVariable *other = Var(Epoch(2, 1, 1, {}, {{7, true, 1}}), 0, 0xf);
  auto deps = Deps(*v, true, {other, v});
  ASSERT_EQ(deps.size(), 1u);
  EXPECT_EQ(deps[0], v);
}

TEST_F(NdrTest, AnotherLockDoesNotShutOut) {
  EpochVariable *v = Var(Epoch(1, 1, 1, {}, {{7, true, 1}}), 0, 0xf, 0xf);
  EpochVariable *other = Var(Epoch(2, 1, 1, {}, {{8, true, 1}}), 0, 0xf);
  EXPECT_TRUE(NonDeterministic(*v, true, {other, v}));
}

TEST_F(NdrTest, SerialisedUpdatesUnderOneLockAreDeterministic) {
  // lock; x++; unlock in both threads, T1's holding first.
  EpochVariable *t1 = Var(Epoch(1, 1, 1, {}, {{7, true, 1}}), 0xf, 0xf);
  EpochVariable *t2 = Var(Epoch(2, 1, 1, {}, {{7, true, 2}}), 0xf, 0xf);
  EXPECT_TRUE(Deps(*t1, false, {t2, t1}).empty());
  EXPECT_TRUE(Deps(*t2, false, {t2, t1}).empty());
  // Main after joining both: the later update carries the earlier one's
  // value on, so one dependency, ordered.
  EpochVariable *main = Var(Epoch(0, 1, 1, {0, 1, 1, 0}), 0xf, 0);
  auto deps = Deps(*main, false, {t2, t1});
  ASSERT_EQ(deps.size(), 1u);
  EXPECT_EQ(deps[0], t2);
  EXPECT_FALSE(NonDeterministic(*main, false, {t2, t1}));
}

TEST_F(NdrTest, UpdatesUnderAReadHoldAreNotSerialised) {
  // rdlock; x++; unlock in both threads: the read hold excludes no one.
  EpochVariable *t1 = Var(Epoch(1, 1, 1, {}, {{7, false, 1}}), 0xf, 0xf);
  EpochVariable *t2 = Var(Epoch(2, 1, 1, {}, {{7, false, 1}}), 0xf, 0xf);
  EXPECT_TRUE(NonDeterministic(*t1, false, {t2, t1}));
}

TEST_F(NdrTest, AnUpdateIsOneOfTheReadBytes) {
  // lock; s.a++; s.b = 1; unlock against lock; s.b++; unlock: T1's write of
  // b is no update, so T2's read of b depends on it.
  EpochVariable *t1 = Var(Epoch(1, 1, 1, {}, {{7, true, 1}}), 0x0f, 0xff);
  EpochVariable *t2 = Var(Epoch(2, 1, 1, {}, {{7, true, 1}}), 0xf0, 0xf0);
  EXPECT_TRUE(NonDeterministic(*t2, false, {t2, t1}));
}

// lock; c.total = c.total + c.inc; unlock, one read of both fields (a run
// of loads, or a loop's record), against lock; c.inc = 5; c.total++;
// unlock. The read's update of total is no update of inc: T2's write of inc
// stays a dependency of the read of inc, parallel, while the read of total
// is serialised with T2's update. Checked as one, the read would count as
// an update of both, and T2's update would shut out its write of inc.
TEST_F(NdrTest, AReadIsCheckedInSetsOfBytesTheCriteriaTreatAlike) {
  constexpr NdrBytes kTotal = 0x0f, kInc = 0xf0;
  EpochVariable *t1 =
      Var(Epoch(1, 1, 1, {}, {{7, true, 1}}), kTotal | kInc, kTotal);
  EpochVariable *t2 =
      Var(Epoch(2, 1, 1, {}, {{7, true, 2}}), kTotal, kTotal | kInc);
  const EpochVariable *writes[] = {t2, t1};
  EXPECT_EQ(NdrUniformBytes(*t1, kTotal | kInc, writes, 2), kTotal);
  EXPECT_EQ(NdrUniformBytes(*t1, kInc, writes, 2), kInc);
  EXPECT_FALSE(NonDeterministicIn(*t1, kTotal, {t2, t1}));
  EXPECT_TRUE(NonDeterministicIn(*t1, kInc, {t2, t1}));
  EXPECT_FALSE(NonDeterministicIn(*t1, kTotal | kInc, {t2, t1}));
}

// Bytes written by different writes are apart, whoever reads them; bytes
// no write touched stay with their neighbours.
TEST_F(NdrTest, UniformBytesSplitAtEachWritesBounds) {
  EpochVariable *read = Var(Epoch(1, 1, 1), 0xffff, 0);
  EpochVariable *low = Var(Epoch(2, 1, 1), 0, 0x00ff);
  EpochVariable *middle = Var(Epoch(3, 1, 1), 0, 0x0ff0);
  const EpochVariable *writes[] = {low, middle};
  EXPECT_EQ(NdrUniformBytes(*read, 0xffff, writes, 2), 0x000fu);
  EXPECT_EQ(NdrUniformBytes(*read, 0xfff0, writes, 2), 0x00f0u);
  EXPECT_EQ(NdrUniformBytes(*read, 0xff00, writes, 2), 0x0f00u);
  EXPECT_EQ(NdrUniformBytes(*read, 0xf000, writes, 2), 0xf000u);
  EXPECT_EQ(NdrUniformBytes(*read, 0xf000, writes, 0), 0xf000u);
}

TEST_F(NdrTest, SlotOfAnEndedThreadOrdersOnlyWhatItsCreatorKnew) {
  NdrEpoch *old_owner = Epoch(1, 1, 7);
  NdrEpoch *new_owner = Epoch(3, 1, 8);
  new_owner->slot = 1;
  new_owner->vc[1] = 8;
  EXPECT_FALSE(NdrHappensBefore(old_owner, new_owner));
  new_owner->previous_owner_clock = 7;
  EXPECT_TRUE(NdrHappensBefore(old_owner, new_owner));
}

// A floor of kSlots slots: known[i] as given, no live thread in any slot.
struct FloorOf {
  explicit FloorOf(std::vector<Clock> known)
      : known(known), owner(known.size(), NdrFloor::kNoThread),
        owner_previous(known.size(), 0) {}
  NdrFloor Get() {
    return {static_cast<u32>(known.size()), known.data(), owner.data(),
            owner_previous.data()};
  }
  std::vector<Clock> known;
  std::vector<u32> owner;
  std::vector<Clock> owner_previous;
};

TEST_F(NdrTest, EpochKnownToEveryOtherLiveThreadIsBeforeEveryFutureEpoch) {
  NdrEpoch *e = Epoch(1, 1, 5);
  FloorOf floor({~Clock(0), 5, 9, 9});
  floor.owner[1] = 1;
  EXPECT_TRUE(NdrBeforeEveryFutureEpoch(e, floor.Get()));
  // One live thread knows slot 1 only up to 4.
  floor.known[1] = 4;
  EXPECT_FALSE(NdrBeforeEveryFutureEpoch(e, floor.Get()));
}

TEST_F(NdrTest, SlotBeyondTheFloorIsNotBeforeEveryFutureEpoch) {
  NdrEpoch *e = Epoch(3, 1, 2);
  FloorOf floor({9, 9});
  EXPECT_FALSE(NdrBeforeEveryFutureEpoch(e, floor.Get()));
}

TEST_F(NdrTest, NewOwnerOfTheSlotMustKnowThePreviousOwnersEpoch) {
  // Thread 1 ended in slot 1; thread 3 runs there now. Every other thread
  // knows slot 1 up to 9, the new owner's own clock, but thread 1's epoch
  // is ordered before thread 3's only if its creator knew it.
  NdrEpoch *e = Epoch(1, 1, 5);
  FloorOf floor({9, 9, 9, 9});
  floor.owner[1] = 3;
  floor.owner_previous[1] = 4;
  EXPECT_FALSE(NdrBeforeEveryFutureEpoch(e, floor.Get()));
  floor.owner_previous[1] = 5;
  EXPECT_TRUE(NdrBeforeEveryFutureEpoch(e, floor.Get()));
}

TEST_F(NdrTest, UnlockedUpdatesAreNonDeterministic) {
  EpochVariable *t1 = Var(Epoch(1, 1, 1), 0xf, 0xf);
  EpochVariable *t2 = Var(Epoch(2, 1, 1), 0xf, 0xf);
  EXPECT_TRUE(NonDeterministic(*t1, false, {t2, t1}));
}

TEST_F(NdrTest, UpdateSplitOverTwoSectionsIsNoUpdate) {
  // Gaps: lock; t = x; unlock; lock; x = t + 1; unlock.
  EpochVariable *read = Var(Epoch(1, 1, 1, {}, {{7, true, 1}}), 0xf, 0);
  EpochVariable *other = Var(Epoch(2, 1, 1, {}, {{7, true, 1}}), 0xf, 0xf);
  EXPECT_TRUE(NonDeterministic(*read, false, {other}));
}

TEST_F(NdrTest, PlainWriteAgainstAnUpdateStays) {
  // I&W: lock; x++; unlock against lock; x = 5; unlock.
  EpochVariable *update = Var(Epoch(1, 1, 1, {}, {{7, true, 1}}), 0xf, 0xf);
  EpochVariable *write = Var(Epoch(2, 1, 1, {}, {{7, true, 1}}), 0, 0xf);
  EXPECT_TRUE(NonDeterministic(*update, false, {write, update}));
}

TEST_F(NdrTest, TwoOrderedWritesOfTwoThreadsAreTwoDependencies) {
  // W&W, read after joining both writers.
  EpochVariable *t1 = Var(Epoch(1, 1, 1), 0, 0xf);
  EpochVariable *t2 = Var(Epoch(2, 1, 1), 0, 0xf);
  EpochVariable *main = Var(Epoch(0, 1, 1, {0, 1, 1, 0}), 0xf, 0);
  EXPECT_EQ(Deps(*main, false, {t2, t1}).size(), 2u);
  EXPECT_TRUE(NonDeterministic(*main, false, {t2, t1}));
}

// A variable often holds several program variables (a struct's fields):
// each access that brings new bytes keeps its own record while there is a
// free one; the next widens the last record, and bytes an earlier record
// claims stay that one's.
TEST(NdrRecordTest, NewAccessesTakeAFreeRecordThenWidenTheLast) {
  NdrAccessRecord records[3] = {};
  NdrRecordAccess(records, 3, 0, 4, 7);
  NdrRecordAccess(records, 3, 8, 2, 8);
  NdrRecordAccess(records, 3, 16, 8, 9);
  NdrRecordAccess(records, 3, 2, 8, 10);
  EXPECT_EQ(records[0].stack, 7u);
  EXPECT_EQ(NdrRecordBytes(records, 0), 0x0fu);
  EXPECT_EQ(records[1].stack, 8u);
  EXPECT_EQ(NdrRecordBytes(records, 1), 0x300u);
  EXPECT_EQ(records[2].stack, 9u);
  // Widened down to byte 2: bytes 2-3 and 8-9 stay with records 0 and 1.
  EXPECT_EQ(NdrRecordBytes(records, 2), 0xfffcf0u);
  // A report names the first access.
  EXPECT_EQ(records[2].offset, 16u);
  EXPECT_EQ(records[2].size, 8u);
}

// A loop over an array: the accesses of one stack that touch its record
// grow it, so one record covers the line.
TEST(NdrRecordTest, ALoopsAccessesGrowOneRecord) {
  NdrAccessRecord records[3] = {};
  for (u8 i = 0; i < 16; i++)
    NdrRecordAccess(records, 3, static_cast<u8>(4 * i), 4, 7);
  EXPECT_EQ(NdrRecordBytes(records, 0), ~NdrBytes(0));
  EXPECT_EQ(records[1].stack, 0u);
  EXPECT_EQ(records[0].offset, 0u);
  EXPECT_EQ(records[0].size, 4u);
}

// A strided loop (one field of an array of structs) leaves gaps another
// access may fill: a record grows only into bytes next to it, and never
// over another record's, so each access keeps the bytes it brought.
TEST(NdrRecordTest, ARecordNeverGrowsOverAGapOrAnotherRecord) {
  NdrAccessRecord records[3] = {};
  NdrRecordAccess(records, 3, 0, 4, 7);
  NdrRecordAccess(records, 3, 4, 4, 8);
  // Stack 7 again, past stack 8's bytes: growing would claim them.
  NdrRecordAccess(records, 3, 8, 4, 7);
  EXPECT_EQ(NdrRecordBytes(records, 0), 0x00fu);
  EXPECT_EQ(NdrRecordBytes(records, 1), 0x0f0u);
  EXPECT_EQ(records[2].stack, 7u);
  EXPECT_EQ(NdrRecordBytes(records, 2), 0xf00u);
  // Stack 7 again, beyond a gap: a full set widens the last one.
  NdrRecordAccess(records, 3, 16, 4, 7);
  EXPECT_EQ(NdrRecordBytes(records, 2), 0xfff00u);
}

} // namespace
} // namespace hrace
