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
//   EW      r       TS hb cur              ERaW   R = cur, W = TS
//   EW,ER   w; ER r TS hb cur              ER/EW  TS = cur, Lo = L
//   ER      r       not hb                 SR     keep TS, C = Lo & L, S = {t, owner}
//   EW,ER   w; EW r not hb, Lo & L != {}   SM     TS = cur, C = Lo & L, S = {t, owner}
//   EW,ER   w; EW r not hb, Lo & L == {}   Race   report
//   ERaW    r       R hb cur               ERaW   R = cur, keep W
//   ERaW    w       R hb cur               EW     TS = cur, Lo = L
//   ERaW    r       not R hb, W hb cur     SR     TS = R, C = Lr ? L : {}, S = {t, owner R}
//   ERaW    r       not W hb, Lw, L != {}  SM     TS = cur, C = L, S = {t, owners}
//   ERaW    r       not W hb otherwise     Race   report W
//   ERaW    w       not R hb, Lr, L != {},
//                   W hb cur or Lw         SM     TS = cur, C = L, S = {t, owners}
//   ERaW    w       not R hb otherwise     Race   report R (or W if only W is
//                                                 unprotected)
//   SR      r       -                      SR     C &= L, S += t
//   SR      w       C & L != {}            SM     C &= L, S += t
//   SR      w       TS hb cur, C&L == {}   SM     C &= L, S += t
//   SR      w       TS is t's, after t's
//                   last acquire, S has
//                   another t', C&L == {}  Race   report a read of t'
//   SR      w       not hb, C & L == {}    Race   report
//   SM      r / w   C & L != {}            SM     C &= L, S += t
//   SM      r / w   C & L == {}, TS hb cur ER/EW  TS = cur, Lo = L
//   SM      r       C & L == {}, not hb,
//                   each lock of C's map
//                   has the writes, hb cur SM     keep TS and C, S += t
//   SM      r / w   C & L == {}, not hb    Race   report
//   SR,SM   r / w   join rule: all of S but t ended before t   ER/EW
//   Race    any     -                      Race   nothing is checked
//
// Where a row reports, a hand-off edge of the thread, or a hand-off record
// of a thread ordered before it, that orders the previous access before
// this one (hrace_hybrid.h, HandedOver) turns "not hb" into "hb" for that
// row.
//
// A segment ends at every unlock (hrace_rtl.cpp), so in the owner's own
// segment its locks only grow and the first access's L is a safe Lo.
//
// Departures from the paper (docs/design.md):
//   - the exclusive states keep Lo, and leaving them intersects it with L.
//     The paper sets C = L, so a first, unprotected write followed by a
//     concurrent write under an unrelated lock goes to SM and is missed (its
//     4.2.5); here Lo = {} makes C empty and the race is reported.
//   - a read by the owner in its own segment keeps Exclusive-Write, so a
//     concurrent reader still meets the write.
//   - a write to Shared-Read by the thread whose read TS is, with nothing
//     acquired since that read, is a race with the other readers: each of
//     them read after TS (the cell held it), so none of their reads can
//     happen before the write. The paper goes to SM ("TS hb cur" holds
//     trivially), and the writer's next access takes the location back.
//   - an ordered read of a write does not forget the write:
//     Exclusive-Read-after-Write (ERaW) keeps both segments, and whether
//     each access held locks (Lr, Lw: one bit each, the lock sets do not
//     fit). A later access concurrent with the write is still checked
//     against it (double-checked locking; a third thread reading while the
//     writer's data is handed to an ordered reader). Lr, Lw stand for the
//     lock sets: a bit set with L non-empty counts as protected, which can
//     only miss a race with an unrelated lock, never report a false one.
//   - a read that empties C is checked against the writes, not against TS
//     alone: a read under a lock of a write made under it, neither ordered
//     after the other, goes to SM with TS = the read, which is right for what
//     is ordered after that read, and wrong for a third thread ordered after
//     the write only. Its unlocked read is ordered after every write if each
//     lock of C (every access held it, but for writes an ERaW row knew only to
//     hold some lock) has them in its map of what its sections wrote, each
//     known to its clock, and no other thread holds the lock (hrace_hybrid.h,
//     ReadAfterLockedWrites): then TS is a read, and the cell stays as it is
//     (but for S), so that each later unordered read is asked about too.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_MSM_SHORT_H
#define HRACE_MSM_SHORT_H

