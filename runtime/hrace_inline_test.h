//===-- hrace_inline_test.h - The no-op tests instrumented code makes -----===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// On x86-64 an instrumented access of up to 8 aligned bytes tests inline
// whether it changes its shadow cell before it calls the runtime
// (llvm-pass; hrace_interface.h, __hrace_inline_test): it picks the cell of
// its granule that holds its bytes and calls only when neither of the
// thread's two tests for its kind passes:
//   - the machine's test of IsNoop's first row, the thread's own location in
//     its current segment (Machine::InlineTest), set at each new segment
//     (RefreshInlineTest);
//   - the memo test: the last value the slow path found that the thread's
//     access leaves unchanged (Machine::MemoInlineTest; the NoopMemo's
//     newest entry), a location shared with other threads, gone with the
//     memo at the thread's next synchronisation.
// A thread not met yet, or recording its accesses, has both off. Ignores
// leave them on: an access that changes nothing is skipped either way.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_INLINE_TEST_H
#define HRACE_INLINE_TEST_H

#include "../shadow/hrace_shadow_cell.h"
#include "hrace_interface.h"

namespace hrace {

// Where each test lies in __hrace_inline_test, as the pass reads it: a
// read's at 0 and 2, a write's at 4 and 6 (mask, then value).
enum InlineTestSlot : u32 {
  kReadTest = 0,
  kReadMemoTest = 2,
  kWriteTest = 4,
  kWriteMemoTest = 6,
};

ALWAYS_INLINE void SetInlineTest(InlineTestSlot slot, InlineNoopTest test) {
  __hrace_inline_test[slot] = test.mask;
  __hrace_inline_test[slot + 1] = test.value;
}

ALWAYS_INLINE bool InlineTestIsOn(InlineTestSlot slot) {
  return __hrace_inline_test[slot] != kInlineTestOff.mask;
}

// A cell value (not a granule cell: no mask) against the thread's memo
// inline test of the kind, for the values instrumented code's test never
// sees: a split granule's byte cells, the two cells of an access over both.
// The test compares state and aux and, for the shared states, leaves the
// segment out (MemoInlineTest), so the bytes of a split Shared-Read
// granule that differ only in the segment that shared each (an image read
// in three-byte pixels by two threads) pass it as one. Bits 60..63, a
// granule cell's mask and a value's top aux bits, are clear in every value
// a granule cell can hold: the value must have them clear too.
ALWAYS_INLINE bool ValuePassesMemoTest(u64 cell, bool write) {
  InlineTestSlot slot = write ? kWriteMemoTest : kReadMemoTest;
  u64 mask = __hrace_inline_test[slot] | (u64(0xf) << 60);
  return (cell & mask) == __hrace_inline_test[slot + 1];
}

// The memo tests go with the memo (NoopMemo::Invalidate).
ALWAYS_INLINE void DropInlineMemoTests() {
  SetInlineTest(kReadMemoTest, kInlineTestOff);
  SetInlineTest(kWriteMemoTest, kInlineTestOff);
}

// Every access of the thread calls the runtime until the next
// RefreshInlineTest (hrace_rtl.h).
ALWAYS_INLINE void TurnInlineTestsOff() {
  SetInlineTest(kReadTest, kInlineTestOff);
  SetInlineTest(kWriteTest, kInlineTestOff);
  DropInlineMemoTests();
}

} // namespace hrace

#endif // HRACE_INLINE_TEST_H
