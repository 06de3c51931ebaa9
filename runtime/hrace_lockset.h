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
// Lock set ids must fit the 20 bits a shared shadow cell gives them.
constexpr u32 kMaxLockSets = 1 << 20;

// The locks one thread holds, in acquisition order, and its two interned
// sets: all held locks (what protects a read) and write-held locks (what
// protects a write). The sets are computed only when asked for after a change.
class HeldLocks {
public:
  static constexpr u32 kMax = 64;

  void Add(LockId id, bool write);
  void Remove(LockId id);
  bool Holds(LockId id) const;
  LockSetId All(IdSetTable *table) {
    Refresh(table);
    return all_;
  }
  LockSetId WriteHeld(IdSetTable *table) {
    Refresh(table);
    return write_;
  }
  u32 count() const { return count_; }

private:
  void Refresh(IdSetTable *table);

  LockId ids_[kMax] = {};
  bool write_held_[kMax] = {};
  u32 count_ = 0;
  bool dirty_ = false;
  LockSetId all_ = kEmptyLockSet;
  LockSetId write_ = kEmptyLockSet;
};

} // namespace hrace

#endif // HRACE_LOCKSET_H
