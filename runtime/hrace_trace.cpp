//===-- hrace_trace.cpp - Per-thread access history -----------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_trace.h"

#include "hrace_alloc.h"

namespace hrace {

void Trace::Init() {
  if (!events_)
    events_ = static_cast<Event *>(
        MmapNoReserveOrDie(kEvents * sizeof(Event), "thread trace"));
}

bool Trace::ReadEvent(u64 pos, AccessRecord *out, SegmentId *seg) const {
  const Event &e = events_[pos % kEvents];
  u64 stamp = LoadAcquire(&e.stamp);
  u64 seg_and_locks = LoadRelaxed(&e.seg_and_locks);
  u64 size_and_kind = LoadRelaxed(&e.size_and_kind);
  uptr ev_addr = LoadRelaxed(&e.addr);
  uptr ev_pc = LoadRelaxed(&e.pc);
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  // The owner has wrapped around onto this slot (or is writing it).
  if (stamp != pos + 1 || LoadRelaxed(&e.stamp) != stamp)
    return false;
  *seg = static_cast<SegmentId>(seg_and_locks & 0xffffffff);
  *out = {ev_addr,
          size_and_kind & ~(kWriteBit | kAtomicBit),
          ev_pc,
          (size_and_kind & kWriteBit) != 0,
          (size_and_kind & kAtomicBit) != 0,
          static_cast<LockSetId>(seg_and_locks >> 32)};
  return true;
}

bool Trace::FindAccess(SegmentId seg, uptr addr, uptr size, AccessKind kind,
                       AccessRecord *out) const {
  if (!events_)
    return false;
  u64 end = LoadAcquire(&pos_);
  u64 beg = end > kEvents ? end - kEvents : 0;
  // Events are appended in time order and the segment ids of a slot's
  // threads only grow, so the events of `seg` are one contiguous run. A race
  // on a large buffer asks once per byte: a binary search for the end of
  // the run keeps each question short. An event already overwritten counts
  // as older than every segment.
  u64 lo = beg, hi = end;
  while (lo < hi) {
    u64 mid = lo + (hi - lo) / 2;
    AccessRecord r;
    SegmentId s;
    if (!ReadEvent(mid, &r, &s) || s <= seg)
      lo = mid + 1;
    else
      hi = mid;
  }
  for (u64 pos = lo; pos-- > beg;) {
    AccessRecord r;
    SegmentId s;
    if (!ReadEvent(pos, &r, &s) || s != seg)
      return false;
    if ((kind != AccessKind::kAny && r.is_write != (kind == AccessKind::kWrite)) ||
        r.addr >= addr + size || addr >= r.addr + r.size)
      continue;
    *out = r;
    return true;
  }
  return false;
}

} // namespace hrace
