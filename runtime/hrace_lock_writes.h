//===-- hrace_lock_writes.h - What the critical sections of a lock wrote --===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// DS of the write/read relations (seeds/000, figure 6), kept per lock and
// filled at every unlock, not only at a signal: for each location written
// inside a critical section of the lock, the clock of the thread that wrote
// it, as it was when it left the section. A thread that later reads the
// location under the same lock may then be ordered after that writer
// (hrace_write_read.h says when, and for which memory).
//
// A location is an 8-byte granule and a byte mask, so two flags in one word
// stay apart. A writer that also read the bytes in the same section (a
// read-modify-write: a counter, a reference count) joins its clock into the
// one already there, as a read-modify-write continues a release sequence:
// whoever reads the count later is ordered after every thread that changed
// it, not only the last one. A plain write replaces the clock.
//
// Bounded: at most kMaxEntries locations per lock, the oldest forgotten
// first. A forgotten location creates no edge: at worst a report that pure
// happens-before would not make, never a missed one.
//
// Not thread-safe: the lock's SyncObject guards it with its mutex.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_LOCK_WRITES_H
#define HRACE_LOCK_WRITES_H

#include "hrace_defs.h"
#include "hrace_vector_clock.h"

namespace hrace {

constexpr uptr kRelationGranule = 8;

// Calls fn(granule, mask) for each 8-byte granule [addr, addr+size) touches,
// with the mask of the bytes it touches there; at most `max_granules` calls.
template <typename Fn>
void ForEachGranuleMask(uptr addr, uptr size, uptr max_granules, Fn fn) {
  uptr end = addr + size;
  uptr n = 0;
  for (uptr g = addr & ~(kRelationGranule - 1); g < end && n < max_granules;
       g += kRelationGranule, n++) {
    uptr beg = addr > g ? addr - g : 0;
    uptr last = end - g < kRelationGranule ? end - g : kRelationGranule;
    fn(g, static_cast<u8>(((1u << last) - 1) & ~((1u << beg) - 1)));
  }
}

class LockWrites {
public:
  static constexpr u32 kMaxEntries = 64;
  // A long write (memcpy, memset) is kept by its first granules only.
  static constexpr uptr kMaxGranulesPerWrite = 8;

  // [addr, addr+size) was written in a critical section that a thread left
  // with `clock`. `accumulate`: the section also read it.
  void Publish(uptr addr, uptr size, const VectorClock &clock,
               bool accumulate);

  // Calls fn(clock) for each location overlapping [addr, addr+size), with
  // the clock its writers left.
  template <typename Fn>
  void ForEachWriter(uptr addr, uptr size, Fn fn) const {
    ForEachGranuleMask(addr, size, kMaxGranulesPerWrite,
                       [&](uptr granule, u8 mask) {
                         if (!(filter_ & FilterBit(granule)))
                           return;
                         for (u32 i = 0; i < count_; i++) {
                           const Entry &e = entries_[i];
                           if (e.granule == granule && (e.mask & mask))
                             fn(e.clock);
                         }
                       });
  }

  u32 size() const { return count_; }
  void Free();

private:
  struct Entry {
    uptr granule;
    u8 mask;
    VectorClock clock;
  };
  static u64 FilterBit(uptr granule) {
    return u64(1) << ((granule >> 3) * 0x9E3779B97F4A7C15ull >> 58);
  }
  Entry *Find(uptr granule, u8 mask);
  Entry *Insert(uptr granule, u8 mask);

  Entry *entries_ = nullptr;
  u32 count_ = 0;
  u32 capacity_ = 0;
  // Where the next insertion into a full map goes: the oldest entry.
  u32 next_evicted_ = 0;
  // One bit per granule hash ever published: a read of a granule never
  // written under the lock is answered without a scan.
  u64 filter_ = 0;
};

} // namespace hrace

#endif // HRACE_LOCK_WRITES_H
