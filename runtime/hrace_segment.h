//===-- hrace_segment.h - Thread segments ---------------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A thread segment is the stretch of one thread between two synchronisation
// events (seeds/000, 3.1). Each gets a global 30-bit SegmentId so that a
// shadow cell can name one in 30 bits; the table maps the id back to the
// thread slot and that slot's clock when the segment began. Then
//   segment S happens before thread t  <=>  t.vc[slot(S)] >= clock(S),
// one table load and one compare.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_SEGMENT_H
#define HRACE_SEGMENT_H

#include "../shadow/hrace_shadow_cell.h"
#include "hrace_defs.h"

namespace hrace {

struct SegmentInfo {
  u32 slot;
  u32 clock;
  // The thread's report name (T<n>); slots are reused, names are not.
  u32 thread_id;
};

class SegmentTable {
public:
  void Init();
  // Returns 0 when the id space is used up.
  SegmentId Create(u32 slot, u32 clock, u32 thread_id);
  // Entries are written once, before the id is published in any cell.
  SegmentInfo Get(SegmentId id) const {
    const SegmentInfo &s = infos_[id];
    return {LoadRelaxed(&s.slot), LoadRelaxed(&s.clock),
            LoadRelaxed(&s.thread_id)};
  }
  u32 count() const { return LoadRelaxed(&next_) - 1; }

private:
  SegmentInfo *infos_ = nullptr;
  u32 next_ = 1;
};

} // namespace hrace

#endif // HRACE_SEGMENT_H
