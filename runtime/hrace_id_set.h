//===-- hrace_id_set.h - Interned sets of small ids -----------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Lock sets (sets of lock ids) and thread sets (sets of thread ids) are
// interned: equal sets share one id, so a shadow cell holds a set in a few
// bits and comparing two sets is comparing two ids. Id 0 is the empty set.
// Interning takes a mutex; looking members up does not. Set operations are
// computed from the members and memoised per thread (SetOpCache), so a
// repeated intersection on the access path costs one cache lookup.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_ID_SET_H
#define HRACE_ID_SET_H

#include "hrace_defs.h"
#include "hrace_mutex.h"

namespace hrace {

typedef u32 SetId;
constexpr SetId kEmptySet = 0;

class IdSetTable {
public:
  // Room for `max_sets` sets. When full, Intern returns `overflow_id`
  // (callers treat it as "unknown"); overflow_id 0 means dying is better.
  // `notice`: say once, on stderr, when the table fills up.
  void Init(u32 max_sets, SetId overflow_id, const char *what,
            bool notice = true);
  // `ids` must be sorted and free of duplicates.
  SetId Intern(const u32 *ids, u32 count);
  // The members of set `id`, sorted; valid for the life of the process.
  const u32 *Members(SetId id, u32 *count) const;
  bool Contains(SetId set, u32 id) const;
  SetId Intersect(SetId a, SetId b);
  SetId Insert(SetId set, u32 id);
  SetId overflow_id() const { return overflow_id_; }

private:
  struct Set {
    u32 count;
    u32 hash;
    u32 ids[1];
  };
  static u32 Hash(const u32 *ids, u32 count);

  SpinMutex mu_;
  Set **sets_ = nullptr;
  // Open addressing from hash to id, twice the id space so it never fills.
  SetId *buckets_ = nullptr;
  u32 max_sets_ = 0;
  u32 count_ = 1;
  SetId overflow_id_ = 0;
  // The table has been full at least once (reported once, under mu_).
  bool overflowed_ = false;
  bool notice_ = true;
  const char *what_ = "";
};

// A small direct-mapped memo of set operations, one per thread (no locking).
class SetOpCache {
public:
  enum Op : u64 { kIntersect = 1, kInsert = 2 };

  SetId Intersect(IdSetTable *table, SetId a, SetId b) {
    if (a == b || a == kEmptySet || b == kEmptySet)
      return a == b ? a : kEmptySet;
    return Lookup(table, kIntersect, a, b);
  }
  SetId Insert(IdSetTable *table, SetId set, u32 id) {
    return Lookup(table, kInsert, set, id);
  }

private:
  static constexpr u32 kEntries = 256;
  struct Entry {
    u64 key = 0;
    SetId value = 0;
  };
  SetId Lookup(IdSetTable *table, Op op, u32 a, u32 b);

  Entry entries_[kEntries] = {};
};

} // namespace hrace

#endif // HRACE_ID_SET_H
