//===-- hrace_vector_clock.h - Vector clocks ------------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A vector clock maps thread slots to logical clocks. It grows to the highest
// slot it has heard of, so a program with few threads pays for few entries.
// Not thread-safe: a thread's clock is touched only by that thread, a sync
// object's clock only under the sync object's mutex. Trivially destructible
// (it lives in __thread storage); owners call Free().
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_VECTOR_CLOCK_H
#define HRACE_VECTOR_CLOCK_H

#include "hrace_defs.h"

namespace hrace {

class VectorClock {
public:
  VectorClock() = default;
  VectorClock(const VectorClock &) = delete;
  VectorClock &operator=(const VectorClock &) = delete;

  Clock Get(u32 slot) const { return slot < size_ ? clocks_[slot] : 0; }
  // Inline: every unlock ticks the thread's own entry, which is there.
  ALWAYS_INLINE void Set(u32 slot, Clock clock) {
    if (UNLIKELY(slot >= size_))
      Grow(slot + 1);
    clocks_[slot] = clock;
  }
  // Pointwise maximum: afterwards this clock knows everything `other` knows.
  // Both return whether any entry grew.
  bool Join(const VectorClock &other);
  bool Join(const Clock *clocks, u32 size);
  void CopyFrom(const VectorClock &other);
  // True when every entry of this clock is <= the same entry of `other`.
  bool LessOrEqual(const VectorClock &other) const;
  void Reset() { size_ = 0; }
  void Free();
  u32 size() const { return size_; }

private:
  // Room for `size` entries, the first size_ kept.
  void Reserve(u32 size) {
    if (size > capacity_)
      Reallocate(size);
  }
  void Reallocate(u32 size);
  // size_ becomes `size` (if larger), the new entries 0.
  void Grow(u32 size);

  Clock *clocks_ = nullptr;
  u32 size_ = 0;
  u32 capacity_ = 0;
};

} // namespace hrace

#endif // HRACE_VECTOR_CLOCK_H
