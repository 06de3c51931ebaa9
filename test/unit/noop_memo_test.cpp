//===-- noop_memo_test.cpp - Cell values known to be unchanged ------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "hrace_noop_memo.h"

#include "../shadow/hrace_shadow_cell.h"

#include "gtest/gtest.h"

namespace hrace {
namespace {

u64 SharedRead(SegmentId ts, u32 aux) {
  return ShadowCell::Make(CellState::kSharedRead, ts, aux).raw();
}

TEST(NoopMemoTest, NewMemoHoldsNoCellNotEvenNew) {
  NoopMemo memo;
  EXPECT_FALSE(memo.Contains(ShadowCell().raw(), false));
  EXPECT_FALSE(memo.Contains(ShadowCell().raw(), true));
  EXPECT_FALSE(memo.Contains(SharedRead(1, 1), false));
}

TEST(NoopMemoTest, InsertedValueIsFoundForItsKindOnly) {
  NoopMemo memo;
  memo.Insert(SharedRead(7, 3), false);
  EXPECT_TRUE(memo.Contains(SharedRead(7, 3), false));
  EXPECT_FALSE(memo.Contains(SharedRead(7, 3), true));
  EXPECT_FALSE(memo.Contains(SharedRead(7, 4), false));
  EXPECT_FALSE(memo.Contains(SharedRead(8, 3), false));
}

TEST(NoopMemoTest, InvalidateForgetsEverything) {
  NoopMemo memo;
  memo.Insert(SharedRead(7, 3), false);
  memo.Insert(SharedRead(7, 3), true);
  memo.Invalidate();
  EXPECT_FALSE(memo.Contains(SharedRead(7, 3), false));
  EXPECT_FALSE(memo.Contains(SharedRead(7, 3), true));
}

TEST(NoopMemoTest, InsertAfterInvalidateKeepsOnlyTheNewValue) {
  NoopMemo memo;
  memo.Insert(SharedRead(7, 3), false);
  memo.Invalidate();
  memo.Insert(SharedRead(9, 5), false);
  EXPECT_TRUE(memo.Contains(SharedRead(9, 5), false));
  EXPECT_FALSE(memo.Contains(SharedRead(7, 3), false));
}

TEST(NoopMemoTest, ManyValuesOfOneStructureStayWithinTheTable) {
  NoopMemo memo;
  // Candidate sets 1..kEntries with one segment: each gets its own entry.
  for (u32 aux = 1; aux <= NoopMemo::kEntries; aux++)
    memo.Insert(SharedRead(42, aux), false);
  for (u32 aux = 1; aux <= NoopMemo::kEntries; aux++)
    EXPECT_TRUE(memo.Contains(SharedRead(42, aux), false)) << aux;
}

// A change is found again for its value and its kind, whatever cell holds
// the value, and only until the thread's synchronisation state changes.
TEST(NoopMemoTest, ChangeIsFoundForItsValueAndKindUntilInvalidated) {
  NoopMemo memo;
  u64 now = 0;
  // A zeroed table holds no change of New (0).
  EXPECT_FALSE(memo.FindChange(0, false, &now));
  memo.NoteChange(SharedRead(7, 3), SharedRead(7, 4), false);
  ASSERT_TRUE(memo.FindChange(SharedRead(7, 3), false, &now));
  EXPECT_EQ(now, SharedRead(7, 4));
  EXPECT_FALSE(memo.FindChange(SharedRead(8, 3), false, &now));
  EXPECT_FALSE(memo.FindChange(SharedRead(7, 3), true, &now));
  memo.Invalidate();
  EXPECT_FALSE(memo.FindChange(SharedRead(7, 3), false, &now));
  // A value noted unchanged after the invalidation brings nothing back.
  memo.Insert(SharedRead(9, 5), false);
  EXPECT_FALSE(memo.FindChange(SharedRead(7, 3), false, &now));
}

// Changes of different values are kept side by side: a thread that takes
// over the arrays of two writers' segments finds both.
TEST(NoopMemoTest, ChangesOfSeveralValuesAreKeptTogether) {
  NoopMemo memo;
  u64 now = 0;
  memo.NoteChange(0, SharedRead(1, 1), true);
  memo.NoteChange(SharedRead(7, 3), SharedRead(7, 4), false);
  memo.NoteChange(SharedRead(8, 3), SharedRead(8, 4), false);
  ASSERT_TRUE(memo.FindChange(0, true, &now));
  EXPECT_EQ(now, SharedRead(1, 1));
  ASSERT_TRUE(memo.FindChange(SharedRead(7, 3), false, &now));
  EXPECT_EQ(now, SharedRead(7, 4));
  ASSERT_TRUE(memo.FindChange(SharedRead(8, 3), false, &now));
  EXPECT_EQ(now, SharedRead(8, 4));
}

// The inline memo tests are made from the memo's values, so they go when
// it is invalidated; the machine's own tests stay (runtime/hrace_inline_test.h).
TEST(NoopMemoTest, InvalidateDropsTheInlineMemoTests) {
  NoopMemo memo;
  InlineNoopTest test = {0xf, 1};
  SetInlineTest(kReadTest, test);
  SetInlineTest(kReadMemoTest, test);
  SetInlineTest(kWriteMemoTest, test);
  memo.Invalidate();
  EXPECT_TRUE(InlineTestIsOn(kReadTest));
  EXPECT_FALSE(InlineTestIsOn(kReadMemoTest));
  EXPECT_FALSE(InlineTestIsOn(kWriteMemoTest));
  SetInlineTest(kReadTest, kInlineTestOff);
}

} // namespace
} // namespace hrace
