//===-- hrace_msm_hb.h - The pure happens-before machine (msm=hb) ---------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Two accesses race when at least one writes and neither happens before the
// other; lock release -> acquire orders (../shared/state-machines.md). The
// cell keeps the last write and the most recent read:
//
//   state           segment        aux
//   New             -              -
//   ExclusiveWrite  last write W   -      (no read since W)
//   ExclusiveRead   last write W   last read R (W happens before R, or W = 0)
//   ExclusiveRead-  last write W   read R, and since R a read of another
//     AndOthers (ERO)                     thread that R does not happen before
//   Race            -              -      (reported; not checked again)
//
//   access  state            condition              next            effect
//   read    New              -                      ExclusiveRead   R = cur
//   read    ExclusiveWrite   W = cur                (no change)
//   read    ExclusiveWrite   W hb cur               ExclusiveRead   R = cur
//   read    ExclusiveWrite   not W hb cur           Race            report W
//   read    ExclusiveRead    R = cur                (no change)
//   read    ExclusiveRead    W, R hb cur            ExclusiveRead   R = cur
//   read    ExclusiveRead    W hb cur, not R hb cur ERO             keeps R
//   read    ERO              R = cur                (no change)
//   read    ERO              W, R hb cur, R is t's,
//                            no acquire since R     ERO             R = cur
//   read    ERO              W, R hb cur otherwise  ExclusiveRead   R = cur
//   read    ERO              W hb cur, not R hb cur (no change)     keeps R
//   read    ExclusiveRead    not W hb cur           Race            report W
//   write   New              -                      ExclusiveWrite  W = cur
//   write   ExclusiveWrite   W = cur                (no change)
//   write   ExclusiveWrite   W hb cur               ExclusiveWrite  W = cur
//   write   ExclusiveWrite   not W hb cur           Race            report W
//   write   ExclusiveRead    R, W hb cur            ExclusiveWrite  W = cur
//   write   ER, ERO          not R hb cur           Race            report R
//   write   ER, ERO          not W hb cur           Race            report W
//   write   ERO              R, W hb cur, R is t's,
//                            no acquire since R     Race            report
//                                                                   another
//                                                                   thread's read
//   write   ERO              R, W hb cur otherwise  ExclusiveWrite  W = cur
//
// Keeping one read instead of a read vector clock is the approximation: of
// several unordered reads only the first is checked by a later write
// (docs/design.md). ERO narrows it: the reads ERO stands for came after R
// (the cell held R), so when R's own thread writes without having acquired
// anything since R, none of them happens before the write.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_MSM_HB_H
#define HRACE_MSM_HB_H

#include "../runtime/hrace_rtl.h"
#include "hrace_detector.h"

namespace hrace {

struct MsmHb {
  // Every order this machine and its atomic cells use is happens-before,
  // which is transitive: a report from a cell that forgot a concurrent
  // access names two accesses that really race, so any cell change of
  // exactly the accessed bytes may be a plain store (runtime/hrace_access.h,
  // StoredPlainly).
  static constexpr bool ChangeStoredPlainly(ShadowCell, ShadowCell) {
    return true;
  }
  // For the same reason a change of a cell that holds part of a granule may
  // store both of the granule's cells plainly (StoreGranulePair), though it
  // can forget a concurrent access to the other bytes, another variable:
  // what the cells keep of each byte is still accesses made to it.
  static constexpr bool kPairsStoredPlainly = true;

  static ALWAYS_INLINE bool IsNoop(ShadowCell c, const ThreadState *thr,
                                   bool write) {
    CellState s = c.state();
    if (s == CellState::kRace)
      return true;
    if (s == CellState::kExclusiveWrite)
      return c.segment() == thr->segment;
    return !write && IsExclusiveRead(s) && c.aux() == thr->segment;
  }

  // IsNoop as one masked compare: Exclusive-Write in cur for a write;
  // for a read, Exclusive-Read or ERO whose read is cur (a thread reading
  // again what another wrote; its own writes read again go to the runtime).
  // The two states differ in bit 0 alone.
  static_assert((static_cast<u32>(CellState::kExclusiveRead) ^
                 static_cast<u32>(CellState::kExclusiveReadAndOthers)) == 1,
                "ER and ERO share one masked compare");
  static constexpr InlineNoopTest InlineTest(SegmentId cur, bool write) {
    if (write)
      return WriteInlineTest(cur);
    return {kGranuleAuxBits | (ShadowCell::kStateMask & ~u64(1)),
            ShadowCell::Make(CellState::kExclusiveRead, 0, cur).raw()};
  }

  static InlineNoopTest MemoInlineTest(ShadowCell v, bool write) {
    (void)write;
    return ExactInlineTest(v);
  }