#include "hrace_hybrid.h"

namespace hrace {

struct MsmShort {
  // A plain store of a granule's two cells (StoreGranulePair) could forget
  // a concurrent access to the granule's other bytes, another variable: one
  // that a lock excused, or an atomic store that forgot a plain write, and
  // the shorter history would then report a later access (StoredPlainly
  // says how). The second is pinned by the stress test
  // byte_reads_lose_no_atomic_store_to_the_other_half_of_a_granule.c.
  static constexpr bool kPairsStoredPlainly = false;

  // A common lock orders nothing for a third thread, so a cell that forgot
  // the access it excused can report a later access ordered after that one
  // (runtime/hrace_access.h, StoredPlainly; RestampStoredPlainly). A cell
  // that keeps no access made under a lock excuses none that way: every row
  // that leaves it without a report needs happens-before (which joiners
  // inherit), a hand-off (which leaves a record) or nothing (a read of a
  // read; the empty C of a shared state meets no lock). Any change of it
  // may be stored plainly, except into an atomic state: an atomic store
  // ordered after a plain write forgets it (MsmAtomic), and a later atomic
  // access needs no order with the store, so an atomic load's plain store
  // that undid it would bring the write back for that access to meet
  // (test/stress/atomic_loads_lose_no_atomic_store.c).
  static ALWAYS_INLINE bool ChangeStoredPlainly(ShadowCell c, ShadowCell now) {
    using namespace hybrid;
    if (IsAtomicState(now.state()))
      return false;
    CellState s = c.state();
    switch (s) {
    case CellState::kNew:
      return true;
    case CellState::kExclusiveWrite:
    case CellState::kExclusiveRead:
      return c.aux() == kEmptyLockSet;
    case CellState::kSharedRead:
    case CellState::kSharedModified:
      return Candidates(c) == kEmptyLockSet;
    default:
      // Atomic states, an allocation's mark and Race keep the
      // compare-and-swap.
      return IsReadAfterWrite(s) &&
             !(static_cast<u8>(s) & (kReaderLocked | kWriterLocked));
    }
  }

  static ALWAYS_INLINE bool IsNoop(ShadowCell c, const ThreadState *thr,
                                   bool write) {
    return hybrid::IsNoop(c, thr, write);
  }

  // IsNoop's first row as one masked compare. A read: the segment is cur and
  // bit 2 of the state is clear, which of msm=short's states are
  // Exclusive-Write, Exclusive-Read and the four Exclusive-Read-after-Write
  // states (kReadNoopStates), and New, whose segment is 0 (Exclusive-Read-
  // Write has bit 2 clear too; msm=short never enters it).
  static constexpr InlineNoopTest InlineTest(SegmentId cur, bool write) {
    if (write)
      return WriteInlineTest(cur);
    return {kGranuleSegmentBits | 4, u64(cur) << ShadowCell::kSegmentShift};
  }

  // An access that leaves Shared-Read or Shared-Modified unchanged never
  // looked at its segment (the rows keep TS; only a lock set running empty
  // consults it, and that changes the cell), so the memo test leaves it
  // out: one test covers a shared structure's every granule, whichever
  // segment shared each. Anything else is matched exactly.
  static InlineNoopTest MemoInlineTest(ShadowCell v, bool write) {
    (void)write;
    CellState s = v.state();
    if (s != CellState::kSharedRead && s != CellState::kSharedModified)
      return ExactInlineTest(v);
    return {ShadowCell::kStateMask | kGranuleAuxBits,
            v.raw() & (ShadowCell::kStateMask | kGranuleAuxBits)};
  }

  // Exclusive-Write keeps its write in the segment, Exclusive-Read-after-
  // Write in aux.
  static SegmentId LastWrite(ShadowCell c) {
    if (c.state() == CellState::kExclusiveWrite)
      return c.segment();
    return IsReadAfterWrite(c.state()) ? c.aux() : 0;
  }

  // What orders the access in `seg` before this one: happens-before, or a
  // hand-off edge of the accessed location's heap block.
  static bool Ordered(ThreadState *thr, const AccessContext &ac,
                      SegmentId seg) {
    return HappensBefore(thr, seg) || hybrid::HandedOver(thr, ac, seg);
  }

