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
// Interning a new set takes a mutex; finding one that exists (in a table
// that is not recycled) and looking members up do not. Set operations are
// computed from the members and memoised per thread (SetOpCache), so a
// repeated intersection on the access path costs one cache lookup.
//
// A recycled table (thread sets) splits its ids into two halves, one per
// parity of the shadow's generation, and empties a half when a generation
// of its parity starts: as segment ids, an id keeps its meaning one
// generation after the one that made it. A full half asks for the next
// generation instead of giving up, so no number of sets exhausts it.
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
  // The largest set a recycled table holds: sets on the access path are
  // small (the locks one thread holds at once, the threads that shared a
  // location).
  static constexpr u32 kMaxMembers = 256;

  // Room for `max_sets` sets. When full, Intern returns `overflow_id`
  // (callers treat it as "unknown"); overflow_id 0 means dying is better.
  // `notice`: say once, on stderr, when the table fills up.
  void Init(u32 max_sets, SetId overflow_id, const char *what,
            bool notice = true);
  // Makes the table recycled (before any set is interned): ids of
  // generation g are [1, max_sets / 2) for even g, [max_sets / 2, max_sets)
  // for odd g. When the current half is full, Intern calls
  // `start_next_generation(g)` (without the table's mutex), which must make
  // StartGeneration(g + 1) happen unless another thread already did. Sets
  // have at most kMaxMembers members.
  typedef void (*GenerationHook)(u32 full_generation);
  void EnableRecycling(GenerationHook start_next_generation);
  // Generation g starts: its half is emptied (recycled tables only). Sets
  // of generation g - 1 keep their ids; those of g - 2 are gone.
  void StartGeneration(u32 generation);
  u32 generation() const { return LoadRelaxed(&generation_); }
  // `ids` must be sorted and free of duplicates.
  SetId Intern(const u32 *ids, u32 count);
  // The members of set `id`, sorted; valid for the life of the process
  // (recycled tables: until a generation of the same parity starts; a
  // reader that comes later reads bytes of the half's arena as a set, at
  // most kMaxMembers of them, never beyond the arena).
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
  // The id of the set `ids` in `buckets`, or kEmptySet and in `bucket` the
  // free bucket where it would go.
  SetId Find(const u32 *buckets, u32 nbuckets, u32 h, const u32 *ids, u32 count,
             u32 *bucket) const;
  // Where a new set of `count` members is stored under id `id` (mu_ held).
  Set *Storage(SetId id, u32 count);
  // The table is full: the overflow id, said once (mu_ held).
  SetId Full();

  SpinMutex mu_;
  Set **sets_ = nullptr;
  // Open addressing from hash to id, twice the id space so it never fills;
  // in a recycled table each half has its own max_sets_ buckets. A bucket
  // holds its set's id in the low bits and, in the bits no id uses
  // (tag_mask_), the same bits of its hash.
  u32 *buckets_ = nullptr;
  u32 tag_mask_ = 0;
  u32 max_sets_ = 0;
  // Each half's first id, the next free one and its end (a table that is
  // not recycled has one half), and the generation sets are made for.
  bool recycled_ = false;
  GenerationHook start_next_generation_ = nullptr;
  u32 half_begin_[2] = {};
  u32 half_next_[2] = {};
  u32 half_end_[2] = {};
  // A recycled table keeps each half's sets packed in an arena of its own,
  // emptied with the half: a lock set of two locks takes 16 bytes, where a
  // slot for the largest set took a kilobyte (a lock per tree node makes a
  // million such sets). A late reader of a recycled id reads some bytes of
  // the arena as a set, its count capped, never beyond the arena's end.
  char *arena_[2] = {};
  uptr arena_used_[2] = {};
  uptr arena_size_ = 0;
  u32 generation_ = 0;
  SetId overflow_id_ = 0;
  // The table has been full at least once (reported once, under mu_).
  bool overflowed_ = false;
  bool notice_ = true;
  const char *what_ = "";
};

// A small direct-mapped memo of set operations, one per thread (no locking).
class SetOpCache {
public:
  enum Op : u32 { kIntersect = 1, kInsert = 2, kPair = 3 };

  SetId Intersect(IdSetTable *table, SetId a, SetId b) {
    if (a == b || a == kEmptySet || b == kEmptySet)
      return a == b ? a : kEmptySet;
    return Lookup(table, kIntersect, a, b);
  }
  SetId Insert(IdSetTable *table, SetId set, u32 id) {
    return Lookup(table, kInsert, set, id);
  }
  // The set {a, b} (or {a}), interned without interning {a} on the way as
  // Insert(Insert(kEmptySet, a), b) would: ids are scarce where cells hold
  // them (hrace_shadow_cell.h).
  SetId Pair(IdSetTable *table, u32 a, u32 b) {
    return Lookup(table, kPair, a < b ? a : b, a < b ? b : a);
  }
  // Forgets every result: ids of a recycled table changed meaning.
  void Clear();

private:
  static constexpr u32 kEntries = 256;
  // The operands in `key`, the operation beside them (in what would be the
  // entry's padding): a pair's operands take all 64 bits.
  struct Entry {
    u64 key = 0;
    SetId value = 0;
    u32 op = 0;
  };
  SetId Lookup(IdSetTable *table, Op op, u32 a, u32 b);

  Entry entries_[kEntries] = {};
};

} // namespace hrace

#endif // HRACE_ID_SET_H
