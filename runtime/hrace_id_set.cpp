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

#include <sys/mman.h>

namespace hrace {

namespace {
// Smaller halves of buckets are cheaper to clear with memset.
constexpr uptr kMinMadviseBytes = 64 * 1024;
// A half that held this many sets per 4 KiB of its buckets has had nearly
// every page of them touched (1 - e^-4 = 98% of the pages, the hashes
// being uniform).
constexpr uptr kSetsPerTouchedPage = 4;
// A recycled table's sets are at most this large.
constexpr uptr kMaxSetBytes =
    2 * sizeof(u32) + IdSetTable::kMaxMembers * sizeof(u32);
} // namespace

void IdSetTable::Init(u32 max_sets, SetId overflow_id, const char *what,
                      bool notice) {
  notice_ = notice;
  max_sets_ = max_sets;
  overflow_id_ = overflow_id;
  what_ = what;
  half_begin_[0] = half_next_[0] = 1;
  half_end_[0] = max_sets;
  // The overflow id may lie beyond a lowered capacity (HRACE_SMALL_LIMITS).
  u32 ids = overflow_id >= max_sets ? overflow_id + 1 : max_sets;
  u32 id_bits = 32 - __builtin_clz(ids - 1 ? ids - 1 : 1);
  tag_mask_ = id_bits < 32 ? ~((1u << id_bits) - 1) : 0;
  sets_ = static_cast<Set **>(
      MmapNoReserveOrDie(ids * sizeof(Set *), "interned set table"));
  buckets_ = static_cast<u32 *>(MmapNoReserveOrDie(
      2 * static_cast<uptr>(max_sets) * sizeof(u32), "interned set buckets"));
  Set *empty = static_cast<Set *>(InternalCalloc(sizeof(Set)));
  StoreRelease(&sets_[kEmptySet], empty);
  if (overflow_id) {
    // The overflow set is never a real set; it holds no members.
    StoreRelease(&sets_[overflow_id], empty);
  }
}

void IdSetTable::EnableRecycling(GenerationHook start_next_generation) {
  recycled_ = true;
  start_next_generation_ = start_next_generation;
  u32 middle = max_sets_ / 2;
  half_end_[0] = half_begin_[1] = half_next_[1] = middle;
  half_end_[1] = max_sets_;
  // Room for every id of a half at its largest, and one set more: a late
  // reader's capped set that starts in the last bytes stays inside.
  arena_size_ = (static_cast<uptr>(middle) + 1) * kMaxSetBytes;
  for (char *&arena : arena_)
    arena = static_cast<char *>(
        MmapNoReserveOrDie(arena_size_, "recycled set arena"));
}

void IdSetTable::StartGeneration(u32 generation) {
  SpinMutexLock l(&mu_);
  if (generation <= generation_)
    return;
  if (recycled_) {
    u32 half = generation & 1;
    // A large half that held few sets goes back to the kernel as zero
    // pages; memset would commit every page of it (4 MiB for lock sets).
    // One that held many is cleared in place: its pages are committed
    // already and will all be touched again. Given back, each would cost
    // the zero page's mapping at the next generation's first find, then
    // its copy at the first insertion, which flushes the TLB of every core
    // the process runs on (freqmine fills the lock sets' half a few times,
    // a thousand copies each). (madvise refuses a range that is not on page
    // boundaries, whatever the kernel's page size: the memset is the
    // fallback.)
    uptr bucket_bytes = static_cast<uptr>(max_sets_) * sizeof(u32);
    u32 *half_buckets = buckets_ + half * max_sets_;
    uptr held = half_next_[half] - half_begin_[half];
    if (bucket_bytes < kMinMadviseBytes ||
        held >= kSetsPerTouchedPage * (bucket_bytes / 4096) ||
        madvise(half_buckets, bucket_bytes, MADV_DONTNEED) != 0)
      internal_memset(half_buckets, 0, bucket_bytes);
    half_next_[half] = half_begin_[half];
    // The half's sets go; their pages return to the kernel.
    if (arena_used_[half])
      madvise(arena_[half], arena_used_[half], MADV_DONTNEED);
    arena_used_[half] = 0;
  }
  // After the half is emptied: a lock-free find that sees the generation
  // unchanged did not search a half being emptied.
  StoreRelease(&generation_, generation);
}

u32 IdSetTable::Hash(const u32 *ids, u32 count) {
  u32 h = 2166136261u;
  for (u32 i = 0; i < count; i++)
    h = (h ^ ids[i]) * 16777619u;
  return h;
}

IdSetTable::Set *IdSetTable::Storage(SetId id, u32 count) {
  if (recycled_) {
    u32 half = id >= half_begin_[1];
    Set *s = reinterpret_cast<Set *>(arena_[half] + arena_used_[half]);
    arena_used_[half] += 2 * sizeof(u32) + count * sizeof(u32);
    return s;
  }
  return static_cast<Set *>(
      InternalAlloc(sizeof(Set) + (count - 1) * sizeof(u32)));
}

SetId IdSetTable::Find(const u32 *buckets, u32 nbuckets, u32 h, const u32 *ids,
                       u32 count, u32 *bucket) const {
  u32 tag = h & tag_mask_;
  // No division per step: a probe is a cache miss or less, a division
  // several times that.
  for (u32 b = h % nbuckets;; b = b + 1 == nbuckets ? 0 : b + 1) {
    u32 entry = LoadAcquire(&buckets[b]);
    if (!entry) {
      *bucket = b;
      return kEmptySet;
    }
    // Another set's bucket is passed over on its tag, without the two
    // cache misses of reading that set (freqmine: a million lock sets).
    if ((entry & tag_mask_) != tag)
      continue;
    SetId id = entry & ~tag_mask_;
    const Set *s = LoadAcquire(&sets_[id]);
    if (s->hash == h && LoadRelaxed(&s->count) == count &&
        !internal_memcmp(s->ids, ids, count * sizeof(u32)))
      return id;
  }
}

SetId IdSetTable::Intern(const u32 *ids, u32 count) {
  if (!count)
    return kEmptySet;
  if (recycled_ && count > kMaxMembers) {
    SpinMutexLock l(&mu_);
    return Full();
  }
  u32 h = Hash(ids, count);
  // A set that exists is found without the mutex: buckets only ever gain
  // ids, each published after its set (a program with a lock per node
  // interns its sections' lock sets from every thread at once). A recycled
  // table's half is emptied when the generation after next starts: a find
  // in the current half counts if the generation is the same after it.
  u32 unused;
  if (recycled_) {
    u32 generation = LoadAcquire(&generation_);
    SetId id = Find(buckets_ + (generation & 1) * max_sets_, max_sets_, h, ids,
                    count, &unused);
    // A seqlock's reader: the set's bytes were read before the generation
    // is read again (AArch64 may otherwise reorder them after it).
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (id && LoadRelaxed(&generation_) == generation)
      return id;
  } else {
    if (SetId id = Find(buckets_, 2 * max_sets_, h, ids, count, &unused))
      return id;
    // A full table (freqmine's lock per node fills it) has no room for the
    // new set: the overflow id, without the mutex and a second search.
    if (overflow_id_ && LoadRelaxed(&overflowed_))
      return overflow_id_;
  }
  // A recycled table asks for a new generation at most twice (another
  // thread may fill the fresh half first), then gives the overflow set.
  for (u32 attempt = 0;; attempt++) {
    u32 full_generation;
    {
      SpinMutexLock l(&mu_);
      u32 half = recycled_ ? generation_ & 1 : 0;
      // A recycled table looks in the current generation's half only: an
      // id of the previous one would outlive its generation in the cell
      // about to be written.
      u32 *buckets = recycled_ ? buckets_ + half * max_sets_ : buckets_;
      u32 nbuckets = recycled_ ? max_sets_ : 2 * max_sets_;
      u32 b;
      if (SetId id = Find(buckets, nbuckets, h, ids, count, &b))
        return id;
      if (half_next_[half] == overflow_id_)
        half_next_[half]++;
      if (half_next_[half] < half_end_[half]) {
        SetId id = half_next_[half]++;
        Set *s = Storage(id, count);
        StoreRelaxed(&s->count, count);
        s->hash = h;
        internal_memcpy(s->ids, ids, count * sizeof(u32));
        // Readers look sets up without the mutex: publish the set before
        // its id.
        StoreRelease(&sets_[id], s);
        StoreRelease(&buckets[b], id | (h & tag_mask_));
        return id;
      }
      if (!recycled_ || attempt == 2 || !start_next_generation_)
        return Full();
      full_generation = generation_;
    }
    start_next_generation_(full_generation);
  }
}

SetId IdSetTable::Full() {
  if (!overflow_id_)
    Die("HybridRace: more than %u distinct %s\n", max_sets_, what_);
  if (!overflowed_) {
    StoreRelaxed(&overflowed_, true);
    if (notice_ && recycled_)
      Printf("HybridRace: a set of %s did not fit (more than %u members, or "
             "a fresh half of the table filled at once); such sets count as "
             "unknown\n",
             what_, kMaxMembers);
    else if (notice_)
      Printf("HybridRace: more than %u distinct %s; new ones are unknown "
             "from here on\n",
             max_sets_ - 1, what_);
  }
  return overflow_id_;
}

const u32 *IdSetTable::Members(SetId id, u32 *count) const {
  const Set *s = LoadAcquire(&sets_[id]);
  u32 n = LoadRelaxed(&s->count);
  // A recycled id read late may show other bytes of its arena as a count.
  *count = n < kMaxMembers ? n : kMaxMembers;
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
  // One set within the other (a location's candidates under the locks that
  // protect it): the answer exists, no lookup needed.
  if (n == na)
    return a;
  if (n == nb)
    return b;
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

void SetOpCache::Clear() {
  for (Entry &e : entries_)
    e = Entry();
}

SetId SetOpCache::Lookup(IdSetTable *table, Op op, u32 a, u32 b) {
  u64 key = (static_cast<u64>(a) << 32) | b;
  u32 h =
      static_cast<u32>(((key ^ op) * 0x9E3779B97F4A7C15ull) >> 56) % kEntries;
  Entry &e = entries_[h];
  if (e.key == key && e.op == op)
    return e.value;
  SetId value;
  if (op == kIntersect) {
    value = table->Intersect(a, b);
  } else if (op == kInsert) {
    value = table->Insert(a, b);
  } else {
    u32 ids[2] = {a, b};
    value = table->Intern(ids, a == b ? 1 : 2);
  }
  e.key = key;
  e.value = value;
  e.op = op;
  return value;
}

} // namespace hrace
