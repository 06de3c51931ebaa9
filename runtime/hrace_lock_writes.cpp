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

LockWrites::Entry *LockWrites::Find(uptr key) {
  for (u32 i = First(key >> 8); count_ && i != kNone; i = Next(i))
    if (At(i).key == key)
      return &At(i);
  return nullptr;
}

void LockWrites::Link(u32 i) {
  u8 &head = Heads()[Bucket(At(i).Granule())];
  Nexts()[i] = head;
  head = static_cast<u8>(i);
}

void LockWrites::Unlink(u32 i) {
  u8 *link = &Heads()[Bucket(At(i).Granule())];
  while (*link != i)
    link = &Nexts()[*link];
  *link = Nexts()[i];
}

void LockWrites::Grow() {
  u32 cap = capacity_ * 2;
  Entry *old = spill_ ? SpillEntries() : nullptr;
  void *spill = InternalAlloc((cap - 1) * sizeof(Entry) + 2 * cap);
  // A ClockRef is a pointer and two numbers: moving its bytes moves it.
  if (old)
    internal_memcpy(spill, old, (count_ - 1) * sizeof(Entry));
  InternalFree(old);
  spill_ = spill;
  capacity_ = static_cast<u16>(cap);
  internal_memset(Heads(), kNone, cap);
  for (u32 i = 0; i < count_; i++)
    Link(i);
}

LockWrites::Entry *LockWrites::Insert(uptr key) {
  if (count_ == capacity_ && capacity_ < kMaxEntries)
    Grow();
  u32 i;
  if (count_ < capacity_) {
    i = count_++;
    new (&At(i)) Entry();
  } else {
    // Full: the entries were appended in order, so the next one round the
    // ring is the oldest.
    i = next_evicted_;
    next_evicted_ = static_cast<u16>((next_evicted_ + 1) % capacity_);
    Unlink(i);
  }
  At(i).key = key;
  if (spill_)
    Link(i);
  return &At(i);
}

void LockWrites::Publish(uptr addr, uptr size, const ClockRef &clock,
                         bool accumulate, u32 seq) {
  ForEachGranuleMask(addr, size, kMaxGranulesPerWrite, [&](uptr g, u8 mask) {
    uptr key = g << 8 | mask;
    Entry *e = Find(key);
    if (e && accumulate) {
      e->clock.Join(clock);
    } else {
      if (!e)
        e = Insert(key);
      e->clock.Assign(clock);
    }
    e->seq = seq;
  });
}

void LockWrites::Free() {
  for (u32 i = 0; i < count_; i++)
    At(i).clock.Reset();
  InternalFree(spill_);
  spill_ = nullptr;
  count_ = next_evicted_ = 0;
  capacity_ = 1;
  sections_ = 0;
}

} // namespace hrace
