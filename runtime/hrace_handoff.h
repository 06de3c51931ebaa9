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
// Most reads under locks never matter: nothing is reported near them. So
// leaving a critical section only notes its reads of possibly-heap memory
// as candidates: the lock, the section's number among the lock's sections
// that publish writes, and what was read. Only on the way to a report is a
// candidate in scope looked up in the lock's map (hrace_lock_writes.h): the
// location's entry, if no later section has written it since, holds what
// the reader read (joined with the reader's own clock if the section then
// changed it), and its clock becomes an edge.
//
// A thread keeps its last kMax edges and kMaxCandidates candidates; older
// ones are forgotten (a possible report, never a missed one).
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_HANDOFF_H
#define HRACE_HANDOFF_H

#include "hrace_clock_snapshot.h"
#include "hrace_defs.h"

namespace hrace {

class HandoffEdges {
public:
  static constexpr u32 kMax = 32;
  static constexpr u32 kMaxCandidates = 64;

  // An edge or candidate covers the block of its location and of its
  // value (0 when the read was not pointer-sized).
  static bool InScope(uptr location, uptr value, uptr beg, uptr end) {
    return (location >= beg && location < end) ||
           (value && value >= beg && value < end);
  }

  struct Candidate {
    uptr lock;
    uptr location;
    uptr value;
    u32 size;
    // The lock's name (a destroyed lock's address may hold another) and
    // the number of the section that read.
    u32 lock_id;
    u32 seq;
  };
  void AddCandidate(const Candidate &c);
  // Calls fn(candidate) for the candidates whose location or value lies in
  // [beg, end), newest first, until fn returns true; returns whether it did.
  template <typename Fn> bool FindCandidate(uptr beg, uptr end, Fn fn) const {
    u32 n =
        candidate_count_ < kMaxCandidates ? candidate_count_ : kMaxCandidates;
    for (u32 i = 0; i < n; i++) {
      const Candidate &c =
          candidates_[(candidate_count_ - 1 - i) % kMaxCandidates];
      if (InScope(c.location, c.value, beg, end) && fn(c))
        return true;
    }
    return false;
  }

  // The thread read `location` (which held `value`, 0 when it was not
  // pointer-sized) and so is ordered after `clock` for the memory they name.
  void Add(const ClockRef &clock, uptr location, uptr value);

  // Some edge or candidate names memory in [beg, end).
  bool AnyInScope(uptr beg, uptr end) const {
    for (u32 i = 0; i < size(); i++)
      if (InScope(edges_[i].location, edges_[i].value, beg, end))
        return true;
    return FindCandidate(beg, end,
                         [](const Candidate &) { return true; });
  }

  // Some edge knows the point (slot, clock) of a thread's history.
  bool MayOrder(u32 slot, Clock clock) const;
  // How far into the slot an edge whose location or value lies in
  // [beg, end) knows, the furthest such edge that knows (slot, clock); 0
  // when none does.
  Clock Reach(u32 slot, Clock clock, uptr beg, uptr end) const;

  bool empty() const { return count_ == 0 && candidate_count_ == 0; }
  void Free();

private:
  struct Edge {
    ClockRef clock;
    uptr location = 0;
    uptr value = 0;
  };
  u32 size() const { return count_ < kMax ? count_ : kMax; }

  Edge edges_[kMax];
  // Edges ever added; the newest is at (count_ - 1) % kMax.
  u32 count_ = 0;
  Candidate candidates_[kMaxCandidates] = {};
  u32 candidate_count_ = 0;
};

// An edge orders only its own thread. A thread ordered after the reader by
// happens-before (one it creates, its joiner, a waiter it signals) is
// ordered after the writer too, and for the same memory the hand-off is the
// only thing that says so: the cell may name the writer's access and not
// the reader's, because a later ordered reader replaced it, or because the
// reader's own update was lost to a concurrent plain store (the owner's
// re-stamp). So each access an edge orders leaves a record with the
// reader's slot: the reader's point, the writer's slot and how far into it
// the edge reached, and the heap block. A thread about to report, that no
// edge of its own orders, asks the records of every slot (OrderedByHandoff).
//
// A slot's records are written by its thread alone and outlive it (its
// joiner is the thread that needs them), and the next thread in the slot
// goes on writing them: clock values of a slot only grow, across its owners
// too, so an older record stays true, as long as the thread that took the
// slot next started after them (Forget). Each holds a sequence number, odd
// while it is being written; a reader skips a record it sees change (a
// possible report, never a missed one).
struct HeapRange {
  uptr beg;
  uptr end;
};

class HandoffRecords {
public:
  static constexpr u32 kMax = 32;

  // The thread at (reader_clock, reader_thread) of this slot made an access
  // to [beg, end) that a hand-off ordered after slot `slot` up to `clock`.
  void Add(Clock reader_clock, u32 reader_thread, u32 slot, Clock clock,
           uptr beg, uptr end);

  // Some record of this slot covers `addr`, reaches (slot, clock), and
  // knows_reader(reader_clock, reader_thread) says the current thread is
  // ordered after its reader's point; *block is set to its block.
  template <typename Fn>
  bool Orders(u32 slot, Clock clock, uptr addr, Fn knows_reader,
              HeapRange *block) const {
    u32 count = LoadAcquire(&count_);
    u32 n = count < kMax ? count : kMax;
    for (u32 i = 0; i < n; i++) {
      const Record &r = records_[(count - 1 - i) % kMax];
      u32 seq = LoadAcquire(&r.seq);
      if (seq & 1)
        continue;
      HeapRange range = {LoadRelaxed(&r.beg), LoadRelaxed(&r.end)};
      bool covers = LoadRelaxed(&r.slot) == slot &&
                    LoadRelaxed(&r.clock) >= clock && addr >= range.beg &&
                    addr < range.end;
      Clock reader_clock = LoadRelaxed(&r.reader_clock);
      u32 reader_thread = LoadRelaxed(&r.reader_thread);
      __atomic_thread_fence(__ATOMIC_ACQUIRE);
      if (LoadRelaxed(&r.seq) != seq)
        continue;
      if (covers && knows_reader(reader_clock, reader_thread)) {
        *block = range;
        return true;
      }
    }
    return false;
  }

  // A new thread takes the slot, and what its creator knew of the previous
  // one does not cover the records' readers: whoever learns the new
  // thread's clock, which starts above the previous one's, would take
  // their points as known (KnowsPoint).
  void Forget();

  // Some thread has ever added a record: until then nobody need ask.
  static bool AnyAdded() { return LoadRelaxed(&any_added_); }

private:
  struct Record {
    u32 seq;
    u32 slot;
    Clock clock;
    Clock reader_clock;
    u32 reader_thread;
    uptr beg;
    uptr end;
  };

  template <typename Fn> static void Rewrite(Record &r, Fn fill);

  Record records_[kMax];
  // Records ever added; the newest is at (count_ - 1) % kMax.
  u32 count_;
  static bool any_added_;
};

} // namespace hrace

#endif // HRACE_HANDOFF_H
