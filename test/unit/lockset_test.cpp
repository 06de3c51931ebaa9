//===-- lockset_test.cpp - The locks a thread holds -----------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "hrace_lockset.h"

#include "hrace_sync.h"

#include "gtest/gtest.h"

#include <vector>

namespace hrace {
namespace {

typedef std::vector<LockId> Locks;

class HeldLocksTest : public ::testing::Test {
protected:
  // The table reserves its id space with mmap; one for the whole suite.
  static void SetUpTestSuite() {
    table = new IdSetTable();
    table->Init(kMaxLockSets, 0, "lock sets");
  }

  static LockSetId Intern(const Locks &locks) {
    return table->Intern(locks.data(), static_cast<u32>(locks.size()));
  }
  static Locks Members(LockSetId id) {
    u32 n;
    const LockId *locks = table->Members(id, &n);
    return Locks(locks, locks + n);
  }

  static IdSetTable *table;
  HeldLocks held;
};

IdSetTable *HeldLocksTest::table;

TEST_F(HeldLocksTest, NothingHeldIsEmptySet) {
  EXPECT_EQ(0u, held.count());
  EXPECT_FALSE(held.Holds(1));
  EXPECT_EQ(kEmptyLockSet, held.All(table));
  EXPECT_EQ(kEmptyLockSet, held.WriteHeld(table));
}

// A new generation of the recycled table: the set ids the thread kept,
// including a lock's own {M} given to Add, are interned again.
TEST_F(HeldLocksTest, ForgottenSetsAreInternedAgain) {
  LockSetId stale = Intern({1, 2, 3});
  held.Add(5, true, stale);
  held.Add(6, false);
  held.Remove(6);
  EXPECT_EQ(stale, held.All(table));
  held.ForgetSets();
  EXPECT_EQ(Locks({5}), Members(held.All(table)));
  EXPECT_EQ(Locks({5}), Members(held.WriteHeld(table)));
}

// A mutex's own set {M} counts only in the generation of the lock-set table
// that it was tagged with: its id names another set two generations later.
TEST(SyncObjectTest, SingleLockSetBelongsToItsGeneration) {
  SyncObject s{};
  EXPECT_EQ(kEmptyLockSet, s.SingleLockSet(0));
  s.SetSingleLockSet(5, 3);
  EXPECT_EQ(5u, s.SingleLockSet(3));
  EXPECT_EQ(kEmptyLockSet, s.SingleLockSet(4));
  EXPECT_EQ(kEmptyLockSet, s.SingleLockSet(5));
}

TEST_F(HeldLocksTest, AddRemoveHolds) {
  held.Add(1, true);
  held.Add(2, false);
  EXPECT_TRUE(held.Holds(1));
  EXPECT_TRUE(held.Holds(2));
  EXPECT_EQ(2u, held.count());
  held.Remove(1);
  EXPECT_FALSE(held.Holds(1));
  EXPECT_TRUE(held.Holds(2));
  EXPECT_EQ(1u, held.count());
}

TEST_F(HeldLocksTest, RemoveOfUnheldLockIsIgnored) {
  held.Add(1, true);
  held.Remove(9);
  EXPECT_EQ(1u, held.count());
  EXPECT_TRUE(held.Holds(1));
}

TEST_F(HeldLocksTest, SetsAreSortedWhateverTheAcquisitionOrder) {
  held.Add(30, true);
  held.Add(10, true);
  held.Add(20, true);
  EXPECT_EQ((Locks{10, 20, 30}), Members(held.All(table)));
  EXPECT_EQ(Intern({10, 20, 30}), held.All(table));
  EXPECT_EQ(Intern({10, 20, 30}), held.WriteHeld(table));
}

TEST_F(HeldLocksTest, ReadHeldLocksAreOnlyInAll) {
  held.Add(5, false);
  held.Add(6, true);
  EXPECT_EQ((Locks{5, 6}), Members(held.All(table)));
  EXPECT_EQ((Locks{6}), Members(held.WriteHeld(table)));
}

TEST_F(HeldLocksTest, SetsFollowAcquiresAndReleases) {
  held.Add(5, true);
  EXPECT_EQ(Intern({5}), held.All(table));
  held.Add(6, true);
  EXPECT_EQ(Intern({5, 6}), held.All(table));
  held.Remove(5);
  EXPECT_EQ(Intern({6}), held.All(table));
  EXPECT_EQ(Intern({6}), held.WriteHeld(table));
  held.Remove(6);
  EXPECT_EQ(kEmptyLockSet, held.All(table));
  EXPECT_EQ(kEmptyLockSet, held.WriteHeld(table));
}

TEST_F(HeldLocksTest, OutOfOrderReleaseKeepsTheOthers) {
  held.Add(1, true);
  held.Add(2, false);
  held.Add(3, true);
  held.Remove(2);
  EXPECT_EQ((Locks{1, 3}), Members(held.All(table)));
  EXPECT_EQ((Locks{1, 3}), Members(held.WriteHeld(table)));
}

TEST_F(HeldLocksTest, ReadLockTakenTwiceAppearsOnce) {
  held.Add(7, false);
  held.Add(7, false);
  EXPECT_EQ(2u, held.count());
  EXPECT_EQ((Locks{7}), Members(held.All(table)));
  EXPECT_EQ(kEmptyLockSet, held.WriteHeld(table));
  // Released once, it is still held once.
  held.Remove(7);
  EXPECT_TRUE(held.Holds(7));
  EXPECT_EQ((Locks{7}), Members(held.All(table)));
}

// Taking and releasing the same locks again, held another way or more of
// them, gives the sets of what is held each time.
TEST_F(HeldLocksTest, SetsFollowTheSameLocksHeldAgainOtherwise) {
  for (int round = 0; round < 3; round++) {
    held.Add(11, true);
    held.Add(12, false);
    EXPECT_EQ((Locks{11, 12}), Members(held.All(table)));
    EXPECT_EQ((Locks{11}), Members(held.WriteHeld(table)));
    held.Remove(12);
    held.Remove(11);
    held.Add(11, false);
    held.Add(12, true);
    EXPECT_EQ((Locks{11, 12}), Members(held.All(table)));
    EXPECT_EQ((Locks{12}), Members(held.WriteHeld(table)));
    held.Remove(12);
    held.Remove(11);
    for (LockId m = 20; m < 26; m++)
      held.Add(m, m % 2 == 0);
    EXPECT_EQ((Locks{20, 21, 22, 23, 24, 25}), Members(held.All(table)));
    EXPECT_EQ((Locks{20, 22, 24}), Members(held.WriteHeld(table)));
    for (LockId m = 20; m < 26; m++)
      held.Remove(m);
    EXPECT_EQ(kEmptyLockSet, held.All(table));
  }
}

// A lock added with its one-lock set answers a section holding it alone;
// with others held, the sets are built as usual.
TEST_F(HeldLocksTest, OneLockHeldIsItsSingleSet) {
  LockSetId single = Intern({30});
  held.Add(30, false, single);
  EXPECT_EQ(single, held.All(table));
  EXPECT_EQ(kEmptyLockSet, held.WriteHeld(table));
  held.Add(31, true, Intern({31}));
  EXPECT_EQ((Locks{30, 31}), Members(held.All(table)));
  EXPECT_EQ((Locks{31}), Members(held.WriteHeld(table)));
  held.Remove(30);
  EXPECT_EQ(Intern({31}), held.All(table));
  EXPECT_EQ(Intern({31}), held.WriteHeld(table));
}

} // namespace
} // namespace hrace
