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

void SegmentTable::Init(u32 pages_per_generation) {
  pages_per_generation_ = pages_per_generation < kMaxPagesPerGeneration
                              ? pages_per_generation
                              : kMaxPagesPerGeneration;
  // 12 bytes per page of both halves: 48 MiB of address space, backed only
  // as pages are handed out.
  pages_ = static_cast<Page *>(MmapNoReserveOrDie(
      2 * static_cast<uptr>(kMaxPagesPerGeneration) * sizeof(Page),
      "segment table"));
  state_ = 0;
}

SegmentId SegmentTable::Create(SegmentCursor *cursor, u32 slot, Clock clock,
                               u32 thread_id) {
  u64 state = LoadRelaxed(&state_);
  u32 generation = static_cast<u32>(state >> 32);
  if (cursor->next < cursor->end && cursor->next_clock == clock &&
      cursor->generation == generation && cursor->slot == slot &&
      cursor->thread_id == thread_id) {
    cursor->next_clock++;
    return cursor->next++;
  }
  state = __atomic_fetch_add(&state_, 1, __ATOMIC_RELAXED);
  generation = static_cast<u32>(state >> 32);
  u32 used = static_cast<u32>(state);
  if (UNLIKELY(used >= pages_per_generation_))
    return 0;
  u32 page = (generation & 1) * kMaxPagesPerGeneration + used;
  Page &p = pages_[page];
  StoreRelaxed(&p.slot, slot);
  StoreRelaxed(&p.first_clock, clock);
  StoreRelaxed(&p.thread_id, thread_id);
  u32 first = page << kSegmentPageBits;
  // Id 0 means "no segment".
  u32 id = first ? first : 1;
  if (!first)
    StoreRelaxed(&p.first_clock, clock - 1);
  cursor->next = id + 1;
  cursor->end = first + kSegmentsPerPage;
  cursor->next_clock = clock + 1;
  cursor->generation = generation;
  cursor->slot = slot;
  cursor->thread_id = thread_id;
  return id;
}

void SegmentTable::StartNextGeneration(u32 seen) {
  u64 state = LoadRelaxed(&state_);
  if (static_cast<u32>(state >> 32) != seen)
    return;
  StoreRelease(&state_, static_cast<u64>(seen + 1) << 32);
}

} // namespace hrace