  // The exclusive states belong to their segment's thread (Exclusive-Read-
  // after-Write to its read's).
  static SegmentId Owner(ShadowCell c) {
    CellState s = c.state();
    bool exclusive = s == CellState::kExclusiveWrite ||
                     s == CellState::kExclusiveRead || IsReadAfterWrite(s);
    return exclusive ? c.segment() : 0;
  }

  // An owner's re-stamp may be stored plainly (runtime/hrace_access.h,
  // StoredPlainly) unless it keeps a write made under a lock. A read
  // concurrent with it, of another thread under a lock the write held, goes
  // to Shared-Modified with its own segment, and a thread joined after that
  // reader is ordered after the location through it alone: forgotten, the
  // joined thread would be checked against the write, which no lock orders
  // before it. Any other access the store forgets was ordered after the
  // accesses the cell keeps by happens-before, which its joiners inherit,
  // or by a hand-off, which leaves a record for each of them
  // (hrace_hybrid.h, OrderedByHandoff); or it is concurrent with the
  // owner's new access, and a report against that one is a real race.
  static bool RestampStoredPlainly(ShadowCell now) {
    return !IsReadAfterWrite(now.state()) ||
           !(static_cast<u8>(now.state()) & kWriterLocked);
  }

  // Transition's answer when Owner(c) is a segment of thr, whose accesses
  // program order puts before this one (the rows "TS hb cur" and "R hb
  // cur"), and IsNoop is false: the access re-stamps the location as its
  // own.
  static ALWAYS_INLINE ShadowCell Restamp(ShadowCell c, ThreadState *thr,
                                          bool write) {
    using namespace hybrid;
    LockSetId locks = AccessLocks(thr, write);
    CellState state = c.state();
    if (write || state == CellState::kExclusiveRead)
      return Exclusive(thr, write, locks);
    bool writer_locked = state == CellState::kExclusiveWrite
                             ? c.aux() != kEmptyLockSet
                             : (static_cast<u8>(state) & kWriterLocked) != 0;
    SegmentId written =
        state == CellState::kExclusiveWrite ? c.segment() : c.aux();
    return ReadAfterWrite(thr->segment, written, locks != kEmptyLockSet,
                          writer_locked);
  }

  static ShadowCell Transition(ShadowCell c, ThreadState *thr,
                               const AccessContext &ac, RaceInfo *race) {
    using namespace hybrid;
    bool write = ac.write;
    LockSetId locks = AccessLocks(thr, write);
    SegmentId ts = c.segment();
    CellState state = c.state();
    if (IsReadAfterWrite(state))
      return FromReadAfterWrite(c, thr, ac, locks, race);
    switch (state) {
    case CellState::kNew:
      return Exclusive(thr, write, locks);
    case CellState::kExclusiveWrite:
    case CellState::kExclusiveRead: {
      if (ts == thr->segment)
        return write ? Exclusive(thr, true, locks) : c;
      if (HappensBefore(thr, ts))
        return AfterExclusive(c, thr, write, locks);
      LockSetId owner_locks = c.aux();
      LockSetId candidates = Intersect(thr, owner_locks, locks);
      if (state == CellState::kExclusiveRead && !write)
        return ShadowCell::Make(
            CellState::kSharedRead, ts,
            SharedAux(candidates, PairWithOwner(thr, ac, ts)));
      if (candidates != kEmptyLockSet)
        return ShadowCell::Make(
            CellState::kSharedModified, thr->segment,
            SharedAux(candidates, PairWithOwner(thr, ac, ts)));
      if (HandedOver(thr, ac, ts))
        return AfterExclusive(c, thr, write, locks);
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
      SetId with_me = AddThread(thr, ac, threads);
      if (state == CellState::kSharedRead && !write)
        return ShadowCell::Make(CellState::kSharedRead, ts,
                                SharedAux(remaining, with_me));
      if (remaining != kEmptyLockSet)
        return ShadowCell::Make(CellState::kSharedModified, ts,
                                SharedAux(remaining, with_me));
      bool ordered = HappensBefore(thr, ts) || HandedOver(thr, ac, ts);
      if (ordered && state == CellState::kSharedModified)
        return Exclusive(thr, write, locks);
      if (!ordered) {
        // A read that the locks' maps order after every write: TS is a
        // read, which it does not race with. The cell keeps C, so that the
        // next unordered read is checked against the maps again.
        if (!write && !ac.atomic &&
            ReadAfterLockedWrites(thr, ac.addr, candidates, threads))
          return ShadowCell::Make(CellState::kSharedModified, ts,
                                  SharedAux(candidates, with_me));
        return Race(race, RaceCause::kLockSetEmpty, ts, AccessKind::kAny,
                    candidates, locks);
      }
      // TS orders the write trivially when it is the writer's own read; the
      // other readers are what it must be ordered after.
      u32 reader;
      if (OthersReadUnordered(thr, ac, ts, threads, &reader)) {
        ShadowCell raced = Race(race, RaceCause::kReadersUnordered, 0,
                                AccessKind::kRead, candidates, locks);
        race->prev_thread = reader;
        return raced;
      }
      return ShadowCell::Make(CellState::kSharedModified, ts,
                              SharedAux(remaining, with_me));
    }
    default:
      return c;
    }
  }

private:
  // An access ordered after the exclusive owner's: a read of a write keeps
  // the write, anything else starts afresh.
  static ShadowCell AfterExclusive(ShadowCell c, ThreadState *thr, bool write,
                                   LockSetId locks) {
    if (write || c.state() != CellState::kExclusiveWrite)
      return hybrid::Exclusive(thr, write, locks);
    return ReadAfterWrite(thr->segment, c.segment(), locks != kEmptyLockSet,
                          c.aux() != kEmptyLockSet);
  }

