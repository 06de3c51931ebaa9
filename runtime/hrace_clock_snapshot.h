//===-- hrace_clock_snapshot.h - Shared, immutable copies of vector clocks ===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The write/read relations keep what a thread knew when it left a critical
// section, for every location it wrote there and for every hand-off edge.
// A copy of its vector clock each time would cost an allocation per
// location per unlock (a program with a lock per tree node held a gigabyte
// of them). But between two acquires a thread's clock changes only in its
// own entry. So a thread keeps one ClockSnapshot of its clock, renewed after
// it acquires something, and a point of its history is a ClockRef: that
// snapshot plus its own slot and clock at the point. Thousands of locations
// share one snapshot by reference count.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_CLOCK_SNAPSHOT_H
#define HRACE_CLOCK_SNAPSHOT_H

#include "hrace_defs.h"
#include "hrace_vector_clock.h"

namespace hrace {

class ClockRef;

// Immutable once made; freed by the last Unref, from any thread.
class ClockSnapshot {
public:
  // refs = 1.
  static ClockSnapshot *Make(const VectorClock &clock);
  static ClockSnapshot *MakeJoin(const ClockRef &a, const ClockRef &b);
  // a ⊔ b into this snapshot, when its one reference is `a`'s and it has
  // room: a counter changed by turns keeps one snapshot, not one per turn.
  bool JoinInPlace(const ClockRef &a, const ClockRef &b);
  void Ref() { __atomic_fetch_add(&refs_, 1, __ATOMIC_RELAXED); }
  void Unref();
  Clock Get(u32 slot) const { return slot < size_ ? clocks_[slot] : 0; }
  u32 size() const { return size_; }
  const Clock *clocks() const { return clocks_; }

private:
  u32 refs_;
  u32 size_;
  Clock clocks_[1];
};

// What a thread knew at one point: its snapshot, and its own clock then
// (newer than the snapshot's entry for its slot). A null base knows nothing.
// Not thread-safe: an owner (a lock's map, a thread's edges) holds it.
class ClockRef {
public:
  ClockRef() = default;
  ClockRef(const ClockRef &) = delete;
  ClockRef &operator=(const ClockRef &) = delete;

  Clock Get(u32 slot) const {
    Clock known = base() ? base()->Get(slot) : 0;
    return slot == this->slot() && clock_ > known ? clock_ : known;
  }
  // Every entry <= the same entry of `clock` (of `other`).
  bool KnownBy(const VectorClock &clock) const;
  bool KnownBy(const ClockRef &other) const;
  // One more than the highest slot it has an entry for.
  u32 size() const {
    u32 n = base() ? base()->size() : 0;
    return slot() + 1 > n ? slot() + 1 : n;
  }
  // Becomes a reference to what `other` refers to.
  void Assign(const ClockRef &other);
  void Assign(ClockSnapshot *base, u32 slot, Clock clock);
  // The same snapshot, at a later point of its owner (`slot`): the thread
  // made no acquire since it was taken.
  void AdvanceOwnClock(u32 slot, Clock clock) {
    SetBaseAndSlot(base(), slot);
    clock_ = clock;
  }
  // Becomes this ⊔ other (a new snapshot, unless one already knows the
  // other's).
  void Join(const ClockRef &other);
  // Adds what it knows to `clock`.
  // Returns whether `clock` grew.
  bool JoinInto(VectorClock *clock) const;
  void Reset();
  bool empty() const { return !base(); }
  // Refers to the same snapshot, slot and clock as `other`.
  bool SameAs(const ClockRef &other) const {
    return base_and_slot_ == other.base_and_slot_ && clock_ == other.clock_;
  }

private:
  // The snapshot's address in the low 48 bits (user-space pointers have
  // no more, on x86-64 and AArch64) and the slot (kMaxThreadSlots is 2^16)
  // in the high 16: 16 bytes with a 64-bit clock, not 24. Hand-off edges
  // and every location a lock's sections wrote hold one (a lock per node:
  // freqmine kept 263 MB more with the 24-byte form).
  static constexpr u32 kSlotShift = 48;
  ClockSnapshot *base() const {
    return reinterpret_cast<ClockSnapshot *>(base_and_slot_ &
                                             ((1ull << kSlotShift) - 1));
  }
  u32 slot() const { return static_cast<u32>(base_and_slot_ >> kSlotShift); }
  void SetBaseAndSlot(ClockSnapshot *base, u32 slot) {
    base_and_slot_ =
        reinterpret_cast<u64>(base) | (static_cast<u64>(slot) << kSlotShift);
  }

  u64 base_and_slot_ = 0;
  Clock clock_ = 0;
};

static_assert(sizeof(ClockRef) == 16, "a slot, a clock and a snapshot");

} // namespace hrace

#endif // HRACE_CLOCK_SNAPSHOT_H
