//===-- hrace_detector.h - What a memory state machine provides -----------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every memory state machine (msm=hb, msm=short, msm=long) is a class with
//
//   static bool IsNoop(ShadowCell cell, const ThreadState *thr, bool write);
//     True when the access cannot change the cell; checked inline on the hot
//     path, so it must be a couple of compares.
//   static SegmentId LastWrite(ShadowCell cell);
//     The last write the cell keeps, or 0 (for an atomic read that moves the
//     location to AtomicAfterPlainWrite, hrace_msm_atomic.h).
//   static ShadowCell Transition(ShadowCell cell, ThreadState *thr,
//                                const AccessContext &ac, RaceInfo *race);
//     The cell after the access. Pure apart from reading thread state, so it
//     can be retried when the compare-and-swap loses. Sets *race when the
//     access is a race; the returned cell is then Race.
//
// The access driver (runtime/hrace_access.h) is a template over the machine,
// so each machine's checks are inlined into its own copy of the hot path.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_DETECTOR_H
#define HRACE_DETECTOR_H

#include "../shadow/hrace_shadow_cell.h"
#include "../runtime/hrace_lockset.h"
#include "../runtime/hrace_trace.h"

namespace hrace {

struct AccessContext {
  bool write;
  // The first byte the access covers in the granule being judged: what a
  // hand-off edge's scope is matched against (hrace_hybrid.h,
  // OrderedByHandoff), and whose granule a lock's map of writes is asked
  // about (ReadAfterLockedWrites).
  uptr addr;
  // An atomic operation (hrace_msm_atomic.h).
  bool atomic;
};

// Why the machine went to Race.
enum class RaceCause : u8 {
  // The previous access does not happen before this one and no lock is
  // common to both (msm=hb; exclusive states of the hybrid machines).
  kUnordered,
  // The candidate lock set of a shared location ran empty and this access is
  // not ordered after the remembered one (shared states).
  kLockSetEmpty,
  // One of the accesses is atomic, the other plain, and neither happens
  // before the other (hrace_msm_atomic.h).
  kAtomicUnordered,
  // A write of a shared-read location by the thread whose read the cell
  // remembers, which has learned nothing from other threads since: the
  // other readers' reads do not happen before it, and no lock is common to
  // all (msm=short). The cell names those readers, not their segments.
  kReadersUnordered,
  // An atomic access ran the candidate lock set of a shared location empty,
  // and a thread of its thread set other than this one accessed it plainly
  // (hrace_msm_atomic.h; atomics never race with each other). The cell names
  // that thread, not the segment of its access.
  kSharedWithPlainAccess,
};

constexpr u32 kAnyOtherThread = ~0u;

// What the report needs to explain the race and find the previous access.
struct RaceInfo {
  bool found;
  RaceCause cause;
  // The previous access: its segment and kind (kAny where the cell does not
  // say, e.g. the segment a shared location remembers).
  SegmentId prev_segment;
  AccessKind prev_kind;
  bool prev_atomic;
  // kLockSetEmpty, kReadersUnordered: the candidate set before this
  // access, and this access's locks.
  LockSetId candidates;
  LockSetId access_locks;
  // kReadersUnordered (prev_segment is 0): one of the other readers, or
  // kAnyOtherThread where the cell does not say which threads read;
  // kSharedWithPlainAccess (prev_segment is 0): the plain accessor.
  u32 prev_thread;
};

// Every machine's no-op write as the inline test (InlineNoopTest):
// Exclusive-Write in the current segment.
constexpr InlineNoopTest WriteInlineTest(SegmentId cur) {
  return {kGranuleSegmentBits | ShadowCell::kStateMask,
          ShadowCell::Make(CellState::kExclusiveWrite, cur, 0).raw()};
}

// A value the thread's access leaves unchanged (the NoopMemo's) as the memo
// inline test: that value exactly. `v` must fit a granule cell.
constexpr InlineNoopTest ExactInlineTest(ShadowCell v) {
  return {~GranuleCell::kMaskBits, v.raw()};
}

} // namespace hrace

#endif // HRACE_DETECTOR_H
