//===-- hrace_trace.cpp - Per-thread access history -----------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_trace.h"

#include "hrace_alloc.h"
#include "hrace_lockset.h"

namespace hrace {

// An event keeps 20 bits of lock set id.
static_assert(kMaxLockSets == 1u << 20, "lock set ids fit an event");

void Trace::Init() {
  if (!events_)
    events_ = static_cast<Event *>(
        MmapNoReserveOrDie(kEvents * sizeof(Event), "thread trace"));
}

bool Trace::ReadEvent(u64 pos, AccessRecord *out, SegmentId *seg) const {
  const Event &e = events_[pos % kEvents];
  u64 stamp = LoadAcquire(&e.stamp);
  u64 meta = LoadRelaxed(&e.meta);
  u64 addr_and_size_high = LoadRelaxed(&e.addr_and_size_high);
  uptr ev_pc = LoadRelaxed(&e.pc);
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  // The owner has wrapped around onto this slot (or is writing it).
  if ((stamp & kStampPosMask) != ((pos + 1) & kStampPosMask) ||
      LoadRelaxed(&e.stamp) != stamp)
    return false;
  *seg = static_cast<SegmentId>(meta & kMaxSegmentId);
  *out = {addr_and_size_high & kAddrMask,
          ((addr_and_size_high >> kAddrBits) << kSizeLowBits) |
              (meta >> kSizeShift),
          ev_pc,
          static_cast<StackId>(stamp >> kStampPosBits),
          ((meta >> kWriteShift) & 1) != 0,
          ((meta >> kAtomicShift) & 1) != 0,
          static_cast<LockSetId>((meta >> kLocksShift) &
                                 ((1u << kLockSetBits) - 1))};
  return true;
}

void Trace::StartGeneration(u32 generation) {
  u32 n = start_count_;
  u32 last = n ? starts_[(n - 1) % kGenerationStarts].generation : 0;
  // A slot's next thread may start in the generation its last one ended in.
  if (last == generation)
    return;
  GenerationStart &s = starts_[n % kGenerationStarts];
  StoreRelaxed(&s.pos, pos_);
  StoreRelaxed(&s.generation, generation);
  StoreRelease(&start_count_, n + 1);
}

bool Trace::GenerationRange(u32 generation, u64 *beg_out,
                            u64 *end_out) const {
  if (!events_)
    return false;
  u64 end = LoadAcquire(&pos_);
  u64 beg = end > kEvents ? end - kEvents : 0;
  // Keep to the events of `generation`. A start the owner rewrites
  // meanwhile (eight generations later) can only mislead this search, and
  // a report then names no previous stack or a wrong one.
  u32 n = LoadAcquire(&start_count_);
  u32 first = n > kGenerationStarts ? n - kGenerationStarts : 0;
  bool known = first == 0 && generation == 0;
  for (u32 i = first; i < n; i++) {
    const GenerationStart &s = starts_[i % kGenerationStarts];
    u32 g = LoadRelaxed(&s.generation);
    u64 pos = LoadRelaxed(&s.pos);
    if (g > generation) {
      if (pos < end)
        end = pos;
      break;
    }
    known = g == generation;
    if (pos > beg)
      beg = pos;
  }
  *beg_out = beg;
  *end_out = end;
  return known && beg < end;
}

bool Trace::FindAccess(SegmentId seg, u32 generation, uptr addr, uptr size,
                       AccessKind kind, AccessRecord *out,
                       bool plain_only) const {
  u64 beg, end;
  if (!GenerationRange(generation, &beg, &end))
    return false;
  // Events are appended in time order and the segment ids of a slot's
  // threads only grow within a generation, so the events of `seg` are one
  // contiguous run. A race on a large buffer asks once per byte: a binary
  // search for the end of the run keeps each question short. An event
  // already overwritten counts as older than every segment.
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
    if (!Overlaps(r, kind, addr, size) || (plain_only && r.is_atomic))
      continue;
    *out = r;
    return true;
  }
  return false;
}

bool Trace::FindLatestAccess(u32 generation, uptr addr, uptr size,
                             AccessKind kind, AccessRecord *out, SegmentId *seg,
                             bool plain_only) const {
  u64 beg, end;
  if (!GenerationRange(generation, &beg, &end))
    return false;
  for (u64 pos = end; pos-- > beg;) {
    AccessRecord r;
    SegmentId s;
    if (!ReadEvent(pos, &r, &s))
      return false;
    if (!Overlaps(r, kind, addr, size) || (plain_only && r.is_atomic))
      continue;
    *out = r;
    *seg = s;
    return true;
  }
  return false;
}

} // namespace hrace
