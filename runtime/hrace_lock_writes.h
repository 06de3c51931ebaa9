//===-- hrace_lock_writes.h - What the critical sections of a lock wrote --===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// DS of the write/read relations (seeds/000, figure 6), kept per lock and
// filled at every unlock, not only at a signal: for each location written
// inside a critical section of the lock, what the thread that wrote it knew
// when it left the section. A thread that later reads the location under
// the same lock may then be ordered after that writer (hrace_write_read.h
// says when, and for which memory).
//
// A location is an 8-byte granule and a byte mask, so two flags in one word
// stay apart. A writer that also read the bytes in the same section (a
// read-modify-write: a counter, a reference count) joins its clock into the
// one already there, as a read-modify-write continues a release sequence:
// whoever reads the count later is ordered after every thread that changed
// it, not only the last one. A plain write replaces the clock.
//
// Bounded: at most kMaxEntries locations per lock, the oldest forgotten
// first. What the writers of forgotten locations knew is joined into one
// summary, with the latest of their sections and a filter of their
// granules (ForEachWriterAsOf). A location forgotten after the reader's
// section creates no edge: at worst a report that pure happens-before
// would not make, never a missed one.
//
// Small, because a program with a lock per tree node has millions of them
// (freqmine: a section that links a child writes five of its words): a
// location is 8 bytes, its granule, mask and the index of a record that
// holds the clock and section number, and the locations one section wrote
// share one record (copied when a later read-modify-write joins one of
// them). Locations and records live in one block, searched linearly up to
// kLinearEntries locations and through an index past that (64 at most); the
// object holds 24 bytes. A 32-byte location with its own clock and a hash
// chain took a 256-byte block for the five, and 56 bytes in the object.
//
// Not thread-safe: the lock's SyncObject guards it with its mutex.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_LOCK_WRITES_H
#define HRACE_LOCK_WRITES_H

#include "hrace_clock_snapshot.h"
#include "hrace_defs.h"

namespace hrace {

constexpr uptr kRelationGranule = 8;

// Calls fn(granule, mask) for each 8-byte granule [addr, addr+size) touches,
// with the mask of the bytes it touches there; at most `max_granules` calls.
template <typename Fn>
void ForEachGranuleMask(uptr addr, uptr size, uptr max_granules, Fn fn) {
  uptr end = addr + size;
  uptr n = 0;
  for (uptr g = addr & ~(kRelationGranule - 1); g < end && n < max_granules;
       g += kRelationGranule, n++) {
    uptr beg = addr > g ? addr - g : 0;
    uptr last = end - g < kRelationGranule ? end - g : kRelationGranule;
    fn(g, static_cast<u8>(((1u << last) - 1) & ~((1u << beg) - 1)));
  }
}

class LockWrites {
public:
  static constexpr u32 kMaxEntries = 64;
  // A long write (memcpy, memset) is kept by its first granules only.
  static constexpr uptr kMaxGranulesPerWrite = 8;

  // Numbers a critical section that ends (and recorded something): later
  // sections get larger numbers.
  u32 EndSection() { return ++sections_; }
  // [addr, addr+size) was written in critical section number `seq`, which
  // a thread left knowing `clock`. `accumulate`: the section also read it.
  void Publish(uptr addr, uptr size, const ClockRef &clock, bool accumulate,
               u32 seq);

  // Calls fn(clock, seq) for each location overlapping [addr, addr+size),
  // with what its writers knew and the section that wrote it last.
  template <typename Fn> void ForEachWriter(uptr addr, uptr size, Fn fn) const {
    ForEachRecord(addr, size, [&](const Record &r) { fn(r.clock, r.seq); });
  }

  // Calls fn(clock) for each location overlapping [addr, addr+size), with
  // what a reader in section `seq` learned there, or less: what its
  // writers knew if no later section wrote it; else, if later sections
  // only joined into it (read-modify-writes: a node's counter bumped by
  // every visitor), what its last plain writer knew, if that writer came
  // no later than `seq`; else nothing (the value read was replaced since).
  // A location the map no longer holds, but may have held (its granule is
  // in the filter of those evicted), yields what the writers of every
  // evicted location knew, if they all came no later than `seq`, or else
  // what their plain writers knew, if those did: a tree node's lock sees
  // every child's fields written in its sections, and keeps the last 64.
  template <typename Fn>
  void ForEachWriterAsOf(uptr addr, uptr size, u32 seq, Fn fn) const {
    bool held = false;
    ForEachRecord(addr, size, [&](const Record &r) {
      held = true;
      if (r.seq <= seq)
        fn(r.clock);
      else if (r.replaced_seq <= seq && !r.replaced.empty())
        fn(r.replaced);
    });
    if (held || evicted_record_ == kNone ||
        !(evicted_filter_ & FilterBit(addr & ~(kRelationGranule - 1))))
      return;
    const Record &evicted = Records()[evicted_record_];
    const Record &plain = Records()[evicted_plain_record_];
    if (evicted.seq <= seq)
      fn(evicted.clock);
    else if (plain.seq <= seq)
      fn(plain.clock);
  }

  // Whether `clock` knows every writer of the granule at `granule` that
  // the map holds, and of the locations it forgot if the granule may be
  // one of them, and there is one; false once the map missed a write
  // (MarkLost). With every write of a location made under the lock, a
  // thread whose clock knows them is ordered after the location's last
  // write.
  bool WritesOfGranuleKnownBy(uptr granule, const VectorClock &clock) const;
  // A section wrote something the map was not given (the thread's ring of
  // writes under locks lost its oldest, or a write was longer than
  // kMaxGranulesPerWrite granules): WritesOfGranuleKnownBy answers no
  // from then on.
  void MarkLost() { lost_ = true; }

