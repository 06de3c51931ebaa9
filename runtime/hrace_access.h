//===-- hrace_access.h - From an instrumented access to a state machine ---===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The hot path. An access of `size` bytes covers `size` cells (one per byte,
// so distinct bytes never interfere). Inline: if every cell holds the same
// value and the machine says the access changes nothing, or the thread has
// already found that value unchanged by such an access since its last
// synchronisation (hrace_noop_memo.h), return. Otherwise the slow path walks
// the cells in runs of equal values, computes one transition per run,
// records the access in the thread's trace, and publishes the run with
// compare-and-swap (CasCellRun); a cell that another thread changed in the
// meantime is recomputed on its own. A re-stamp of a location that stays
// exclusive to the accessing thread is published with plain stores instead
// (StaysWithOwner). No locks, no allocation.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_ACCESS_H
#define HRACE_ACCESS_H

#include "../detectors/hrace_detector.h"
#include "../detectors/hrace_msm_atomic.h"
#include "../shadow/hrace_shadow.h"
#include "hrace_report.h"
#include "hrace_rtl.h"

namespace hrace {

// Accesses off the plain path: ignored threads, threads the runtime has not
// met yet (adopted here), and accesses in a lock region in precise mode
// (recorded, then checked).
void AccessUnusual(ThreadState *thr, uptr pc, uptr addr, uptr size,
                   bool write);

template <typename Machine>
ALWAYS_INLINE void CheckCells(ThreadState *thr, uptr pc, uptr addr, uptr size,
                              bool write);

template <typename Machine>
ShadowCell CellTransition(ShadowCell old, ThreadState *thr,
                          const AccessContext &ac, RaceInfo *race);

// The first access to memory the allocator handed out (kAllocated): judged
// against the allocation's write, then the location starts afresh, as if
// it were New, so the accessor's own write is traced and shown in reports
// (had the allocation left an ordinary write of the thread's segment, the
// thread's first writes would change nothing and never be recorded).
template <typename Machine>
NOINLINE ShadowCell FirstAccessAfterAllocation(ShadowCell old, ThreadState *thr,
                                               const AccessContext &ac,
                                               RaceInfo *race) {
  ShadowCell allocation =
      ShadowCell::Make(CellState::kExclusiveWrite, old.segment(), old.aux());
  if (ac.atomic)
    return CellTransition<Machine>(allocation, thr, ac, race);
  Machine::Transition(allocation, thr, ac, race);
  if (race->found)
    return ShadowCell::Make(CellState::kRace, 0, 0);
  return Machine::Transition(ShadowCell(), thr, ac, race);
}

// The selected machine judges plain accesses among themselves; MsmAtomic
// whatever involves an atomic one.
template <typename Machine>
ALWAYS_INLINE ShadowCell CellTransition(ShadowCell old, ThreadState *thr,
                                        const AccessContext &ac,
                                        RaceInfo *race) {
  if (UNLIKELY(old.state() == CellState::kAllocated))
    return FirstAccessAfterAllocation<Machine>(old, thr, ac, race);
  if (UNLIKELY(ac.atomic))
    return MsmAtomic<Machine>::AtomicTransition(old, thr, ac, race);
  if (UNLIKELY(IsAtomicState(old.state())))
    return MsmAtomic<Machine>::PlainTransition(old, thr, ac, race);
  return Machine::Transition(old, thr, ac, race);
}

// The location was exclusive to this thread and stays so (a re-stamp in a
// new segment, or the owner's read becoming its write): no other thread has
// a reason to change the cell now, so the run is published with plain
// stores, not a locked compare-and-swap per 16 bytes (the locked
// instructions were two thirds of the slow path on lock-heavy programs).
// Another thread that does change it meanwhile accesses the location
// concurrently with this access; its update is lost, and the cell says what
// it would say had that access never happened. Every machine reports only
// from what its cell records, and forgetting an access only takes threads,
// segments and lock-set refinements away from it, so a lost update can
// hide a race of the forgotten access (one that involves this concurrent
// access), never make one up (docs/design.md; test/stress/
// owner_restamps_lose_no_ordered_access.c).
template <typename Machine>
ALWAYS_INLINE bool StaysWithOwner(ShadowCell old, ShadowCell now,
                                  const ThreadState *thr) {
  SegmentId owner = Machine::Owner(old);
  return owner != 0 && Machine::Owner(now) == thr->segment &&
         ctx->segments.Get(owner).thread_id == thr->thread_id;
}

template <typename Machine>
NOINLINE void AccessSlow(ThreadState *thr, uptr pc, uptr addr, uptr size,
                         bool write, bool atomic = false) {
  // A signal handler's own accesses would interleave with this one's trace
  // entry and the thread's caches: it waits until the access is done.
  thr->in_rtl++;
  RenewSegmentOfOldGeneration(thr);
  u64 *cells = MemToShadow(addr);
  AccessContext ac{write, addr, atomic};
  RaceInfo race{};
  bool traced = false;
  for (uptr i = 0; i < size;) {
    ShadowCell old = LoadCell(&cells[i]);
    uptr run_end = i + 1;
    while (run_end < size && LoadRelaxed(&cells[run_end]) == old.raw())
      run_end++;
    RaceInfo run_race{};
    ShadowCell now = CellTransition<Machine>(old, thr, ac, &run_race);
    if (now == old) {
      // The memo answers for plain accesses only.
      if (!atomic)
        thr->noops.Insert(old.raw(), write);
      i = run_end;
      continue;
    }
    // The trace entry must exist before any cell names this segment, or a
    // report in another thread could look for it too early.
    if (!traced) {
      thr->context->trace.AddAccess(addr, size, write, atomic, pc, thr->segment,
                                    thr->locks.All(&ctx->locksets));
      traced = true;
    }
    uptr k = run_end;
    if (StaysWithOwner<Machine>(old, now, thr))
      StoreCellRun(&cells[i], run_end - i, now);
    else
      k = i + CasCellRun(&cells[i], run_end - i, old, now);
    // A race counts only if it reached at least one cell.
    if (run_race.found && k > i && !race.found)
      race = run_race;
    i = k < run_end ? k : run_end;
  }
  if (race.found)
    ReportRace(thr, pc, addr, size, write, atomic, race);
  LeaveRuntime(thr);
}

template <typename Machine>
ALWAYS_INLINE void Access(ThreadState *thr, uptr pc, uptr addr, uptr size,
                          bool write) {
  u32 ignored = write ? thr->ignore_writes : thr->ignore_reads;
  if (UNLIKELY((ignored | thr->record_accesses) != 0 || thr->segment == 0))
    return AccessUnusual(thr, pc, addr, size, write);
  CheckCells<Machine>(thr, pc, addr, size, write);
}

template <typename Machine>
ALWAYS_INLINE void CheckCells(ThreadState *thr, uptr pc, uptr addr, uptr size,
                              bool write) {
  const u64 *cells = MemToShadow(addr);
  ShadowCell first = LoadCell(cells);
  if (LIKELY(Machine::IsNoop(first, thr, write) ||
             thr->noops.Contains(first.raw(), write))) {
    uptr i = 1;
    while (i < size && LoadRelaxed(&cells[i]) == first.raw())
      i++;
    if (LIKELY(i == size))
      return;
  }
  AccessSlow<Machine>(thr, pc, addr, size, write);
}

// The state machine selected by msm=, copied out of the flags at start-up so
// the hot path reads one byte that never changes.
extern Msm active_msm;

// Checks an access with the active state machine. Inline, so each entry
// point gets a copy with its size constant and the per-cell loop unrolled.
ALWAYS_INLINE void MemoryAccess(ThreadState *thr, uptr pc, uptr addr,
                                uptr size, bool write);

} // namespace hrace

