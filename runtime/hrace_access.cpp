//===-- hrace_access.cpp - Entry points for loads, stores and calls -------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_access.h"

#include "hrace_interface.h"

namespace hrace {

Msm active_msm;

// Every unlock calls it (NewSegment): kept lean. The memo tests are the
// memo's business (NoopMemo::Invalidate). Ignores leave the tests as they
// are: an ignored access is skipped, and so is one a test passes.
void RefreshInlineTest(ThreadState *thr) {
  InlineNoopTest read = kInlineTestOff, write = kInlineTestOff;
  if (thr->segment && !thr->record_accesses) {
    SegmentId cur = thr->segment;
    WithActiveMachine([&](auto machine) {
      using Machine = decltype(machine);
      read = Machine::InlineTest(cur, false);
      write = Machine::InlineTest(cur, true);
    });
  }
  SetInlineTest(kReadTest, read);
  SetInlineTest(kWriteTest, write);
}

void AccessUnusual(ThreadState *thr, uptr pc, uptr addr, uptr size,
                   bool write) {
  if (thr->segment == 0) {
    if (thr->in_rtl || thr->untracked || !IsInitialized())
      return;
    AdoptCurrentThread(thr);
    return MemoryAccess(thr, pc, addr, size, write);
  }
  if (write ? thr->ignore_writes : thr->ignore_reads)
    return;
  thr->in_rtl++;
  RecordRegionAccess(thr->relations, addr, size, write);
  CheckAccess(thr, pc, addr, size, write);
  LeaveRuntime(thr);
}

void MarkAllocated(ThreadState *thr, uptr pc, uptr addr, uptr size) {
  if (!size || !MarksAllocations(thr))
    return;
  MarkHeapGranules(addr, size);
  WithActiveMachine([&](auto machine) {
    ShadowWriteScope scope(thr);
    RaceInfo race{};
    ShadowCell write = decltype(machine)::Transition(
        ShadowCell(), thr, AccessContext{true, addr, false}, &race);
    ShadowCell now =
        ShadowCell::Make(CellState::kAllocated, write.segment(), write.aux());
    // The trace entry first, as in AccessSlow: a report may look for it as
    // soon as a cell names the segment.
    thr->context->trace.AddAccess(addr, size, true, false, pc, CallerStack(thr),
                                  thr->segment, thr->locks.All(&ctx->locksets));
    StoreShadowRange(addr, size, now);
  });
}

namespace {

// An entry point's access whose inline no-op test failed, for a thread on
// the plain path: an access over two granules may still change nothing,
// anything else is the machine's.
ALWAYS_INLINE void EntryAccessChanged(ThreadState *thr, uptr pc, uptr addr,
                                      uptr size, bool write) {
  WithActiveMachine([=](auto machine) {
    using Machine = decltype(machine);
    if ((addr & 7) + size > 8 &&
        AccessUnchanged<Machine, false>(thr, addr, size, write))
      return;
    AccessChanged<Machine>(thr, pc, addr, size, write);
  });
}

// A recorded access (EntryRecordedAccess) that may change a cell.
template <uptr kSize, bool kWrite>
NOINLINE void EntryRecordedAccessChanged(ThreadState *thr, uptr pc, uptr addr) {
  thr->in_rtl++;
  EntryAccessChanged(thr, pc, addr, kSize, kWrite);
  LeaveRuntime(thr);
}

// The access of a thread inside a lock region (precise=1): recorded for the
// write/read relations whether or not it changes a cell, then the no-op
// test of its constant size decides whether the machine runs. The entry
// point comes here straight from its own no-op test, and the machine is a
// tail call, so that a recorded access that changes nothing needs no stack
// frame. A write under a held lock: 7.0 ns through AccessUnusual's general
// check (an Intel Xeon); 5.5 with this inside EntryAccessSlow's frame and
// 5.0 here (an AMD EPYC, the two builds run alternately).
template <uptr kSize, bool kWrite>
NOINLINE void EntryRecordedAccess(ThreadState *thr, uptr pc, uptr addr) {
  u32 ignored = kWrite ? thr->ignore_writes : thr->ignore_reads;
  if (ignored || !thr->segment)
    return AccessUnusual(thr, pc, addr, kSize, kWrite);
  RecordRegionAccess(thr->relations, addr, kSize, kWrite);
  if ((addr & 7) + kSize <= 8 &&
      EntryGranuleUnchanged(thr, addr, kSize, kWrite))
    return;
  EntryRecordedAccessChanged<kSize, kWrite>(thr, pc, addr);
}

// The rest of an entry point's access of kSize bytes that is not recorded:
// everything MemoryAccess does, less the no-op test of one granule that
// EntryFirstCellVerdict, or EntryGranuleRest, has made.
template <uptr kSize, bool kWrite>
NOINLINE void EntryAccessSlow(ThreadState *thr, uptr pc, uptr addr) {
  if (UNLIKELY(OffThePlainPath(thr, kWrite)))
    return AccessUnusual(thr, pc, addr, kSize, kWrite);
  EntryAccessChanged(thr, pc, addr, kSize, kWrite);
}

// An entry point's access of kSize bytes, on the plain path and inside one
// granule, whose bytes the granule's first cell does not hold: the rest of
// the no-op test (the second cell, a split granule's byte cells), then
// EntryAccessSlow.
template <uptr kSize, bool kWrite>
NOINLINE void EntryGranuleRest(ThreadState *thr, uptr pc, uptr addr) {
  if (EntryGranuleUnchanged(thr, addr, kSize, kWrite))
    return;
  EntryAccessSlow<kSize, kWrite>(thr, pc, addr);
}

// The pass's pair of adjacent plain accesses of kHalf bytes each, at addr
// and addr + kHalf, whose inline test failed for either half. Decided as
// one access where one cell holds both halves' bytes (a granule re-stamped
// by its owner once, not split by the first half and joined again by the
// second), or where they take one value in a granule's cells as part of it
// (fresh memory, a buffer read after another thread wrote it); half by
// half from the first granule those leave, each half then checked, traced
// and reported as it would have been without the pairing. Halves aligned
// to their size meet a granule's end only between them, so that granule
// is the first half's or the second's. Halves out of line (a program that
// casts a byte buffer) are two accesses as they are, whatever their
// granules.
template <uptr kHalf, bool kWrite>
NOINLINE void EntryPairChanged(ThreadState *thr, uptr pc, uptr addr) {
  if (UNLIKELY(OffThePlainPath(thr, kWrite) || (addr & (kHalf - 1)) != 0)) {
    MemoryAccess(thr, pc, addr, kHalf, kWrite);
    return MemoryAccess(thr, pc, addr + kHalf, kHalf, kWrite);
  }
  WithActiveMachine([=](auto machine) {
    using Machine = decltype(machine);
    constexpr uptr kSize = 2 * kHalf;
    // Two bytes rarely cover a whole cell (AccessChanged says why).
    uptr rest =
        kHalf == 1
            ? addr
            : CellsOfOneAccess<Machine>(thr, pc, addr, kSize, kWrite).Decided();
    if (rest == addr && (addr & 7) + kSize <= 8 &&
        DecidedAsPartOfGranule<Machine>(thr, pc, addr, kSize, kWrite))
      return;
    for (uptr half = rest; half < addr + kSize; half += kHalf)
      CheckCells<Machine>(thr, pc, half, kHalf, kWrite);
  });
}

} // namespace

} // namespace hrace

