//===-- hrace_handoff.cpp - Hand-off edges: happens-before scoped to memory ===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_handoff.h"

namespace hrace {

void HandoffEdges::Add(const VectorClock &clock, uptr location, uptr value) {
  if (count_) {
    // Reading a flag again in a polling loop adds no new edge.
    Edge &newest = edges_[(count_ - 1) % kMax];
    if (newest.location == location && newest.value == value) {
      newest.clock.Join(clock);
      return;
    }
  }
  Edge &e = edges_[count_ % kMax];
  e.clock.CopyFrom(clock);
  e.location = location;
  e.value = value;
  count_++;
}

bool HandoffEdges::MayOrder(u32 slot, u32 clock) const {
  for (u32 i = 0; i < size(); i++)
    if (edges_[i].clock.Get(slot) >= clock)
      return true;
  return false;
}

bool HandoffEdges::Orders(u32 slot, u32 clock, uptr beg, uptr end) const {
  for (u32 i = 0; i < size(); i++) {
    const Edge &e = edges_[i];
    bool in_scope = (e.location >= beg && e.location < end) ||
                    (e.value && e.value >= beg && e.value < end);
    if (in_scope && e.clock.Get(slot) >= clock)
      return true;
  }
  return false;
}

void HandoffEdges::Free() {
  for (u32 i = 0; i < size(); i++)
    edges_[i].clock.Free();
  count_ = 0;
}

} // namespace hrace
