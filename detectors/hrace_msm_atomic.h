//===-- hrace_msm_atomic.h - Atomic accesses beside every machine ---------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Two atomic accesses never race; an atomic and a plain access race when at
// least one writes and neither happens before the other (C11 5.1.2.4). The
// selected machine keeps judging plain accesses among themselves; two more
// cell states, shared by all machines, hold a location whose latest access
// was atomic:
//
//   state                   segment             aux
//   Atomic                  last write W        an atomic read R
//                           (atomic, or 0)      (or 0)
//   AtomicAfterPlainWrite   last write W        an atomic read R
//                           (plain)             (W happens before R)
//
// An atomic access, by `cur`:
//   state         access  condition           next
//   New           w / r   -                   Atomic(cur, 0) / Atomic(0, cur)
//   Atomic        w       -                   Atomic(cur, R unless R hb cur)
//   Atomic        r       R an earlier read of cur's thread
//                                             (no change: keeps the thread's
//                                             first read, IsOwnEarlierRead)
//   Atomic        r       R = 0 or R hb cur   Atomic(W, cur)
//   Atomic        r       otherwise           (no change: keeps the first of
//                                             concurrent readers)
//   AfterPlainW   w / r   not W hb cur        Race   report W
//   AfterPlainW   w       W hb cur            Atomic(cur, R unless R hb cur)
//   AfterPlainW   r       W hb cur            as Atomic r, keeping W plain
//   shared state  w / r   the machine calls the same plain access a race
//                         (C ran empty), and S holds another thread whose
//                         access was plain     Race   report that thread's
//   shared state  w / r   as above, but every other thread of S accessed
//                         atomically           Atomic(cur, 0) / Atomic(0, cur)
//   plain state   w / r   the machine calls the same plain access a race
//                                             Race   report the machine's
//   plain state   w / r   the machine changes nothing, or its next state is
//                         shared under a lock set that is not empty (the
//                         lock set protects the location)
//                                             the machine's next state
//   plain state   w       otherwise           Atomic(cur, 0)
//   plain state   r       otherwise           AfterPlainW(last plain write,
//                                             cur), or Atomic(0, cur) if the
//                                             state keeps no write
//   Race          any     -                   Race
//
// A plain access on an atomic state:
//   w / r   W set and not W hb cur            Race   report W
//   w       R set and not R hb cur            Race   report R
//   r       R set and not R hb cur            (no change: a later write must
//                                             meet R; this read is not kept)
//   otherwise                                 the machine's New row: the
//                                             location is the accessor's
//
// Against a plain state the atomic access is judged as the plain access
// would be, so the hybrid machines' locks protect it as they protect plain
// accesses; a location shared under locks stays in the machine's states,
// and its thread set S marks the threads whose accesses there were atomic
// (hrace_hybrid.h, Member). When its lock set runs empty only another
// thread's plain access can race: S holds each thread whose plain access
// the state stands for. Leaving an atomic state is judged by the machine's
// ordering (Machine::Ordered, "hb" in the tables): happens-before, and in
// the hybrid machines also a hand-off edge of the location's heap block,
// which orders every access to the block (a mutex inside a node handed over
// under another lock: its initialisation and the receiver's lock). Locks do
// not protect an atomic variable. What the cells forget (docs/design.md):
// of several unordered atomic readers only the first is kept; an atomic
// access forgets the plain state's lock sets and its readers; a plain read
// concurrent with a kept atomic reader is not kept; a dropped report leaves
// the atomic access alone in the cell (AfterSharedWithAtomics).
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_MSM_ATOMIC_H
#define HRACE_MSM_ATOMIC_H

#include "../runtime/hrace_rtl.h"
#include "hrace_detector.h"
#include "hrace_hybrid.h"

