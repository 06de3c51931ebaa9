//===-- hrace_unwind.cpp - The real call stack ----------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_unwind.h"

#include <unwind.h>

namespace hrace {

namespace {

struct UnwindState {
  uptr from_pc;
  uptr *frames;
  u32 max;
  u32 n;
  bool found;
};

_Unwind_Reason_Code CollectFrame(struct _Unwind_Context *uc, void *arg) {
  UnwindState *st = static_cast<UnwindState *>(arg);
  uptr pc = _Unwind_GetIP(uc);
  if (!pc)
    return _URC_END_OF_STACK;
  // The runtime's own frames come first: they are skipped up to the one
  // that returns into the program.
  if (!st->found) {
    if (pc != st->from_pc)
      return _URC_NO_REASON;
    st->found = true;
  }
  st->frames[st->n++] = pc;
  return st->n < st->max ? _URC_NO_REASON : _URC_END_OF_STACK;
}

} // namespace

u32 UnwindStackFrom(uptr from_pc, uptr *frames, u32 max_frames) {
  if (!max_frames)
    return 0;
  UnwindState st = {from_pc, frames, max_frames, 0, false};
  _Unwind_Backtrace(CollectFrame, &st);
  return st.found ? st.n : 0;
}

} // namespace hrace
