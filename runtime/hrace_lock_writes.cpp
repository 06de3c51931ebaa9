//===-- hrace_lock_writes.cpp - What the critical sections of a lock wrote ===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_lock_writes.h"

#include "hrace_alloc.h"
#include "hrace_libc.h"

#include <new>

namespace hrace {

namespace {
// Capacities grow by half (2, 3, 4, 6, 8, 12, ...), not doubling: most locks
// keep a handful of locations, and the block is sized to them.
u32 Grown(u32 capacity, u32 limit) {
  u32 next = capacity < 2 ? capacity + 1 : capacity + capacity / 2;
  return next < limit ? next : limit;
}
} // namespace

void LockWrites::Link(u32 i) {
  u8 &head = Heads()[Bucket(GranuleOf(Entries()[i]))];
  Nexts()[i] = head;
  head = static_cast<u8>(i);
}

void LockWrites::Unlink(u32 i) {
  u8 *link = &Heads()[Bucket(GranuleOf(Entries()[i]))];
  while (*link != i)
    link = &Nexts()[*link];
  *link = Nexts()[i];
}

u32 LockWrites::Find(u64 key) const {
  const u64 *entries = Entries();
  if (Indexed()) {
    for (u32 i = Heads()[Bucket(GranuleOf(key))]; i != kNone; i = Nexts()[i])
      if ((entries[i] & kKeyMask) == key)
        return i;
    return count_;
  }
  for (u32 i = 0; i < count_; i++)
    if ((entries[i] & kKeyMask) == key)
      return i;
  return count_;
}

void LockWrites::Grow(u32 entries, u32 records) {
  uptr index = entries > kLinearEntries ? BucketsFor(entries) + entries : 0;
  void *block =
      InternalAlloc(records * sizeof(Record) + entries * sizeof(u64) + index);
  Record *fresh_records = static_cast<Record *>(block);
  // A ClockRef is a pointer and two numbers: moving its bytes moves it.
  if (block_)
    internal_memcpy(fresh_records, Records(),
                    record_capacity_ * sizeof(Record));
  for (u32 i = record_capacity_; i < records; i++)
    new (&fresh_records[i]) Record();
  u64 *fresh_entries = reinterpret_cast<u64 *>(fresh_records + records);
  if (block_)
    internal_memcpy(fresh_entries, Entries(), count_ * sizeof(u64));
  InternalFree(block_);
  block_ = block;
  entry_capacity_ = static_cast<u8>(entries);
  record_capacity_ = static_cast<u8>(records);
  if (Indexed()) {
    internal_memset(Heads(), kNone, BucketsFor(entries));
    for (u32 i = 0; i < count_; i++)
      Link(i);
  }
}

u32 LockWrites::Insert(u64 key) {
  // The first location comes with room for its record: one block.
  if (count_ == entry_capacity_ && entry_capacity_ < kMaxEntries)
    Grow(Grown(entry_capacity_, kMaxEntries),
         record_capacity_ ? record_capacity_ : 1);
  u32 i;
  if (count_ < entry_capacity_) {
    i = count_++;
  } else {
    // Full: the entries were appended in order, so the next one round the
    // ring is the oldest.
    i = next_evicted_;
    next_evicted_ = static_cast<u8>((next_evicted_ + 1) % entry_capacity_);
    FoldEvicted(i);
    Unref(RecordOf(Entries()[i]));
    if (Indexed())
      Unlink(i);
  }
  Entries()[i] = key;
  if (Indexed())
    Link(i);
  return i;
}

u32 LockWrites::FreeRecord() {
  for (u32 r = 0; r < record_capacity_; r++)
    if (!Records()[r].refs)
      return r;
  // Every record is used by a location or is the evicted summary, so there
  // are fewer than kMaxEntries + 2 of them.
  u32 r = record_capacity_;
  Grow(entry_capacity_, Grown(record_capacity_, kMaxEntries + 2));
  return r;
}

u32 LockWrites::NewSummary() {
  u32 r = FreeRecord();
  Records()[r].refs = 1;
  Records()[r].seq = 0;
  return r;
}

void LockWrites::FoldEvicted(u32 i) {
  u64 e = Entries()[i];
  if (evicted_record_ == kNone) {
    evicted_record_ = static_cast<u8>(NewSummary());
    evicted_plain_record_ = static_cast<u8>(NewSummary());
  }
  const Record &gone = Records()[RecordOf(e)];
  auto fold = [](Record *summary, const ClockRef &clock, u32 seq) {
    summary->clock.Join(clock);
    if (seq > summary->seq)
      summary->seq = seq;
  };
  fold(&Records()[evicted_record_], gone.clock, gone.seq);
  // A record joined into by a later section keeps its plain writer apart.
  if (gone.replaced.empty())
    fold(&Records()[evicted_plain_record_], gone.clock, gone.seq);
  else
    fold(&Records()[evicted_plain_record_], gone.replaced, gone.replaced_seq);
  evicted_filter_ |= FilterBit(GranuleOf(e));
}

void LockWrites::SetRecord(u32 entry, u32 record) {
  u64 &e = Entries()[entry];
  e = (e & kKeyMask) | static_cast<u64>(record) << kRecordShift;
  Records()[record].refs++;
}

void LockWrites::Unref(u32 record) {
  Record &r = Records()[record];
  if (--r.refs == 0)
    r.ResetClocks();
}

void LockWrites::Publish(uptr addr, uptr size, const ClockRef &clock,
                         bool accumulate, u32 seq) {
  if (size >
      kMaxGranulesPerWrite * kRelationGranule - (addr & (kRelationGranule - 1)))
    MarkLost();
  ForEachGranuleMask(addr, size, kMaxGranulesPerWrite, [&](uptr g, u8 mask) {
    u64 key = KeyOf(g, mask);
    u32 i = block_ ? Find(key) : count_;
    if (i < count_ && accumulate) {
      u32 old = RecordOf(Entries()[i]);
      if (Records()[old].refs > 1) {
        // Shared with other locations of its section: this one's joined
        // clock is its own.
        u32 mine = FreeRecord();
        Record &from = Records()[old];
        Record &to = Records()[mine];
        to.clock.Assign(from.clock);
        to.replaced.Assign(from.replaced);
        to.seq = from.seq;
        to.replaced_seq = from.replaced_seq;
        Unref(old);
        SetRecord(i, mine);
        old = mine;
      }
      Record &r = Records()[old];
      // The first join of a later section: what the plain writer knew is
      // kept for the readers between the two.
      if (r.replaced.empty() && r.seq != seq) {
        r.replaced.Assign(r.clock);
        r.replaced_seq = r.seq;
      }
      r.clock.Join(clock);
      r.seq = seq;
      return;
    }
    u32 r = last_record_;
    bool same_section;
    if (i < count_) {
      u32 old = RecordOf(Entries()[i]);
      same_section = SharesSection(r, clock, seq);
      if (same_section && r == old)
        return;
      // Its own record takes the new clock in place: a location written
      // again at each unlock (a flag, a pointer) then drops no reference to
      // take one again, two locked instructions of a lock/unlock's few.
      if (!same_section && Records()[old].refs == 1) {
        Record &mine = Records()[old];
        mine.clock.Assign(clock);
        mine.replaced.Reset();
        mine.seq = mine.replaced_seq = seq;
        last_record_ = static_cast<u8>(old);
        return;
      }
      Unref(old);
    } else {
      i = Insert(key);
      // After the insertion: an eviction may have freed the last record.
      same_section = SharesSection(r, clock, seq);
    }
    if (!same_section) {
      r = FreeRecord();
      Records()[r].clock.Assign(clock);
      Records()[r].seq = Records()[r].replaced_seq = seq;
      last_record_ = static_cast<u8>(r);
    }
    SetRecord(i, r);
  });
}

bool LockWrites::SharesSection(u32 r, const ClockRef &clock, u32 seq) const {
  return r < record_capacity_ && r != evicted_record_ &&
         r != evicted_plain_record_ && Records()[r].refs &&
         Records()[r].seq == seq && Records()[r].replaced.empty() &&
         Records()[r].clock.SameAs(clock);
}

bool LockWrites::WritesOfGranuleKnownBy(uptr granule,
                                        const VectorClock &clock) const {
  if (lost_)
    return false;
  bool any = false, known = true;
  ForEachRecord(granule, kRelationGranule, [&](const Record &r) {
    any = true;
    known = known && r.clock.KnownBy(clock);
  });
  if (evicted_record_ != kNone && (evicted_filter_ & FilterBit(granule))) {
    any = true;
    known = known && Records()[evicted_record_].clock.KnownBy(clock);
  }
  return any && known;
}

void LockWrites::Free() {
  for (u32 r = 0; r < record_capacity_; r++)
    if (Records()[r].refs)
      Records()[r].ResetClocks();
  InternalFree(block_);
  block_ = nullptr;
  count_ = entry_capacity_ = record_capacity_ = next_evicted_ = 0;
  last_record_ = 0;
  evicted_record_ = evicted_plain_record_ = kNone;
  evicted_filter_ = 0;
  sections_ = 0;
  lost_ = false;
}

} // namespace hrace
