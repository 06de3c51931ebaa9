//===-- hrace_hybrid.h - What the hybrid machines share -------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// MSM-short and MSM-long (seeds/000, 4.2) keep in a shadow cell:
//
//   exclusive states  segment = TS (the owner's segment)
//                     aux     = the owner's lock set at that access
//   msm=short's       segment = R, the read's segment
//   ExclusiveRead-    aux     = W, the segment of the write it read
//   AfterWrite        state flags: R and W held locks (or not)
//   shared states     segment = TS
//                     aux     = candidate lock set C (20 bits)
//                             | thread set S (10 bits) << 20
//
// Locks give no happens-before in these machines (LocksOrder() is false);
// ordering comes from create/join, signal/wait, barriers, semaphores, once,
// atomics, annotations and, in precise mode, the write/read relations of
// wait and polling loops. Hand-off edges (runtime/hrace_handoff.h) are
// consulted only where a machine would otherwise report.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_HYBRID_H
#define HRACE_HYBRID_H

#include "../runtime/hrace_rtl.h"
#include "hrace_detector.h"

namespace hrace {

namespace hybrid {

constexpr u32 kCandidateBits = 20;
constexpr u32 kCandidateMask = (1u << kCandidateBits) - 1;
static_assert(kMaxLockSets <= (1u << kCandidateBits), "C must fit its field");
static_assert(kCandidateBits + 10 <= kCellFieldBits, "aux holds C and S");

// A member of a thread set S: a thread id (its low 30 bits), tagged so that
// thread sets and lock sets never share a memo entry of the per-thread
// cache, and marked atomic when the access that made the thread a member was
// atomic. Atomics never race with each other, so an atomic access that runs
// a shared location's lock set empty asks whether any other member was plain
// (MsmAtomic, OtherPlainMember). A thread that accessed a location both ways
// is a member twice.
constexpr u32 kThreadTag = 1u << 31;
constexpr u32 kAtomicMember = 1u << 30;
constexpr u32 kMemberThreadMask = kAtomicMember - 1;
ALWAYS_INLINE u32 Member(u32 thread_id, bool atomic) {
  return (thread_id & kMemberThreadMask) | kThreadTag |
         (atomic ? kAtomicMember : 0);
}
ALWAYS_INLINE u32 MemberThread(u32 member) {
  return member & kMemberThreadMask;
}
// The member this access of thr makes.
ALWAYS_INLINE u32 SelfMember(const ThreadState *thr, const AccessContext &ac) {
  return Member(thr->thread_id, ac.atomic);
}

ALWAYS_INLINE LockSetId Candidates(ShadowCell c) {
  return c.aux() & kCandidateMask;
}
ALWAYS_INLINE SetId Threads(ShadowCell c) { return c.aux() >> kCandidateBits; }
ALWAYS_INLINE u32 SharedAux(LockSetId candidates, SetId threads) {
  return candidates | (threads << kCandidateBits);
}

// L of the tables: all held locks protect a read, write-held locks a write.
ALWAYS_INLINE LockSetId AccessLocks(ThreadState *thr, bool write) {
  return write ? thr->locks.WriteHeld(&ctx->locksets)
               : thr->locks.All(&ctx->locksets);
}

ALWAYS_INLINE LockSetId Intersect(ThreadState *thr, LockSetId a,
                                  LockSetId b) {
  return thr->set_ops.Intersect(&ctx->locksets, a, b);
}

// {t, owner of a, owner of b}; b may be 0. The owners are plain members:
// an atomic access keeps an exclusive state only unchanged (the owner's
// own, in the segment of its plain access or of an allocation's mark).
SetId WithOwners(ThreadState *thr, const AccessContext &ac, SegmentId a,
                 SegmentId b);

// On the way to a report only: a hand-off edge of thr, or one of a thread
// whose access to the same block happens before this one, orders the access
// in segment `seg` before this access (runtime/hrace_handoff.h). The record
// this access leaves for the threads ordered after it also covers
// `earlier` (0: none), an access `seg` was ordered after and the new cell
// forgets (a write whose read a hand-off orders).
bool OrderedByHandoff(ThreadState *thr, uptr addr, SegmentId seg,
                      SegmentId earlier);
ALWAYS_INLINE bool HandedOver(ThreadState *thr, const AccessContext &ac,
                              SegmentId seg, SegmentId earlier = 0) {
  return (!thr->relations.handoffs.empty() || HandoffRecords::AnyAdded()) &&
         OrderedByHandoff(thr, ac.addr, seg, earlier);
}

// On the way to a report only: a read by thr of the granule at `addr`, not
// ordered after the location's last access, is ordered after every write of the
// location all the same. Every access of a shared location whose candidate set
// is `candidates` held each of its locks (but for a write that an
// Exclusive-Read-after-Write row knew only to hold some lock: docs/design.md,
// Known limits), so each lock's map of what its sections wrote
// (runtime/hrace_lock_writes.h) holds every write of the location (unless it
// says it missed one): if each lock's map holds some, all known to thr's clock,
// and no other thread holds the lock now (an open section may have written the
// location and not published it yet), the read is ordered after the last write.
// Not where a member of `threads` accessed the location atomically: atomic
// writes under a lock never reach its map. What the cell names is then a read
// that only the lock ordered after that write: the two reads do not race (a
// third thread reads, unlocked, what was handed to it after a write that a
// locked reader has read since).
bool ReadAfterLockedWrites(ThreadState *thr, uptr addr, LockSetId candidates,
                           SetId threads);

// A shared location's thread set `threads` holds a thread other than t
// (*reader), and `seg`, the first read the location remembers, is t's own,
// after t last learned anything from another thread. Every other member
// read the location after that read (the cell held it), so no read of
// theirs happens before t's current access; a hand-off edge in the
// location's scope could order one, so the answer is no where there is any.
bool OthersReadUnordered(ThreadState *thr, const AccessContext &ac,
                         SegmentId seg, SetId threads, u32 *reader);

// S u {t}.
ALWAYS_INLINE SetId AddThread(ThreadState *thr, const AccessContext &ac,
                              SetId threads) {
  return thr->set_ops.Insert(&ctx->threadsets, threads, SelfMember(thr, ac));
}

// {t, owner of seg}, the owner's access plain (WithOwners).
SetId PairWithOwner(ThreadState *thr, const AccessContext &ac, SegmentId seg);

// A member of `threads` whose access was plain, of a thread other than thr
// (*thread: its id; kAnyOtherThread for a set that overflowed its table,
// which names no member).
bool OtherPlainMember(ThreadState *thr, SetId threads, u32 *thread);

// The join rule (seeds/000, 4.1.2), applied lazily: every thread of S other
// than the current one has ended, and its end happens before the current
// access. Then the location is no longer shared and goes back to exclusive.
bool AloneAfterJoins(ThreadState *thr, SetId threads);

ALWAYS_INLINE ShadowCell Exclusive(ThreadState *thr, bool write,
                                   LockSetId locks) {
  return ShadowCell::Make(write ? CellState::kExclusiveWrite
                                : CellState::kExclusiveRead,
                          thr->segment, locks);
}

ALWAYS_INLINE ShadowCell Race(RaceInfo *race, RaceCause cause,
                              SegmentId prev, AccessKind kind,
                              LockSetId candidates, LockSetId locks) {
  race->found = true;
  race->cause = cause;
  race->prev_segment = prev;
  race->prev_kind = kind;
  race->candidates = candidates;
  race->access_locks = locks;
  race->prev_thread = 0;
  return ShadowCell::Make(CellState::kRace, 0, 0);
}

ALWAYS_INLINE AccessKind KindOf(CellState s) {
  return s == CellState::kExclusiveWrite  ? AccessKind::kWrite
         : s == CellState::kExclusiveRead ? AccessKind::kRead
                                          : AccessKind::kAny;
}

// The exclusive states are as cheap as msm=hb's: the owner touching the cell
// again in the same segment changes nothing. One bit per state, so the test
// is a shift and a mask whatever the state.
constexpr u32 StateBit(CellState s) { return 1u << static_cast<u32>(s); }
constexpr u32 kReadNoopStates =
    StateBit(CellState::kExclusiveWrite) | StateBit(CellState::kExclusiveRead) |
    (0xfu << static_cast<u32>(CellState::kExclusiveReadAfterWrite));
constexpr u32 kWriteNoopStates = StateBit(CellState::kExclusiveWrite);

ALWAYS_INLINE bool IsNoop(ShadowCell c, const ThreadState *thr, bool write) {
  u32 bit = StateBit(c.state());
  if ((bit & (write ? kWriteNoopStates : kReadNoopStates)) &&
      c.segment() == thr->segment)
    return true;
  return bit & StateBit(CellState::kRace);
}

} // namespace hybrid

} // namespace hrace

#endif // HRACE_HYBRID_H
