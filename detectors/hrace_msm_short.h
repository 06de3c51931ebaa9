//===-- hrace_msm_short.h - MSM-short, the default (msm=short) ------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The Helgrind+ machine for short-running programs (seeds/000, 4.2.2-4.2.4):
// it reports at the first sign of a race. TS is the segment in the cell, L
// the locks of this access (all held for a read, write-held for a write),
// Lo the owner's locks stored with an exclusive state, C and S the candidate
// lock set and thread set of a shared state.
//
//   state   access  condition              next   effect
//   New     r / w   -                      ER/EW  TS = cur, Lo = L
//   EW      r       TS = cur               (no change: keeps the write)
//   EW,ER   r / w   TS hb cur              ER/EW  TS = cur, Lo = L
//   ER      r       not hb                 SR     keep TS, C = Lo & L, S = {t, owner}
//   EW,ER   w; EW r not hb, Lo & L != {}   SM     TS = cur, C = Lo & L, S = {t, owner}
//   EW,ER   w; EW r not hb, Lo & L == {}   Race   report
//   SR      r       -                      SR     C &= L, S += t
//   SR      w       TS hb cur or C&L!={}   SM     C &= L, S += t
//   SR      w       not hb, C & L == {}    Race   report
//   SM      r / w   C & L != {}            SM     C &= L, S += t
//   SM      r / w   C & L == {}, TS hb cur ER/EW  TS = cur, Lo = L
//   SM      r / w   C & L == {}, not hb    Race   report
//   SR,SM   r / w   join rule: all of S but t ended before t   ER/EW
//   Race    any     -                      Race   nothing is checked
//
// A segment ends at every unlock (hrace_rtl.cpp), so in the owner's own
// segment its locks only grow and the first access's L is a safe Lo.
//
// Departures from the paper (docs/design.md): the exclusive states keep Lo,
// and leaving them intersects it with L. The paper sets C = L, so a first,
// unprotected write followed by a concurrent write under an unrelated lock
// goes to SM and is missed (its 4.2.5); here Lo = {} makes C empty and the
// race is reported. And a read by the owner in its own segment keeps
// Exclusive-Write, so a concurrent reader still meets the write.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_MSM_SHORT_H
#define HRACE_MSM_SHORT_H

#include "hrace_hybrid.h"

namespace hrace {

struct MsmShort {
  static ALWAYS_INLINE bool IsNoop(ShadowCell c, const ThreadState *thr,
                                   bool write) {
    return hybrid::IsNoop(c, thr, write);
  }

  static ShadowCell Transition(ShadowCell c, ThreadState *thr,
                               const AccessContext &ac, RaceInfo *race) {
    using namespace hybrid;
    bool write = ac.write;
    LockSetId locks = AccessLocks(thr, write);
    SegmentId ts = c.segment();
    CellState state = c.state();
    switch (state) {
    case CellState::kNew:
      return Exclusive(thr, write, locks);
    case CellState::kExclusiveWrite:
    case CellState::kExclusiveRead: {
      if (ts == thr->segment)
        return write ? Exclusive(thr, true, locks) : c;
      if (HappensBefore(thr, ts))
        return Exclusive(thr, write, locks);
      LockSetId owner_locks = c.aux();
      LockSetId candidates = Intersect(thr, owner_locks, locks);
      if (state == CellState::kExclusiveRead && !write)
        return ShadowCell::Make(CellState::kSharedRead, ts,
                                SharedAux(candidates, PairWithOwner(thr, ts)));
      if (candidates != kEmptyLockSet)
        return ShadowCell::Make(CellState::kSharedModified, thr->segment,
                                SharedAux(candidates, PairWithOwner(thr, ts)));
      return Race(race, RaceCause::kUnordered, ts, KindOf(state), owner_locks,
                  locks);
    }
    case CellState::kSharedRead:
    case CellState::kSharedModified: {
      SetId threads = Threads(c);
      if (AloneAfterJoins(thr, threads))
        return Exclusive(thr, write, locks);
      LockSetId candidates = Candidates(c);
      LockSetId remaining = Intersect(thr, candidates, locks);
      SetId with_me = AddThread(thr, threads);
      if (state == CellState::kSharedRead && !write)
        return ShadowCell::Make(CellState::kSharedRead, ts,
                                SharedAux(remaining, with_me));
      if (remaining != kEmptyLockSet)
        return ShadowCell::Make(CellState::kSharedModified, ts,
                                SharedAux(remaining, with_me));
      bool ordered = HappensBefore(thr, ts);
      if (ordered && state == CellState::kSharedModified)
        return Exclusive(thr, write, locks);
      if (ordered)
        return ShadowCell::Make(CellState::kSharedModified, ts,
                                SharedAux(remaining, with_me));
      return Race(race, RaceCause::kLockSetEmpty, ts, AccessKind::kAny,
                  candidates, locks);
    }
    default:
      return c;
    }
  }
};

} // namespace hrace

#endif // HRACE_MSM_SHORT_H