using namespace hrace;

// One pair of entry points per size. The pc passed down is the return address
// into the instrumented function, which symbolizes to the access's line.
// Up to 8 bytes: the no-op test of the granule's first cell inline, the
// rest a tail call (the rest of the no-op test's, EntryGranuleRest; a
// recorded access's, EntryRecordedAccess).
#define HRACE_ACCESS_ENTRY(name, size, write)                                  \
  extern "C" void name(void *addr) {                                           \
    ThreadState *thr = cur_thread();                                           \
    uptr a = reinterpret_cast<uptr>(addr);                                     \
    EntryVerdict v = EntryFirstCellVerdict(thr, a, size, write);               \
    if (LIKELY(v == EntryVerdict::kUnchanged))                                 \
      return;                                                                  \
    if (v == EntryVerdict::kAskTheRest)                                        \
      return EntryGranuleRest<size, write>(thr, CALLER_PC(), a);               \
    if (UNLIKELY(thr->record_accesses))                                        \
      return EntryRecordedAccess<size, write>(thr, CALLER_PC(), a);            \
    EntryAccessSlow<size, write>(thr, CALLER_PC(), a);                         \
  }
// 16 bytes: all of MemoryAccess inline (EntryFirstCellVerdict says why).
#define HRACE_ACCESS_ENTRY16(name, write)                                      \
  extern "C" void name(void *addr) {                                           \
    MemoryAccess(cur_thread(), CALLER_PC(), reinterpret_cast<uptr>(addr), 16,  \
                 write);                                                       \
  }

