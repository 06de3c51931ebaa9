//===-- hrace_handoff.h - Hand-off edges: happens-before scoped to memory -===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A thread that reads, under a lock, a location another thread wrote under
// the same lock (hrace_lock_writes.h) has taken part in a hand-off: the
// writer passed it something through the lock. Pure happens-before would
// order everything the reader does from then on after everything the writer
// did before. That also hides the races the hybrid machines exist to find,
// those where the schedule alone orders two threads' accesses through an
// unrelated lock (each thread touches a global, then drops its reference to
// an object under the object's mutex).
//
// So a hand-off edge is scoped to the memory it plausibly carried: the heap
// block that holds the location read, and the heap block whose address the
// read returned (a queue's head: the node; a node's item pointer: the item;
// a reference count: its object). And it is consulted only when a state
// machine is about to report (detectors/hrace_hybrid.h, OrderedByHandoff):
// an access to that memory that the edge orders after the previous one is
// not a race. The reader's own accesses inside the critical section were
// judged by lock sets before the edge existed.
//
// A thread keeps its last kMax edges; older ones are forgotten (a possible
// report, never a missed one).
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_HANDOFF_H
#define HRACE_HANDOFF_H

#include "hrace_defs.h"
#include "hrace_vector_clock.h"

namespace hrace {

class HandoffEdges {
public:
  static constexpr u32 kMax = 32;

  // The thread read `location` (which held `value`, 0 when it was not
  // pointer-sized) and so is ordered after `clock` for the memory they name.
  void Add(const VectorClock &clock, uptr location, uptr value);

  // Some edge knows the point (slot, clock) of a thread's history.
  bool MayOrder(u32 slot, u32 clock) const;
  // Some edge knows it, and its location or value lies in [beg, end).
  bool Orders(u32 slot, u32 clock, uptr beg, uptr end) const;

  bool empty() const { return count_ == 0; }
  void Free();

private:
  struct Edge {
    VectorClock clock;
    uptr location = 0;
    uptr value = 0;
  };
  u32 size() const { return count_ < kMax ? count_ : kMax; }

  Edge edges_[kMax];
  // Edges ever added; the newest is at (count_ - 1) % kMax.
  u32 count_ = 0;
};

} // namespace hrace

#endif // HRACE_HANDOFF_H
