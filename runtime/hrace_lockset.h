//===-- hrace_lockset.h - Interned lock sets ------------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A LockSet is a sorted set of lock ids (the M<n> names of mutexes). Sets are
// interned: equal sets share one LockSetId, so a shadow cell or a trace event
// holds a set in a few bits and comparing two sets is comparing two ids.
// Id 0 is the empty set.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_LOCKSET_H
#define HRACE_LOCKSET_H

#include "hrace_defs.h"
#include "hrace_mutex.h"

namespace hrace {

typedef u32 LockSetId;
typedef u32 LockId;
constexpr LockSetId kEmptyLockSet = 0;

class LockSetTable {
public:
  static constexpr u32 kMaxSets = 1 << 20;

  void Init();
  // `locks` must be sorted and free of duplicates.
  LockSetId Intern(const LockId *locks, u32 count);
  // The members of set `id`; valid for the life of the process.
  const LockId *Members(LockSetId id, u32 *count) const;

private:
  struct Set {
    u32 count;
    u32 hash;
    LockId locks[1];
  };
  static u32 Hash(const LockId *locks, u32 count);

  SpinMutex mu_;
  Set **sets_ = nullptr;
  // Open addressing from hash to id, 2x the id space so it never fills up.
  LockSetId *buckets_ = nullptr;
  u32 count_ = 1;
};

// The locks one thread holds, in acquisition order, and its two interned
// sets: all held locks (what protects a read) and write-held locks (what
// protects a write). The sets are computed only when asked for after a change.
class HeldLocks {
public:
  static constexpr u32 kMax = 64;

  void Add(LockId id, bool write);
  void Remove(LockId id);
  bool Holds(LockId id) const;
  LockSetId All(LockSetTable *table) {
    Refresh(table);
    return all_;
  }
  LockSetId WriteHeld(LockSetTable *table) {
    Refresh(table);
    return write_;
  }
  u32 count() const { return count_; }

private:
  void Refresh(LockSetTable *table);

  LockId ids_[kMax] = {};
  bool write_held_[kMax] = {};
  u32 count_ = 0;
  bool dirty_ = false;
  LockSetId all_ = kEmptyLockSet;
  LockSetId write_ = kEmptyLockSet;
};

} // namespace hrace

#endif // HRACE_LOCKSET_H
