//===-- hrace_lock_writes.cpp - What the critical sections of a lock wrote ===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_lock_writes.h"

#include "hrace_alloc.h"
#include "hrace_libc.h"

#include <new>

namespace hrace {

LockWrites::Entry *LockWrites::Find(uptr granule, u8 mask) {
  for (u32 i = 0; i < count_; i++)
    if (entries_[i].granule == granule && entries_[i].mask == mask)
      return &entries_[i];
  return nullptr;
}

LockWrites::Entry *LockWrites::Insert(uptr granule, u8 mask) {
  if (count_ == capacity_ && capacity_ < kMaxEntries) {
    u32 cap = capacity_ ? capacity_ * 2 : 2;
    Entry *entries = static_cast<Entry *>(InternalCalloc(cap * sizeof(Entry)));
    // A VectorClock owns a heap array through a plain pointer: moving its
    // bytes moves it.
    if (count_)
      internal_memcpy(entries, entries_, count_ * sizeof(Entry));
    InternalFree(entries_);
    entries_ = entries;
    capacity_ = cap;
  }
  Entry *e;
  if (count_ < capacity_) {
    e = new (&entries_[count_++]) Entry();
  } else {
    // Full: the entries were appended in order, so the next one round the
    // ring is the oldest; its clock's storage is reused.
    e = &entries_[next_evicted_];
    next_evicted_ = (next_evicted_ + 1) % capacity_;
  }
  e->granule = granule;
  e->mask = mask;
  return e;
}

void LockWrites::Publish(uptr addr, uptr size, const VectorClock &clock,
                         bool accumulate) {
  ForEachGranuleMask(addr, size, kMaxGranulesPerWrite, [&](uptr g, u8 mask) {
    Entry *e = Find(g, mask);
    if (e && accumulate) {
      e->clock.Join(clock);
    } else {
      if (!e)
        e = Insert(g, mask);
      e->clock.CopyFrom(clock);
    }
    filter_ |= FilterBit(g);
  });
}

void LockWrites::Free() {
  for (u32 i = 0; i < count_; i++)
    entries_[i].clock.Free();
  InternalFree(entries_);
  entries_ = nullptr;
  count_ = capacity_ = next_evicted_ = 0;
  filter_ = 0;
}

} // namespace hrace
