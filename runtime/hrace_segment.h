//===-- hrace_segment.h - Thread segments ---------------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A thread segment is the stretch of one thread between two synchronisation
// events (seeds/000, 3.1). Each gets a 30-bit SegmentId so that a shadow
// cell can name one; the table maps the id back to the thread slot and that
// slot's clock when the segment began. Then
//   segment S happens before thread t  <=>  t.vc[slot(S)] >= clock(S),
// one table load and one compare.
//
// Memory stays flat however many segments a program makes:
//  - Ids come in pages of 256, one page per thread at a time. A thread's
//    consecutive segments have consecutive clocks, so one table entry per
//    page says what each of its ids stands for (12 bytes per 256 segments,
//    not per segment).
//  - Ids are never exhausted. They come in generations: each generation
//    uses one half of the id space (bit 29 is its parity), and when its
//    pages run out the shadow is cleared and the next generation starts in
//    the other half. An id of the previous generation that is still in a
//    thread's hands, or written by an access that was under way during the
//    clear, still means what it meant: its half is only reused one
//    generation later, after another clear.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_SEGMENT_H
#define HRACE_SEGMENT_H

#include "../shadow/hrace_shadow_cell.h"
#include "hrace_defs.h"

namespace hrace {

struct SegmentInfo {
  u32 slot;
  Clock clock;
  // The thread's report name (T<n>); slots are reused, names are not.
  u32 thread_id;
};

constexpr u32 kSegmentPageBits = 8;
constexpr u32 kSegmentsPerPage = 1u << kSegmentPageBits;
// Pages in one half of the id space.
constexpr u32 kMaxPagesPerGeneration = 1u
                                       << (kSegmentBits - 1 - kSegmentPageBits);

// A thread's page of ids: the next id and the clock it stands for.
struct SegmentCursor {
  u32 next = 0;
  u32 end = 0;
  Clock next_clock = 0;
  u32 generation = 0;
  // Whose page it is (a forked child's thread takes a new name).
  u32 slot = 0;
  u32 thread_id = 0;
};

// A page belongs to one thread: two ids in one page are segments of one
// thread, the larger the later. An id in the page of a thread's current
// segment is thus one of its own, known without a table load.
ALWAYS_INLINE bool InSamePage(SegmentId a, SegmentId b) {
  return ((a ^ b) >> kSegmentPageBits) == 0;
}

// The generation of `seg`, one of the current generation's or the one
// before (an id of two generations ago reads as one of the current).
ALWAYS_INLINE u32 GenerationOf(SegmentId seg, u32 current) {
  u32 parity = (seg >> (kSegmentBits - 1)) & 1;
  return parity == (current & 1) || current == 0 ? current : current - 1;
}

class SegmentTable {
public:
  // `pages_per_generation` (at most kMaxPagesPerGeneration) is lowered only
  // by tests, to reach a new generation quickly.
  void Init(u32 pages_per_generation = kMaxPagesPerGeneration);
  // The id of a new segment of thread T<thread_id> in `slot` at `clock`:
  // the cursor's next id if it continues the cursor's page, else the first
  // of a new page. 0 when the generation has no page left
  // (StartNextGeneration).
  SegmentId Create(SegmentCursor *cursor, u32 slot, Clock clock, u32 thread_id);
  // Page entries are written before any id of the page is handed out.
  SegmentInfo Get(SegmentId id) const {
    const Page &p = pages_[id >> kSegmentPageBits];
    return {LoadRelaxed(&p.slot),
            LoadRelaxed(&p.first_clock) + (id & (kSegmentsPerPage - 1)),
            LoadRelaxed(&p.thread_id)};
  }
  u32 generation() const {
    return static_cast<u32>(LoadRelaxed(&state_) >> 32);
  }
  // Starts generation `seen` + 1 unless another thread already did; the
  // caller has cleared the shadow (and holds the lock that orders clears).
  void StartNextGeneration(u32 seen);
  // Pages handed out in this generation.
  u32 pages_used() const { return static_cast<u32>(LoadRelaxed(&state_)); }

private:
  struct Page {
    Clock first_clock;
    u32 slot;
    u32 thread_id;
  };
  Page *pages_ = nullptr;
  u32 pages_per_generation_ = 0;
  // Generation in the high half, pages used in it in the low half: one
  // atomic add claims a page of exactly the generation it read.
  u64 state_ = 0;
};

} // namespace hrace

#endif // HRACE_SEGMENT_H
