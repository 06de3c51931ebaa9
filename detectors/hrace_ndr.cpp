//===-- hrace_ndr.cpp - Non-deterministic reads: write dependencies -------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "hrace_ndr.h"

namespace hrace {

bool NdrHappensBefore(const NdrEpoch *a, const NdrEpoch *b) {
  if (a->thread_id == b->thread_id)
    return a->seq < b->seq;
  // The slot's previous owner, as the race checker's HappensBefore.
  if (a->slot == b->slot)
    return b->previous_owner_clock >= a->clock;
  return a->slot < b->vc_size && b->vc[a->slot] >= a->clock;
}

bool NdrBeforeEveryFutureEpoch(const NdrEpoch *e, const NdrFloor &floor) {
  if (e->slot >= floor.slot_count || floor.known[e->slot] < e->clock)
    return false;
  u32 owner = floor.owner[e->slot];
  return owner == NdrFloor::kNoThread || owner == e->thread_id ||
         floor.owner_previous[e->slot] >= e->clock;
}

LockId NdrCommonHolding(const NdrEpoch *a, const NdrEpoch *b) {
  if (a->thread_id != b->thread_id)
    return 0;
  for (u32 i = 0; i < a->lock_count; i++)
    for (u32 j = 0; j < b->lock_count; j++)
      if (a->locks[i].exclusive && a->locks[i].lock == b->locks[j].lock &&
          a->locks[i].acquisition == b->locks[j].acquisition)
        return a->locks[i].lock;
  return 0;
}

bool NdrHolds(const NdrEpoch *e, LockId l) {
  for (u32 i = 0; i < e->lock_count; i++)
    if (e->locks[i].exclusive && e->locks[i].lock == l)
      return true;
  return false;
}

namespace {

LockId FirstExclusive(const NdrEpoch *e) {
  for (u32 i = 0; i < e->lock_count; i++)
    if (e->locks[i].exclusive)
      return e->locks[i].lock;
  return 0;
}

bool HoldsAnyOf(const NdrEpoch *e, const NdrEpoch *of) {
  for (u32 i = 0; i < of->lock_count; i++)
    if (of->locks[i].exclusive && NdrHolds(e, of->locks[i].lock))
      return true;
  return false;
}

// Epoch `later` holds exclusively a lock that `earlier` held exclusively,
// in a later holding.
bool LaterHolding(const NdrEpoch *earlier, const NdrEpoch *later) {
  for (u32 i = 0; i < later->lock_count; i++)
    for (u32 j = 0; j < earlier->lock_count; j++)
      if (later->locks[i].exclusive && earlier->locks[j].exclusive &&
          later->locks[i].lock == earlier->locks[j].lock &&
          later->locks[i].acquisition > earlier->locks[j].acquisition)
        return true;
  return false;
}

// W's value (its bytes of `mask`) reaches D's point: W happens before D, or
// D is an update of those bytes in a later holding of a lock W was written
// under.
bool CarriedInto(const EpochVariable &w, const EpochVariable &d,
                 NdrBytes mask) {
  if (w.epoch == d.epoch)
    return false;
  if (NdrHappensBefore(w.epoch, d.epoch))
    return true;
  return NdrIsLockedUpdate(d, w.written & mask) &&
         LaterHolding(w.epoch, d.epoch);
}

} // namespace

bool NdrIsLockedUpdate(const EpochVariable &v, NdrBytes mask) {
  // v may be a running epoch's, whose thread adds reads without its
  // variable's lock (runtime/hrace_ndr.cpp): relaxed. The result is stable
  // all the same: a byte is read first only while the epoch has not written
  // it, and writes are added under the lock the caller holds, so the bytes
  // both read first and written are all there once written. The bytes
  // first: the epoch's locks are another cache line.
  return (LoadRelaxed(&v.read_first) & v.written & mask) &&
         FirstExclusive(v.epoch);
}

NdrBytes NdrUniformBytes(const EpochVariable &read, NdrBytes mask,
                         const EpochVariable *const *writes, u32 write_count) {
  NdrBytes lowest = mask & (~mask + 1);
  NdrBytes uniform = mask;
  // Keeps the bytes on lowest's side of `set`.
  auto split = [&](NdrBytes set) { uniform &= (set & lowest) ? set : ~set; };
  // Only an update of bytes left to split splits them (and only then are
  // the epoch's locks looked at).
  auto updated = [&](const EpochVariable &v) {
    return NdrIsLockedUpdate(v, uniform)
               ? LoadRelaxed(&v.read_first) & v.written
               : NdrBytes(0);
  };
  split(updated(read));
  for (u32 i = 0; i < write_count; i++) {
    split(writes[i]->written);
    split(updated(*writes[i]));
  }
  return uniform;
}

namespace {

NdrBytes RangeOf(const NdrAccessRecord &r) {
  return NdrBytesOf(r.begin, r.end - r.begin);
}

// Record r of a loop's access at [offset, end) grows into it: the two
// touch, and the record widened claims no other record's bytes (a record's
// range never spans bytes another access brought: they would be claimed by
// the wrong access).
bool GrowsInto(const NdrAccessRecord *records, u32 used, u32 r, u8 offset,
               u8 end) {
  if (offset > records[r].end || end < records[r].begin)
    return false;
  u8 begin = records[r].begin < offset ? records[r].begin : offset;
  u8 widened_end = records[r].end > end ? records[r].end : end;
  NdrBytes widened = NdrBytesOf(begin, widened_end - begin);
  for (u32 i = 0; i < used; i++)
    if (i != r && (RangeOf(records[i]) & widened))
      return false;
  return true;
}

void Widen(NdrAccessRecord *r, u8 offset, u8 end) {
  if (offset < r->begin)
    r->begin = offset;
  if (end > r->end)
    r->end = end;
}

} // namespace

void NdrRecordAccess(NdrAccessRecord *records, u32 count, u8 offset, u8 size,
                     StackId stack) {
  u8 end = static_cast<u8>(offset + size);
  u32 used = 0;
  while (used < count && records[used].stack)
    used++;
  for (u32 i = 0; i < used; i++)
    if (records[i].stack == stack && GrowsInto(records, used, i, offset, end)) {
      Widen(&records[i], offset, end);
      return;
    }
  if (used < count) {
    records[used] = {stack, offset, end, offset, size};
    return;
  }
  Widen(&records[count - 1], offset, end);
}

NdrBytes NdrRecordBytes(const NdrAccessRecord *records, u32 i) {
  NdrBytes bytes = RangeOf(records[i]);
  for (u32 j = 0; j < i; j++)
    bytes &= ~RangeOf(records[j]);
  return bytes;
}

const NdrAccessRecord &NdrWriteFor(const EpochVariable &v, NdrBytes mask) {
  u32 best = 0, best_count = 0;
  for (u32 i = 0; i < EpochVariable::kRecords && v.writes[i].stack; i++) {
    u32 count = static_cast<u32>(
        __builtin_popcountll(NdrRecordBytes(v.writes, i) & mask));
    if (count > best_count) {
      best = i;
      best_count = count;
    }
  }
  return v.writes[best];
}

u32 NdrWriteDependencies(const EpochVariable &read, bool after_own_write,
                         NdrBytes mask, const EpochVariable *const *writes,
                         u32 write_count, const EpochVariable **deps,
                         u32 max_deps) {
  constexpr u32 kMaxCandidates = 256;
  const EpochVariable *candidates[kMaxCandidates];
  u32 n = 0;
  const NdrEpoch *r = read.epoch;
  // Relevance. The epoch's own write precedes its reads after own write and
  // follows its first reads.
  for (u32 i = 0; i < write_count && n < kMaxCandidates; i++) {
    const EpochVariable *w = writes[i];
    if (!(w->written & mask))
      continue;
    if (w == &read ? !after_own_write : NdrHappensBefore(r, w->epoch))
      continue;
    candidates[n++] = w;
  }
  // Freedom: the newest own write under a holding that still lasts at the
  // read shuts out every other write under that lock.
  // The read's own epoch holds all its locks at its write and its read.
  const EpochVariable *own = nullptr;
  LockId held = 0;
  for (u32 i = 0; i < n; i++) {
    const EpochVariable *w = candidates[i];
    LockId l = w == &read ? FirstExclusive(r) : NdrCommonHolding(w->epoch, r);
    if (l && (!own || own->epoch->seq < w->epoch->seq)) {
      own = w;
      held = l;
    }
  }
  auto shut_out = [&](const EpochVariable *w) {
    if (!own || w == own)
      return false;
    return own == &read ? HoldsAnyOf(w->epoch, r) : NdrHolds(w->epoch, held);
  };
  bool update = !after_own_write && NdrIsLockedUpdate(read, mask);
  u32 kept = 0;
  for (u32 i = 0; i < n; i++) {
    const EpochVariable *w = candidates[i];
    if (shut_out(w))
      continue;
    // Updates: two read-modify-writes under one lock are serialised.
    if (update && w != &read && NdrIsLockedUpdate(*w, mask) &&
        HoldsAnyOf(w->epoch, r))
      continue;
    candidates[kept++] = w;
  }
  n = kept;
  // Directness: only the latest writes of the bytes read.
  u32 count = 0;
  for (u32 i = 0; i < n; i++) {
    const EpochVariable *w = candidates[i];
    NdrBytes bytes = w->written & mask;
    bool overwritten = false;
    for (u32 j = 0; j < n && !overwritten; j++) {
      const EpochVariable *d = candidates[j];
      overwritten =
          d != w && (d->written & bytes) == bytes && CarriedInto(*w, *d, mask);
    }
    if (!overwritten && count < max_deps)
      deps[count++] = w;
  }
  return count;
}

bool NdrIsParallel(const EpochVariable &read, const EpochVariable &dep) {
  return dep.epoch != read.epoch && !NdrHappensBefore(dep.epoch, read.epoch) &&
         !NdrHappensBefore(read.epoch, dep.epoch);
}

bool NdrIsNonDeterministic(const EpochVariable &read, NdrBytes mask,
                           const EpochVariable *const *deps, u32 count) {
  NdrBytes seen = 0;
  for (u32 i = 0; i < count; i++) {
    if (NdrIsParallel(read, *deps[i]))
      return true;
    // The bytes whose value this write gives: not those a later dependency
    // overwrote.
    NdrBytes bytes = deps[i]->written & mask;
    for (u32 j = 0; j < count; j++)
      if (j != i && CarriedInto(*deps[i], *deps[j], mask))
        bytes &= ~deps[j]->written;
    if (seen & bytes)
      return true;
    seen |= bytes;
  }
  return false;
}

} // namespace hrace