#include "../detectors/hrace_msm_hb.h"
#include "../detectors/hrace_msm_long.h"
#include "../detectors/hrace_msm_short.h"

namespace hrace {

// Calls fn(Machine()) with the active state machine's type.
template <typename Fn> ALWAYS_INLINE void WithActiveMachine(Fn fn) {
  switch (active_msm) {
  case Msm::kShort:
    return fn(MsmShort());
  case Msm::kLong:
    return fn(MsmLong());
  case Msm::kHb:
    return fn(MsmHb());
  }
}

ALWAYS_INLINE void MemoryAccess(ThreadState *thr, uptr pc, uptr addr,
                                uptr size, bool write) {
  WithActiveMachine([=](auto machine) __attribute__((always_inline)) {
    Access<decltype(machine)>(thr, pc, addr, size, write);
  });
}

// An atomic operation's access, for a thread known to be active (its
// synchronisation is hrace_atomic.cpp's). Ignored accesses stay ignored.
ALWAYS_INLINE void AtomicMemoryAccess(ThreadState *thr, uptr pc, uptr addr,
                                      uptr size, bool write) {
  if (UNLIKELY((write ? thr->ignore_writes : thr->ignore_reads) != 0))
    return;
  WithActiveMachine([=](auto machine) __attribute__((always_inline)) {
    using Machine = decltype(machine);
    const u64 *cells = MemToShadow(addr);
    ShadowCell first = LoadCell(cells);
    if (LIKELY(MsmAtomic<Machine>::IsNoop(first, thr, write))) {
      uptr i = 1;
      while (i < size && LoadRelaxed(&cells[i]) == first.raw())
        i++;
      if (LIKELY(i == size))
        return;
    }
    AccessSlow<Machine>(thr, pc, addr, size, write, /*atomic=*/true);
  });
}

// The allocator has just handed out [addr, addr+size) to thr: a write, kept
// as Allocated cells (FirstAccessAfterAllocation). No other thread can
// legally reach the memory yet and every cell is New, so plain stores set
// them. A thread that got the pointer through a race and touches the memory
// at once may have its update overwritten: a missed report of an access
// that is racy anyway, never a false one.
void MarkAllocated(ThreadState *thr, uptr pc, uptr addr, uptr size);

// The check alone, for a thread known to be active.
ALWAYS_INLINE void CheckAccess(ThreadState *thr, uptr pc, uptr addr,
                               uptr size, bool write) {
  WithActiveMachine([=](auto machine) __attribute__((always_inline)) {
    CheckCells<decltype(machine)>(thr, pc, addr, size, write);
  });
}

} // namespace hrace

#endif // HRACE_ACCESS_H