  u32 size() const { return count_; }
  void Free();

private:
  // What one or more locations' writers knew, and the section that wrote
  // them last; once a later section joins into it, also what the last plain
  // writer knew and its section (`replaced`, empty until then). `refs`
  // locations use it (0: free).
  struct Record {
    ClockRef clock;
    ClockRef replaced;
    u32 seq;
    u32 replaced_seq;
    u32 refs;
    void ResetClocks() {
      clock.Reset();
      replaced.Reset();
    }
  };
  template <typename Fn> void ForEachRecord(uptr addr, uptr size, Fn fn) const {
    if (!count_)
      return;
    ForEachGranuleMask(
        addr, size, kMaxGranulesPerWrite, [&](uptr granule, u8 mask) {
          auto visit = [&](u32 i) {
            u64 e = Entries()[i];
            if (GranuleOf(e) == granule && (MaskOf(e) & mask))
              fn(Records()[RecordOf(e)]);
          };
          if (Indexed()) {
            for (u32 i = Heads()[Bucket(granule)]; i != kNone; i = Nexts()[i])
              visit(i);
          } else {
            for (u32 i = 0; i < count_; i++)
              visit(i);
          }
        });
  }
  // An entry: the granule's address / 8 in bits 8..52, the byte mask in
  // bits 0..7, its record's index from bit 56 (kMaxEntries records at most,
  // one per location).
  static constexpr u32 kRecordShift = 56;
  static constexpr u64 kKeyMask = (1ull << kRecordShift) - 1;
  static u64 KeyOf(uptr granule, u8 mask) {
    return static_cast<u64>(granule >> 3) << 8 | mask;
  }
  static uptr GranuleOf(u64 e) {
    return static_cast<uptr>((e & kKeyMask) >> 8) << 3;
  }
  static u8 MaskOf(u64 e) { return static_cast<u8>(e); }
  static u32 RecordOf(u64 e) { return static_cast<u32>(e >> kRecordShift); }

  // The block: record_capacity_ records, then entry_capacity_ entries;
  // past kLinearEntries, an index by granule too: a head per bucket (a
  // power of two, at least one per entry) and a next per entry, chains of
  // entry numbers ending in kNone. A section of a lock that guards many
  // locations (fluidanimate: a cell's particles) publishes each of them,
  // and 64 probes a search were 3% of its run. Not before 12: freqmine's
  // million node locks each grow to 9 locations, whose index took their
  // block from 120 bytes to 145, a 160-byte block (31 MB of its 1,067).
  static constexpr u32 kLinearEntries = 12;
  static constexpr u8 kNone = 0xff;
  Record *Records() const { return static_cast<Record *>(block_); }
  u64 *Entries() const {
    return reinterpret_cast<u64 *>(Records() + record_capacity_);
  }
  bool Indexed() const { return entry_capacity_ > kLinearEntries; }
  static u32 BucketsFor(u32 entries) {
    u32 n = 1;
    while (n < entries)
      n *= 2;
    return n;
  }
  u8 *Heads() const {
    return reinterpret_cast<u8 *>(Entries() + entry_capacity_);
  }
  u8 *Nexts() const { return Heads() + BucketsFor(entry_capacity_); }
  u32 Bucket(uptr granule) const {
    return static_cast<u32>(((granule >> 3) * 0x9E3779B97F4A7C15ull) >> 32) &
           (BucketsFor(entry_capacity_) - 1);
  }
  void Link(u32 i);
  void Unlink(u32 i);
  // Entry i is evicted: its record's clock and section join the evicted
  // summary, its granule the filter.
  void FoldEvicted(u32 i);
  // An empty evicted summary, referenced once (by the map).
  u32 NewSummary();
  static u32 FilterBit(uptr granule) { return 1u << ((granule >> 3) & 31); }
  // The entry holding `key`, or count_.
  u32 Find(u64 key) const;
  // A new entry for key (the oldest one's place when the map is full), with
  // no record yet.
  u32 Insert(u64 key);
  // A free record, the block grown if none is; its refs stay 0.
  u32 FreeRecord();
  // Record r is the one section `seq` gave the locations it wrote, which
  // a thread left knowing `clock`: the next location of it shares r.
  bool SharesSection(u32 r, const ClockRef &clock, u32 seq) const;
  void SetRecord(u32 entry, u32 record);
  void Unref(u32 record);
  void Grow(u32 entries, u32 records);

  void *block_ = nullptr;
  u32 sections_ = 0;
  // The granules of evicted locations, one bit per granule number mod 32.
  u32 evicted_filter_ = 0;
  u8 count_ = 0;
  u8 entry_capacity_ = 0;
  u8 record_capacity_ = 0;
  // Where the next insertion into a full map goes: the oldest entry.
  u8 next_evicted_ = 0;
  // The record the last Publish used: the next location of the same
  // section shares it.
  u8 last_record_ = 0;
  // The record that joins what the writers of evicted locations knew, the
  // latest of their sections as its seq (kNone until the first eviction);
  // the map holds its one reference.
  u8 evicted_record_ = kNone;
  // The same for what their plain writers knew (a counter's first writer,
  // not the incrementers that joined in since): a counter that every
  // section bumps carries the latest section into the summary when it is
  // evicted, and a reader of an older evicted location, checked a moment
  // after its section, would find the summary too new (freqmine: a tree
  // node's children's fields, read just before the next node is locked).
  // Set with evicted_record_.
  u8 evicted_plain_record_ = kNone;
  bool lost_ = false;
};

} // namespace hrace

#endif // HRACE_LOCK_WRITES_H
