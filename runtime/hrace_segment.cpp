//===-- hrace_segment.cpp - Thread segments -------------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_segment.h"

#include "hrace_alloc.h"

namespace hrace {

void SegmentTable::Init() {
  // 12 bytes per id of address space, backed only as ids are handed out.
  infos_ = static_cast<SegmentInfo *>(MmapNoReserveOrDie(
      (static_cast<uptr>(kMaxSegmentId) + 1) * sizeof(SegmentInfo),
      "segment table"));
}

SegmentId SegmentTable::Create(u32 slot, u32 clock, u32 thread_id) {
  u32 id = __atomic_fetch_add(&next_, 1, __ATOMIC_RELAXED);
  if (UNLIKELY(id > kMaxSegmentId))
    return 0;
  SegmentInfo &s = infos_[id];
  StoreRelaxed(&s.slot, slot);
  StoreRelaxed(&s.clock, clock);
  StoreRelaxed(&s.thread_id, thread_id);
  return id;
}

} // namespace hrace
