//===-- hrace_id_set.cpp - Interned sets of small ids ---------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_id_set.h"

#include "hrace_alloc.h"
#include "hrace_libc.h"

namespace hrace {

namespace {
// Sets on the access path are small (the locks one thread holds at once).
constexpr u32 kMaxMembers = 256;
} // namespace

void IdSetTable::Init(u32 max_sets, SetId overflow_id, const char *what,
                      bool notice) {
  notice_ = notice;
  max_sets_ = max_sets;
  overflow_id_ = overflow_id;
  what_ = what;
  // The overflow id may lie beyond a lowered capacity (HRACE_SMALL_LIMITS).
  u32 ids = overflow_id >= max_sets ? overflow_id + 1 : max_sets;
  sets_ = static_cast<Set **>(
      MmapNoReserveOrDie(ids * sizeof(Set *), "interned set table"));
  buckets_ = static_cast<SetId *>(MmapNoReserveOrDie(
      2 * static_cast<uptr>(max_sets) * sizeof(SetId), "interned set buckets"));
  Set *empty = static_cast<Set *>(InternalCalloc(sizeof(Set)));
  StoreRelease(&sets_[kEmptySet], empty);
  if (overflow_id) {
    // The overflow set is never a real set; it holds no members.
    StoreRelease(&sets_[overflow_id], empty);
  }
}

u32 IdSetTable::Hash(const u32 *ids, u32 count) {
  u32 h = 2166136261u;
  for (u32 i = 0; i < count; i++)
    h = (h ^ ids[i]) * 16777619u;
  return h;
}

SetId IdSetTable::Intern(const u32 *ids, u32 count) {
  if (!count)
    return kEmptySet;
  u32 h = Hash(ids, count);
  u32 nbuckets = 2 * max_sets_;
  SpinMutexLock l(&mu_);
  u32 b = h % nbuckets;
  for (;; b = (b + 1) % nbuckets) {
    SetId id = buckets_[b];
    if (!id)
      break;
    const Set *s = sets_[id];
    if (s->hash == h && s->count == count &&
        !internal_memcmp(s->ids, ids, count * sizeof(u32)))
      return id;
  }
  if (count_ == overflow_id_)
    count_++;
  if (count_ >= max_sets_) {
    if (!overflow_id_)
      Die("HybridRace: more than %u distinct %s\n", max_sets_, what_);
    if (!overflowed_) {
      overflowed_ = true;
      if (notice_)
        Printf("HybridRace: more than %u distinct %s; new ones are unknown "
               "from here on\n",
               max_sets_ - 1, what_);
    }
    return overflow_id_;
  }
  Set *s =
      static_cast<Set *>(InternalAlloc(sizeof(Set) + (count - 1) * sizeof(u32)));
  s->count = count;
  s->hash = h;
  internal_memcpy(s->ids, ids, count * sizeof(u32));
  SetId id = count_++;
  // Readers look sets up without the mutex: publish the set before its id.
  StoreRelease(&sets_[id], s);
  buckets_[b] = id;
  return id;
}

const u32 *IdSetTable::Members(SetId id, u32 *count) const {
  const Set *s = LoadAcquire(&sets_[id]);
  *count = s->count;
  return s->ids;
}

bool IdSetTable::Contains(SetId set, u32 id) const {
  u32 n;
  const u32 *ids = Members(set, &n);
  for (u32 i = 0; i < n; i++)
    if (ids[i] == id)
      return true;
  return false;
}

SetId IdSetTable::Intersect(SetId a, SetId b) {
  if (a == overflow_id_ && overflow_id_)
    return b;
  if (b == overflow_id_ && overflow_id_)
    return a;
  u32 na, nb;
  const u32 *x = Members(a, &na);
  const u32 *y = Members(b, &nb);
  u32 out[kMaxMembers];
  u32 n = 0;
  for (u32 i = 0, j = 0; i < na && j < nb && n < kMaxMembers;) {
    if (x[i] < y[j]) {
      i++;
    } else if (y[j] < x[i]) {
      j++;
    } else {
      out[n++] = x[i];
      i++;
      j++;
    }
  }
  return Intern(out, n);
}

SetId IdSetTable::Insert(SetId set, u32 id) {
  if (set == overflow_id_ && overflow_id_)
    return set;
  u32 n;
  const u32 *ids = Members(set, &n);
  if (n >= kMaxMembers)
    return overflow_id_ ? overflow_id_ : set;
  u32 out[kMaxMembers];
  u32 k = 0;
  bool placed = false;
  for (u32 i = 0; i < n; i++) {
    if (!placed && id <= ids[i]) {
      if (id == ids[i])
        return set;
      out[k++] = id;
      placed = true;
    }
    out[k++] = ids[i];
  }
  if (!placed)
    out[k++] = id;
  return Intern(out, k);
}

SetId SetOpCache::Lookup(IdSetTable *table, Op op, u32 a, u32 b) {
  u64 key = (static_cast<u64>(op) << 62) | (static_cast<u64>(a) << 32) | b;
  u32 h = static_cast<u32>((key * 0x9E3779B97F4A7C15ull) >> 56) % kEntries;
  Entry &e = entries_[h];
  if (e.key == key)
    return e.value;
  SetId value =
      op == kIntersect ? table->Intersect(a, b) : table->Insert(a, b);
  e.key = key;
  e.value = value;
  return value;
}

} // namespace hrace
