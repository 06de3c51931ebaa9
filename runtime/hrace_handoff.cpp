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

bool HandoffEdges::Orders(u32 slot, Clock clock, uptr beg, uptr end) const {
  for (u32 i = 0; i < size(); i++) {
    const Edge &e = edges_[i];
    if (InScope(e.location, e.value, beg, end) && e.clock.Get(slot) >= clock)
      return true;
  }
  return false;
}

void HandoffEdges::Free() {
  for (u32 i = 0; i < size(); i++)
    edges_[i].clock.Reset();
  count_ = 0;
  candidate_count_ = 0;
}

} // namespace hrace
