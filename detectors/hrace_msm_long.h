//===-- hrace_msm_long.h - MSM-long, the deferring machine (msm=long) -----===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The Helgrind+ machine for long-running programs (seeds/000, 4.2.1; the
// table in ../shared/state-machines.md): a lock set that runs empty once only
// moves the location to Exclusive-Read-Write (a suspicion); a second
// unordered, unprotected access reports. Notation as in hrace_msm_short.h.
//
//   state   access  condition                next   effect
//   New     r / w   -                        ER/EW  TS = cur
//   EW      r       TS = cur                 (no change: keeps the write)
//   EW,ER   r / w   TS hb cur                ER/EW  TS = cur
//   ER      r       not hb                   SR     keep TS, C = L
//   EW,ER   w; EW r not hb, L != {}          SM1    keep TS, C = L
//   EW,ER   w; EW r not hb, L == {}          Race   report
//   SR      r       -                        SR     C &= L
//   SR      w       C & L != {}              SM1    C &= L, keep TS
//   SR      w       C & L == {}              ERW    TS = cur (suspicion)
//   SM1     r / w   C & L != {}              SM1    C &= L, TS = cur
//   SM1     r / w   C & L == {}              ERW    TS = cur (suspicion)
//   ERW     r       TS hb cur                SR     C = L, keep TS
//   ERW     r       TS a read                SR     C = L, keep TS
//   ERW     r       not hb, TS a write       SM2    C = L, keep TS
//   ERW     w       TS hb cur                ERW    TS = cur
//   ERW     w       not hb, L != {}          SM2    C = L, keep TS
//   ERW     w       not hb, L == {}          Race   report
//   SM2     r / w   C & L != {}              SM2    C &= L, TS = cur
//   SM2     r / w   C & L == {}, TS hb cur   ERW    TS = cur
//   SM2     r / w   C & L == {}, not hb      Race   report
//   shared  r / w   join rule                ER/EW  TS = cur
//   Race    any     -                        Race   nothing is checked
//
// Where a row reports, a hand-off edge of the thread, or a hand-off record
// of a thread ordered before it, that orders the previous access before
// this one (hrace_hybrid.h, HandedOver) turns "not hb" into "hb" for that
// row.
//
// Shared states also keep S (thread set) for the join rule.
//
// Exclusive-Read-Write remembers whether the access that made the
// suspicion (TS) was a read. The paper's row "ERW r not hb -> SM2" does not
// ask: a read that met a read went to Shared-Modified-2, and the next
// unprotected read reported two reads as a race (freqmine: nodes written
// under locks, then only read after a barrier). Two reads conflict nowhere,
// so a read of a suspicion made by a read shares the location for reading,
// as a read of Exclusive-Read does; a write still meets the suspicion.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_MSM_LONG_H
#define HRACE_MSM_LONG_H

#include "hrace_hybrid.h"

namespace hrace {

struct MsmLong {
  // A common lock orders nothing for a third thread, so what a cell that
  // forgot a concurrent access reports is not known to be a real race, as
  // it is under happens-before alone; msm=short has a case
  // (runtime/hrace_access.h, StoredPlainly). Its exclusive states keep no
  // lock set, so no cell is known to keep only unlocked accesses, as
  // msm=short's are.
  static constexpr bool ChangeStoredPlainly(ShadowCell, ShadowCell) {
    return false;
  }
  // Nor both of a granule's cells (MsmShort says why).
  static constexpr bool kPairsStoredPlainly = false;

  static ALWAYS_INLINE bool IsNoop(ShadowCell c, const ThreadState *thr,
                                   bool write) {
    return hybrid::IsNoop(c, thr, write);
  }

  // IsNoop's first row as one masked compare: Exclusive-Write for a write,
  // Exclusive-Read for a read. Exclusive-Write is a no-op for a read too,
  // but no masked compare takes states 1 and 2 without 3, Exclusive-Read-
  // Write, which a read changes.
  static constexpr InlineNoopTest InlineTest(SegmentId cur, bool write) {
    if (write)
      return WriteInlineTest(cur);
    return {kGranuleSegmentBits | ShadowCell::kStateMask,
            ShadowCell::Make(CellState::kExclusiveRead, cur, 0).raw()};
  }

  // A read of Shared-Read keeps its segment whatever it is, so the memo
  // test leaves it out: one test covers the location's every granule
  // whatever segment first shared it. The other shared states take the
  // reader's segment, and are matched exactly.
  static InlineNoopTest MemoInlineTest(ShadowCell v, bool write) {
    if (write || v.state() != CellState::kSharedRead)
      return ExactInlineTest(v);
    return {ShadowCell::kStateMask | kGranuleAuxBits,
            v.raw() & (ShadowCell::kStateMask | kGranuleAuxBits)};
  }

  // Exclusive-Read-Write's aux: the lock set of the access that made the
  // suspicion, and this bit if that access was a read.
  static constexpr u32 kSuspicionByRead = kMaxLockSets;
  static_assert((kSuspicionByRead & (kMaxLockSets - 1)) == 0 &&
                    kSuspicionByRead <= kMaxSegmentId,
                "the flag is no lock set's bit, and fits a granule cell's aux");
  static constexpr ShadowCell Suspicion(SegmentId ts, LockSetId locks,
                                        bool write) {
    return ShadowCell::Make(CellState::kExclusiveReadWrite, ts,
                            locks | (write ? 0 : kSuspicionByRead));
  }

