//===-- hrace_lockset.h - The locks a thread holds -------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The locks a thread holds. Lock ids are the M<n> names of mutexes; lock sets
// are interned in an IdSetTable (hrace_id_set.h).
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_LOCKSET_H
#define HRACE_LOCKSET_H

#include "hrace_defs.h"
#include "hrace_id_set.h"

namespace hrace {

typedef SetId LockSetId;
typedef u32 LockId;
constexpr LockSetId kEmptyLockSet = kEmptySet;
// Lock set ids must fit the 20 bits a shared shadow cell gives them. The
// table is recycled with the shadow's generations (hrace_id_set.h): a
// program that makes ever new combinations (a lock per tree node, taken
// with a lock per item) starts a new generation when half the ids are used.
// The last id stands for a set that fits no half even so (a half filled
// twice over while one thread interns): it intersects as the set of every
// lock, so accesses under it never empty a candidate set, which costs
// missed lock-set violations, never false reports.
constexpr u32 kMaxLockSets = 1 << 20;
constexpr LockSetId kUnknownLockSet = kMaxLockSets - 1;

// The locks one thread holds, in acquisition order, and its two interned
// sets: all held locks (what protects a read) and write-held locks (what
// protects a write). The sets are computed only when asked for after a change.
class HeldLocks {
public:
  static constexpr u32 kMax = 64;

  // `single`: the interned set {id}, if the caller knows it (0 if not).
  // Inline, with Remove's usual case: every lock and unlock calls them.
  ALWAYS_INLINE void Add(LockId id, bool write,
                         LockSetId single = kEmptyLockSet) {
    if (count_ == kMax)
      return;
    ids_[count_] = id;
    write_held_[count_] = write;
    singles_[count_] = single;
    count_++;
    dirty_ = true;
  }
  ALWAYS_INLINE void Remove(LockId id) {
    // Locks are usually released in reverse order.
    if (LIKELY(count_ && ids_[count_ - 1] == id)) {
      count_--;
      dirty_ = true;
      return;
    }
    RemoveInside(id);
  }
  bool Holds(LockId id) const;
  // Inline: every slow-path access asks, and the sets rarely changed since.
  ALWAYS_INLINE LockSetId All(IdSetTable *table) {
    if (UNLIKELY(dirty_))
      Refresh(table);
    return all_;
  }
  ALWAYS_INLINE LockSetId WriteHeld(IdSetTable *table) {
    if (UNLIKELY(dirty_))
      Refresh(table);
    return write_;
  }
  u32 count() const { return count_; }
  // The table's ids of two generations ago name other sets now: the sets
  // are interned again when next asked for.
  void ForgetSets();

private:
  void RemoveInside(LockId id);
  void Refresh(IdSetTable *table);

  LockId ids_[kMax] = {};
  bool write_held_[kMax] = {};
  // Each held lock's set {id}, when Add was told it: one lock held (most
  // sections) then needs no table lookup, each a few cache misses (a lock
  // per node made them 8% of freqmine's time).
  LockSetId singles_[kMax] = {};
  u32 count_ = 0;
  bool dirty_ = false;
  LockSetId all_ = kEmptyLockSet;
  LockSetId write_ = kEmptyLockSet;
};

} // namespace hrace

#endif // HRACE_LOCKSET_H