HRACE_ACCESS_ENTRY(__hrace_read1, 1, false)
HRACE_ACCESS_ENTRY(__hrace_read2, 2, false)
HRACE_ACCESS_ENTRY(__hrace_read4, 4, false)
HRACE_ACCESS_ENTRY(__hrace_read8, 8, false)
HRACE_ACCESS_ENTRY16(__hrace_read16, false)
HRACE_ACCESS_ENTRY(__hrace_write1, 1, true)
HRACE_ACCESS_ENTRY(__hrace_write2, 2, true)
HRACE_ACCESS_ENTRY(__hrace_write4, 4, true)
HRACE_ACCESS_ENTRY(__hrace_write8, 8, true)
HRACE_ACCESS_ENTRY16(__hrace_write16, true)
// Granules are split where bytes diverge, so an unaligned access needs no
// special treatment.
HRACE_ACCESS_ENTRY(__hrace_unaligned_read2, 2, false)
HRACE_ACCESS_ENTRY(__hrace_unaligned_read4, 4, false)
HRACE_ACCESS_ENTRY(__hrace_unaligned_read8, 8, false)
HRACE_ACCESS_ENTRY16(__hrace_unaligned_read16, false)
HRACE_ACCESS_ENTRY(__hrace_unaligned_write2, 2, true)
HRACE_ACCESS_ENTRY(__hrace_unaligned_write4, 4, true)
HRACE_ACCESS_ENTRY(__hrace_unaligned_write8, 8, true)
HRACE_ACCESS_ENTRY16(__hrace_unaligned_write16, true)

#define HRACE_PAIR_ENTRY(name, half, write)                                    \
  extern "C" void name(void *addr) {                                           \
    EntryPairChanged<half, write>(cur_thread(), CALLER_PC(),                   \
                                  reinterpret_cast<uptr>(addr));               \
  }

HRACE_PAIR_ENTRY(__hrace_read1_pair, 1, false)
HRACE_PAIR_ENTRY(__hrace_read2_pair, 2, false)
HRACE_PAIR_ENTRY(__hrace_read4_pair, 4, false)
HRACE_PAIR_ENTRY(__hrace_write1_pair, 1, true)
HRACE_PAIR_ENTRY(__hrace_write2_pair, 2, true)
HRACE_PAIR_ENTRY(__hrace_write4_pair, 4, true)

extern "C" void __hrace_read_range(void *addr, uintptr_t size) {
  MemoryAccess(cur_thread(), CALLER_PC(), reinterpret_cast<uptr>(addr), size,
               false);
}

extern "C" void __hrace_write_range(void *addr, uintptr_t size) {
  MemoryAccess(cur_thread(), CALLER_PC(), reinterpret_cast<uptr>(addr), size,
               true);
}

extern "C" void __hrace_vptr_update(void **addr, void *new_vptr) {
  // Called before the store: *addr is still the old pointer. The load is the
  // runtime's own; another thread writing the pointer now is reported by the
  // access below whichever value it sees.
  bool changes = __atomic_load_n(addr, __ATOMIC_RELAXED) != new_vptr;
  MemoryAccess(cur_thread(), CALLER_PC(), reinterpret_cast<uptr>(addr),
               sizeof(*addr), changes);
}

extern "C" void __hrace_wait_loop_enter(void *, void *) {
  ThreadState *thr = cur_thread();
  if (thr->segment)
    WaitLoopEntered(thr);
}

extern "C" void __hrace_wait_loop_exit(void *, void *) {
  ThreadState *thr = cur_thread();
  if (thr->segment && !thr->in_rtl) {
    ScopedInRuntime in_rtl;
    WaitLoopExited(thr);
  }
}

extern "C" void __hrace_func_entry(void *caller_pc) {
  ThreadState *thr = cur_thread();
  u32 depth = thr->stack_depth;
  // Frames deeper than the shadow stack are counted but not recorded.
  if (LIKELY(depth < kShadowStackSize && thr->shadow_stack))
    thr->shadow_stack[depth] = {reinterpret_cast<uptr>(caller_pc), 0};
  // The frame before the depth that covers it: a signal handler arriving
  // in between must not take the previous call's stack id for this one's.
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  thr->stack_depth = depth + 1;
}

extern "C" void __hrace_func_exit() {
  ThreadState *thr = cur_thread();
  if (LIKELY(thr->stack_depth))
    thr->stack_depth--;
}
