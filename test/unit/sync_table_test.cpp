//===-- sync_table_test.cpp - Sync objects found by address and by name --===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "../runtime/hrace_sync.h"
#include "shadow_once.h"

#include "gtest/gtest.h"

namespace hrace {
namespace {

// Two mutexes' worth of program memory, in a granule each.
alignas(64) u64 kLocks[16];

class SyncTableTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    InitShadowOnce();
    table_ = new SyncTable();
    table_->Init();
  }
  void TearDown() override {
    table_->ResetRange(reinterpret_cast<uptr>(kLocks), sizeof(kLocks));
  }
  static SyncObject *Lock(int i) {
    return table_->GetOrCreate(reinterpret_cast<uptr>(&kLocks[8 * i]));
  }
  static SyncTable *table_;
};

SyncTable *SyncTableTest::table_;

// A lock set holds names; a report on the way needs the lock's map of
// writes (ReadAfterLockedWrites).
TEST_F(SyncTableTest, ANamedLockIsFoundByItsName) {
  SyncObject *m = Lock(0), *n = Lock(1);
  table_->NameLock(m);
  table_->NameLock(n);
  EXPECT_NE(m->lock_id, n->lock_id);
  EXPECT_EQ(m, table_->ForLock(m->lock_id));
  EXPECT_EQ(n, table_->ForLock(n->lock_id));
  EXPECT_EQ(nullptr, table_->ForLock(0));
}

TEST_F(SyncTableTest, AReleasedLockIsNotFoundByItsOldName) {
  SyncObject *m = Lock(0);
  table_->NameLock(m);
  LockId old = m->lock_id;
  table_->ResetRange(reinterpret_cast<uptr>(kLocks), sizeof(kLocks));
  EXPECT_EQ(nullptr, table_->ForLock(old));
  // The slot taken again by another lock: still not the old name's.
  SyncObject *again = Lock(0);
  table_->NameLock(again);
  EXPECT_EQ(nullptr, table_->ForLock(old));
  EXPECT_EQ(again, table_->ForLock(again->lock_id));
}

// The index is direct-mapped: a name kLockIndexSize later takes the entry,
// and the earlier name is then not found (its reader does not excuse).
TEST_F(SyncTableTest, ALaterNameInTheSameEntryHidesTheEarlierOne) {
  SyncObject *m = Lock(0), *n = Lock(1);
  table_->NameLock(m);
  LockId first = m->lock_id;
  do
    table_->NameLock(n);
  while (n->lock_id % SyncTable::kLockIndexSize !=
         first % SyncTable::kLockIndexSize);
  EXPECT_EQ(nullptr, table_->ForLock(first));
  EXPECT_EQ(n, table_->ForLock(n->lock_id));
}

} // namespace
} // namespace hrace