namespace hrace {

// The hybrid machines' states of a location shared under a lock set.
ALWAYS_INLINE bool IsSharedState(CellState s) {
  return s == CellState::kSharedRead || s == CellState::kSharedModified ||
         s == CellState::kSharedModified2;
}

// A hybrid machine's shared state whose candidate lock set still holds a
// lock: every access to the location so far held it.
ALWAYS_INLINE bool LockSetProtects(ShadowCell c) {
  return IsSharedState(c.state()) && hybrid::Candidates(c) != kEmptyLockSet;
}

// Whether the kept atomic read r is an earlier one of the thread now in
// segment cur (InSamePage). Such a read is kept, as
// the first of the thread's reads: rewriting it after every release of a
// thread that rereads a variable (a lock's own word at every lock) would
// take the slow path each time. A later plain write ordered after r but not
// after the reread is missed.
ALWAYS_INLINE bool IsOwnEarlierRead(SegmentId r, SegmentId cur) {
  return r && InSamePage(r, cur);
}

template <typename Machine> struct MsmAtomic {
  // An atomic access that changes nothing: a reread by the kept reader's
  // thread (a plain write the cell keeps happens before that reader), a
  // rewrite by the last atomic writer with no reader kept.
  static ALWAYS_INLINE bool IsNoop(ShadowCell c, const ThreadState *thr,
                                   bool write) {
    CellState s = c.state();
    if (!IsAtomicState(s))
      return s == CellState::kRace;
    if (!write)
      return IsOwnEarlierRead(c.aux(), thr->segment);
    return s == CellState::kAtomic && c.segment() == thr->segment &&
           c.aux() == 0;
  }

  // The cell after an atomic access.
  static ShadowCell AtomicTransition(ShadowCell c, ThreadState *thr,
                                     const AccessContext &ac, RaceInfo *race) {
    SegmentId cur = thr->segment;
    switch (c.state()) {
    case CellState::kNew:
      return ac.write ? Make(CellState::kAtomic, cur, 0)
                      : Make(CellState::kAtomic, 0, cur);
    case CellState::kRace:
      return c;
    case CellState::kAtomic:
      return AfterAtomicState(c, thr, ac.write, CellState::kAtomic);
    case CellState::kAtomicAfterPlainWrite:
      if (!Machine::Ordered(thr, ac, c.segment()))
        return Race(race, c.segment(), AccessKind::kWrite, false);
      return AfterAtomicState(c, thr, ac.write,
                              CellState::kAtomicAfterPlainWrite);
    default: {
      ShadowCell plain = Machine::Transition(c, thr, ac, race);
      if (race->found) {
        // Against a shared state the machine reports when the lock set
        // runs empty. Atomics never race with each other: without another
        // thread's plain access the location goes to the atomic states.
        if (!IsSharedState(c.state()) || NamePlainAccess(c, thr, race))
          return Make(CellState::kRace, 0, 0);
        race->found = false;
        return AfterSharedWithAtomics(thr, ac.write);
      }
      if (plain == c || LockSetProtects(plain)) {
        // An access that changes nothing (the owner again, in the segment
        // of its plain write) stays the machine's: whatever races with it
        // races with that write. So does, in the hybrid machines, a
        // location its lock set protects: its locks protect the atomic
        // accesses that follow as well. A shared state with no candidate
        // lock left protects nothing, and would judge the atomic access as
        // a plain one by a later atomic access (Shared-Read's reader t'
        // meeting a write).
        return plain;
      }
      if (ac.write)
        return Make(CellState::kAtomic, cur, 0);
      SegmentId plain_write = Machine::LastWrite(c);
      return plain_write
                 ? Make(CellState::kAtomicAfterPlainWrite, plain_write, cur)
                 : Make(CellState::kAtomic, 0, cur);
    }
    }
  }

  // The cell after a plain access to a location in an atomic state.
  static ShadowCell PlainTransition(ShadowCell c, ThreadState *thr,
                                    const AccessContext &ac, RaceInfo *race) {
    bool atomic_write = c.state() == CellState::kAtomic;
    if (c.segment() && !Machine::Ordered(thr, ac, c.segment()))
      return Race(race, c.segment(), AccessKind::kWrite, atomic_write);
    bool reader_ordered = !c.aux() || Machine::Ordered(thr, ac, c.aux());
    if (ac.write && !reader_ordered)
      return Race(race, c.aux(), AccessKind::kRead, true);
    // A read concurrent with the atomic reader keeps the cell: a later
    // write must still meet that reader.
    if (!reader_ordered)
      return c;
    return Machine::Transition(ShadowCell(), thr, ac, race);
  }

private:
  // The machine reported the atomic access against the shared state c, its
  // lock set run empty: whether a thread other than thr accessed the
  // location plainly, and if so the report names that thread. The state
  // keeps every plain access it stands for as a member of S: the threads it
  // was shared from, then each accessor (a write a read was ordered after
  // is ordered before that reader's thread from then on). The machine's
  // report names the segment the state keeps, which may be an atomic
  // access's.
  static bool NamePlainAccess(ShadowCell c, ThreadState *thr, RaceInfo *race) {
    u32 plain_thread;
    if (!hybrid::OtherPlainMember(thr, hybrid::Threads(c), &plain_thread))
      return false;
    // A set that overflowed its table names no member: the machine's own
    // report stands.
    if (plain_thread == kAnyOtherThread)
      return true;
    race->cause = RaceCause::kSharedWithPlainAccess;
    race->prev_segment = 0;
    // S does not say whether the plain access read or wrote: the report
    // shows the thread's latest plain access, whichever it was.
    race->prev_kind = AccessKind::kAny;
    race->prev_atomic = false;
    race->prev_thread = plain_thread;
    return true;
  }

  // The atomic state after an atomic access to a shared state whose other
  // members all accessed atomically: this access alone, as a New location
  // would keep it. The state's segment TS, another thread's atomic access
  // made under the candidate locks, is forgotten: an atomic state keeps no
  // lock set, and would report a later access holding those locks, which
  // the lock orders after TS (double-checked locking: a plain read under M,
  // another thread's atomic store under M, the reader's unlocked atomic
  // load, then its plain read under M).
  static ShadowCell AfterSharedWithAtomics(ThreadState *thr, bool write) {
    SegmentId cur = thr->segment;
    return write ? Make(CellState::kAtomic, cur, 0)
                 : Make(CellState::kAtomic, 0, cur);
  }

  static ShadowCell Make(CellState s, SegmentId segment, u32 aux) {
    return ShadowCell::Make(s, segment, aux);
  }

  // An atomic access ordered after any plain write the cell keeps.
  static ShadowCell AfterAtomicState(ShadowCell c, ThreadState *thr, bool write,
                                     CellState state) {
    SegmentId cur = thr->segment;
    SegmentId reader = c.aux();
    bool reader_ordered = !reader || HappensBefore(thr, reader);
    if (write)
      return Make(CellState::kAtomic, cur, reader_ordered ? 0 : reader);
    // Concurrent readers keep the first, as msm=hb does: rewriting the cell
    // on every read would bounce its line between the readers.
    if (IsOwnEarlierRead(reader, cur) || !reader_ordered)
      return c;
    return Make(state, c.segment(), cur);
  }

  static ShadowCell Race(RaceInfo *race, SegmentId prev, AccessKind kind,
                         bool atomic) {
    race->found = true;
    race->cause = RaceCause::kAtomicUnordered;
    race->prev_segment = prev;
    race->prev_kind = kind;
    race->prev_atomic = atomic;
    return Make(CellState::kRace, 0, 0);
  }
};

} // namespace hrace

#endif // HRACE_MSM_ATOMIC_H