  static SegmentId LastWrite(ShadowCell c) {
    CellState s = c.state();
    bool keeps_write = s == CellState::kExclusiveWrite || IsExclusiveRead(s);
    return keeps_write ? c.segment() : 0;
  }

  // What orders the access in `seg` before this one: happens-before alone.
  static bool Ordered(ThreadState *thr, const AccessContext &ac,
                      SegmentId seg) {
    (void)ac;
    return HappensBefore(thr, seg);
  }

  // Every change is stored plainly (ChangeStoredPlainly).
  static constexpr bool RestampStoredPlainly(ShadowCell) { return true; }

  // The latest access's thread: the write's, or the read's once there is
  // one (the write it keeps happens before that read). ERO has none: its
  // reader's write must meet the other readers (Transition).
  static SegmentId Owner(ShadowCell c) {
    CellState s = c.state();
    if (s == CellState::kExclusiveWrite)
      return c.segment();
    return s == CellState::kExclusiveRead ? c.aux() : 0;
  }

  // Transition's answer when Owner(c) is a segment of thr and IsNoop is
  // false: the write a read kept happens before that read, so before this
  // access too.
  static ALWAYS_INLINE ShadowCell Restamp(ShadowCell c, ThreadState *thr,
                                          bool write) {
    SegmentId cur = thr->segment;
    if (write)
      return ShadowCell::Make(CellState::kExclusiveWrite, cur, 0);
    // Both exclusive states keep the last write in the segment.
    return ShadowCell::Make(CellState::kExclusiveRead, c.segment(), cur);
  }

  static ShadowCell Transition(ShadowCell c, ThreadState *thr,
                               const AccessContext &ac, RaceInfo *race) {
    SegmentId cur = thr->segment;
    switch (c.state()) {
    case CellState::kNew:
      return ac.write ? ShadowCell::Make(CellState::kExclusiveWrite, cur, 0)
                      : ShadowCell::Make(CellState::kExclusiveRead, 0, cur);
    case CellState::kExclusiveWrite:
      // The writer's own segment: a read or write changes nothing (a read
      // must not forget the write a concurrent reader would race with).
      if (c.segment() == cur)
        return c;
      if (!HappensBefore(thr, c.segment()))
        return Race(race, c.segment(), AccessKind::kWrite);
      return ac.write ? ShadowCell::Make(CellState::kExclusiveWrite, cur, 0)
                      : ShadowCell::Make(CellState::kExclusiveRead,
                                         c.segment(), cur);
    case CellState::kExclusiveRead:
    case CellState::kExclusiveReadAndOthers: {
      bool others = c.state() == CellState::kExclusiveReadAndOthers;
      if (ac.write && !HappensBefore(thr, c.aux()))
        return Race(race, c.aux(), AccessKind::kRead);
      if (!HappensBefore(thr, c.segment()))
        return Race(race, c.segment(), AccessKind::kWrite);
      // Concurrent readers keep the first read: replacing it on every read
      // would make each reader rewrite the cell, and the cache line would
      // bounce between them, for a read no more telling than the one kept.
      // The first of them only says it came.
      if (!ac.write && !HappensBefore(thr, c.aux()))
        return others ? c
                      : ShadowCell::Make(CellState::kExclusiveReadAndOthers,
                                         c.segment(), c.aux());
      bool unordered_others = others && NothingAcquiredSince(thr, c.aux());
      // The cell does not say which threads read: the report looks.
      if (ac.write && unordered_others)
        return Race(race, 0, AccessKind::kRead, RaceCause::kReadersUnordered);
      if (ac.write)
        return ShadowCell::Make(CellState::kExclusiveWrite, cur, 0);
      if (c.aux() == cur)
        return c;
      return ShadowCell::Make(unordered_others
                                  ? CellState::kExclusiveReadAndOthers
                                  : CellState::kExclusiveRead,
                              c.segment(), cur);
    }
    default:
      return c;
    }
  }

private:
  static bool IsExclusiveRead(CellState s) {
    return s == CellState::kExclusiveRead ||
           s == CellState::kExclusiveReadAndOthers;
  }

  static ShadowCell Race(RaceInfo *race, SegmentId prev, AccessKind kind,
                         RaceCause cause = RaceCause::kUnordered) {
    race->found = true;
    race->cause = cause;
    race->prev_segment = prev;
    race->prev_kind = kind;
    race->prev_thread =
        cause == RaceCause::kReadersUnordered ? kAnyOtherThread : 0;
    return ShadowCell::Make(CellState::kRace, 0, 0);
  }
};

} // namespace hrace

#endif // HRACE_MSM_HB_H
