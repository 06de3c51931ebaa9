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
// inside a critical section of the lock, what the thread that wrote it knew
// when it left the section. A thread that later reads the location under
// the same lock may then be ordered after that writer (hrace_write_read.h
// says when, and for which memory).
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
// happens-before would not make, never a missed one. The first location
// lives in the lock's SyncObject: most locks guard one or two words, and a
// program with a lock per tree node has millions of them.
//
// Not thread-safe: the lock's SyncObject guards it with its mutex.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_LOCK_WRITES_H
#define HRACE_LOCK_WRITES_H

#include "hrace_clock_snapshot.h"
#include "hrace_defs.h"

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

  // Numbers a critical section that ends (and recorded something): later
  // sections get larger numbers.
  u32 EndSection() { return ++sections_; }
  // [addr, addr+size) was written in critical section number `seq`, which
  // a thread left knowing `clock`. `accumulate`: the section also read it.
  void Publish(uptr addr, uptr size, const ClockRef &clock, bool accumulate,
               u32 seq);

  // Calls fn(clock, seq) for each location overlapping [addr, addr+size),
  // with what its writers knew and the section that wrote it last.
  template <typename Fn> void ForEachWriter(uptr addr, uptr size, Fn fn) const {
    if (!count_)
      return;
    ForEachGranuleMask(addr, size, kMaxGranulesPerWrite,
                       [&](uptr granule, u8 mask) {
                         for (u32 i = First(granule); i != kNone; i = Next(i)) {
                           const Entry &e = At(i);
                           if (e.Granule() == granule && (e.Mask() & mask))
                             fn(e.clock, e.seq);
                         }
                       });
  }

  u32 size() const { return count_; }
  void Free();

private:
  static constexpr u8 kNone = 0xff;
  struct Entry {
    // The granule's address << 8 | the byte mask.
    uptr key = 0;
    ClockRef clock;
    u32 seq = 0;
    uptr Granule() const { return key >> 8; }
    u8 Mask() const { return static_cast<u8>(key); }
  };
  // Where the second and later locations go: capacity_ - 1 entries, then
  // chains by granule hash through all entries (first_ is entry 0): a head
  // per bucket and a next per entry, capacity_ of each.
  Entry *SpillEntries() const { return reinterpret_cast<Entry *>(spill_); }
  u8 *Heads() const {
    return reinterpret_cast<u8 *>(SpillEntries() + capacity_ - 1);
  }
  u8 *Nexts() const { return Heads() + capacity_; }
  // capacity_ is a power of two: one bucket per entry.
  u32 Bucket(uptr granule) const {
    return static_cast<u32>(((granule >> 3) * 0x9E3779B97F4A7C15ull) >> 32) &
           (capacity_ - 1);
  }
  u32 First(uptr granule) const {
    return spill_ ? Heads()[Bucket(granule)] : 0;
  }
  u32 Next(u32 i) const { return spill_ ? Nexts()[i] : kNone; }
  Entry &At(u32 i) { return i ? SpillEntries()[i - 1] : first_; }
  const Entry &At(u32 i) const { return i ? SpillEntries()[i - 1] : first_; }
  Entry *Find(uptr key);
  Entry *Insert(uptr key);
  void Grow();
  void Link(u32 i);
  void Unlink(u32 i);

  Entry first_;
  void *spill_ = nullptr;
  u16 count_ = 0;
  // Entries that fit without growing: first_ and the spill's.
  u16 capacity_ = 1;
  // Where the next insertion into a full map goes: the oldest entry.
  u16 next_evicted_ = 0;
  u32 sections_ = 0;
};

} // namespace hrace

#endif // HRACE_LOCK_WRITES_H
