//===-- hrace_handoff.cpp - Hand-off edges: happens-before scoped to memory
//===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_handoff.h"

namespace hrace {

void HandoffEdges::Add(const ClockRef &clock, uptr location, uptr value) {
  if (count_) {
    // Reading a flag again in a polling loop adds no new edge.
    Edge &newest = edges_[(count_ - 1) % kMax];
    if (newest.location == location && newest.value == value) {
      newest.clock.Join(clock);
      return;
    }
  }
  Edge &e = edges_[count_ % kMax];
  e.clock.Assign(clock);
  e.location = location;
  e.value = value;
  count_++;
}

void HandoffEdges::AddCandidate(const Candidate &c) {
  if (candidate_count_) {
    // A polling loop reads the same flag under the same lock again and
    // again: the newest candidate stands for all of them.
    Candidate &newest = candidates_[(candidate_count_ - 1) % kMaxCandidates];
    if (newest.lock == c.lock && newest.lock_id == c.lock_id &&
        newest.location == c.location && newest.value == c.value) {
      newest.seq = c.seq;
      return;
    }
  }
  candidates_[candidate_count_++ % kMaxCandidates] = c;
}

bool HandoffEdges::MayOrder(u32 slot, Clock clock) const {
  for (u32 i = 0; i < size(); i++)
    if (edges_[i].clock.Get(slot) >= clock)
      return true;
  return false;
}

Clock HandoffEdges::Reach(u32 slot, Clock clock, uptr beg, uptr end) const {
  Clock reach = 0;
  for (u32 i = 0; i < size(); i++) {
    const Edge &e = edges_[i];
    Clock known = e.clock.Get(slot);
    if (known >= clock && known > reach &&
        InScope(e.location, e.value, beg, end))
      reach = known;
  }
  return reach;
}

void HandoffEdges::Free() {
  for (u32 i = 0; i < size(); i++)
    edges_[i].clock.Reset();
  count_ = 0;
  candidate_count_ = 0;
}

bool HandoffRecords::any_added_;

template <typename Fn> void HandoffRecords::Rewrite(Record &r, Fn fill) {
  // Odd before any field changes: a reader that saw the old fields and
  // then this sequence number drops what it read. (A forked child may
  // inherit a record caught odd.)
  u32 odd = r.seq | 1;
  StoreRelaxed(&r.seq, odd);
  __atomic_thread_fence(__ATOMIC_RELEASE);
  fill();
  StoreRelease(&r.seq, odd + 1);
}

void HandoffRecords::Forget() {
  u32 n = count_ < kMax ? count_ : kMax;
  for (u32 i = 0; i < n; i++) {
    Record &r = records_[i];
    Rewrite(r, [&] { StoreRelaxed(&r.end, uptr(0)); });
  }
  StoreRelease(&count_, 0u);
}

void HandoffRecords::Add(Clock reader_clock, u32 reader_thread, u32 slot,
                         Clock clock, uptr beg, uptr end) {
  if (count_) {
    // The reader's next access to the block in the same segment: one record
    // stands for all of them.
    Record &newest = records_[(count_ - 1) % kMax];
    if (newest.reader_clock == reader_clock &&
        newest.reader_thread == reader_thread && newest.slot == slot &&
        newest.beg == beg && newest.end == end) {
      if (newest.clock < clock)
        Rewrite(newest, [&] { StoreRelaxed(&newest.clock, clock); });
      return;
    }
  }
  Record &r = records_[count_ % kMax];
  Rewrite(r, [&] {
    StoreRelaxed(&r.reader_clock, reader_clock);
    StoreRelaxed(&r.reader_thread, reader_thread);
    StoreRelaxed(&r.slot, slot);
    StoreRelaxed(&r.clock, clock);
    StoreRelaxed(&r.beg, beg);
    StoreRelaxed(&r.end, end);
  });
  StoreRelease(&count_, count_ + 1);
  if (!LoadRelaxed(&any_added_))
    StoreRelaxed(&any_added_, true);
}

} // namespace hrace