  static ShadowCell ReadAfterWrite(SegmentId read, SegmentId write,
                                   bool reader_locked, bool writer_locked) {
    u8 s = static_cast<u8>(CellState::kExclusiveReadAfterWrite) |
           (reader_locked ? kReaderLocked : 0) |
           (writer_locked ? kWriterLocked : 0);
    return ShadowCell::Make(static_cast<CellState>(s), read, write);
  }

  static ShadowCell FromReadAfterWrite(ShadowCell c, ThreadState *thr,
                                       const AccessContext &ac, LockSetId locks,
                                       RaceInfo *race) {
    using namespace hybrid;
    SegmentId read = c.segment();
    SegmentId written = c.aux();
    u8 flags = static_cast<u8>(c.state()) & 3;
    bool writer_locked = flags & kWriterLocked;
    bool locked = locks != kEmptyLockSet;
    SegmentId cur = thr->segment;
    if (read == cur || HappensBefore(thr, read)) {
      if (ac.write)
        return Exclusive(thr, true, locks);
      return read == cur ? c
                         : ReadAfterWrite(cur, written, locked, writer_locked);
    }
    bool after_write = HappensBefore(thr, written);
    if (!ac.write) {
      // Reads do not race with the read; the write decides.
      if (after_write || HandedOver(thr, ac, written))
        return ShadowCell::Make(
            CellState::kSharedRead, read,
            SharedAux((flags & kReaderLocked) ? locks : kEmptyLockSet,
                      PairWithOwner(thr, ac, read)));
      if (writer_locked && locked)
        return ShadowCell::Make(
            CellState::kSharedModified, cur,
            SharedAux(locks, WithOwners(thr, ac, read, written)));
      return Race(race, RaceCause::kUnordered, written, AccessKind::kWrite,
                  kEmptyLockSet, locks);
    }
    bool read_protected = (flags & kReaderLocked) && locked;
    if (read_protected && (after_write || writer_locked))
      return ShadowCell::Make(
          CellState::kSharedModified, cur,
          SharedAux(locks, WithOwners(thr, ac, read, written)));
    // A hand-off that orders the read orders the write it read too; the
    // cell now forgets the write, so the record left covers it as well.
    if (HandedOver(thr, ac, read, written))
      return Exclusive(thr, true, locks);
    if (!read_protected)
      return Race(race, RaceCause::kUnordered, read, AccessKind::kRead,
                  kEmptyLockSet, locks);
    if (HandedOver(thr, ac, written))
      return ShadowCell::Make(CellState::kSharedModified, cur,
                              SharedAux(locks, PairWithOwner(thr, ac, read)));
    return Race(race, RaceCause::kUnordered, written, AccessKind::kWrite,
                kEmptyLockSet, locks);
  }
};

} // namespace hrace

#endif // HRACE_MSM_SHORT_H