  // Exclusive-Read-Write's segment may be a read's.
  static SegmentId LastWrite(ShadowCell c) {
    return c.state() == CellState::kExclusiveWrite ? c.segment() : 0;
  }

  // What orders the access in `seg` before this one: happens-before, or a
  // hand-off edge of the accessed location's heap block.
  static bool Ordered(ThreadState *thr, const AccessContext &ac,
                      SegmentId seg) {
    return HappensBefore(thr, seg) || hybrid::HandedOver(thr, ac, seg);
  }

  // An owner's re-stamp never keeps a write for a later thread to meet: an
  // ordered read forgets it (Exclusive-Read). What a concurrent access
  // forgotten by it leaves is checked against the owner's new access, and
  // a report is a real race (runtime/hrace_access.h, StoredPlainly).
  static constexpr bool RestampStoredPlainly(ShadowCell) { return true; }

  // Exclusive-Read-Write is a suspicion between threads, not an owner's.
  static SegmentId Owner(ShadowCell c) {
    CellState s = c.state();
    bool exclusive =
        s == CellState::kExclusiveWrite || s == CellState::kExclusiveRead;
    return exclusive ? c.segment() : 0;
  }

  // Transition's answer when Owner(c) is a segment of thr (the row "TS hb
  // cur") and IsNoop is false: the access re-stamps the location as its
  // own.
  static ALWAYS_INLINE ShadowCell Restamp(ShadowCell c, ThreadState *thr,
                                          bool write) {
    (void)c;
    return hybrid::Exclusive(thr, write, hybrid::AccessLocks(thr, write));
  }

  static ShadowCell Transition(ShadowCell c, ThreadState *thr,
                               const AccessContext &ac, RaceInfo *race) {
    using namespace hybrid;
    bool write = ac.write;
    LockSetId locks = AccessLocks(thr, write);
    SegmentId ts = c.segment();
    SegmentId cur = thr->segment;
    CellState state = c.state();
    switch (state) {
    case CellState::kNew:
      return Exclusive(thr, write, locks);
    case CellState::kExclusiveWrite:
    case CellState::kExclusiveRead: {
      if (ts == cur)
        return write ? Exclusive(thr, true, locks) : c;
      if (HappensBefore(thr, ts))
        return Exclusive(thr, write, locks);
      SetId pair = PairWithOwner(thr, ac, ts);
      if (state == CellState::kExclusiveRead && !write)
        return Shared(CellState::kSharedRead, ts, locks, pair);
      if (locks != kEmptyLockSet)
        return Shared(CellState::kSharedModified, ts, locks, pair);
      if (HandedOver(thr, ac, ts))
        return Exclusive(thr, write, locks);
      return Race(race, RaceCause::kUnordered, ts, KindOf(state), c.aux(),
                  locks);
    }
    case CellState::kExclusiveReadWrite: {
      bool ordered = ts == cur || HappensBefore(thr, ts);
      bool by_read = c.aux() & kSuspicionByRead;
      if (write && ordered)
        return Suspicion(cur, locks, true);
      SetId pair = PairWithOwner(thr, ac, ts);
      if (!write)
        return Shared(ordered || by_read ? CellState::kSharedRead
                                         : CellState::kSharedModified2,
                      ts, locks, pair);
      if (locks != kEmptyLockSet)
        return Shared(CellState::kSharedModified2, ts, locks, pair);
      if (HandedOver(thr, ac, ts))
        return Suspicion(cur, locks, true);
      return Race(race, RaceCause::kUnordered, ts,
                  by_read ? AccessKind::kRead : AccessKind::kWrite,
                  c.aux() & ~kSuspicionByRead, locks);
    }
    case CellState::kSharedRead:
    case CellState::kSharedModified:
    case CellState::kSharedModified2: {
      SetId threads = Threads(c);
      if (AloneAfterJoins(thr, threads))
        return Exclusive(thr, write, locks);
      LockSetId candidates = Candidates(c);
      LockSetId remaining = Intersect(thr, candidates, locks);
      SetId with_me = AddThread(thr, ac, threads);
      if (state == CellState::kSharedRead && !write)
        return Shared(CellState::kSharedRead, ts, remaining, with_me);
      if (remaining != kEmptyLockSet) {
        // Shared-Read moves to SM1 keeping TS; SM1 and SM2 take TS.
        if (state == CellState::kSharedRead)
          return Shared(CellState::kSharedModified, ts, remaining, with_me);
        return Shared(state, cur, remaining, with_me);
      }
      if (state != CellState::kSharedModified2 || HappensBefore(thr, ts) ||
          HandedOver(thr, ac, ts))
        return Suspicion(cur, locks, write);
      return Race(race, RaceCause::kLockSetEmpty, ts, AccessKind::kAny,
                  candidates, locks);
    }
    default:
      return c;
    }
  }

private:
  static ShadowCell Shared(CellState s, SegmentId ts, LockSetId candidates,
                           SetId threads) {
    return ShadowCell::Make(s, ts, hybrid::SharedAux(candidates, threads));
  }
};

} // namespace hrace

#endif // HRACE_MSM_LONG_H
