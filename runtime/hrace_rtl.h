//===-- hrace_rtl.h - The runtime's global state and events ---------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The events the interceptors and the instrumentation feed in: thread
// lifecycle, lock operations, releases and acquires. Each event updates
// vector clocks and segments; the detectors read them on every access.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_RTL_H
#define HRACE_RTL_H

#include "../detectors/hrace_lock_order.h"
#include "hrace_deadlock.h"
#include "hrace_defs.h"
#include "hrace_flags.h"
#include "hrace_heap_block.h"
#include "hrace_lockset.h"
#include "hrace_segment.h"
#include "hrace_stack_depot.h"
#include "hrace_sync.h"
#include "hrace_thread.h"

namespace hrace {

struct Context {
  bool initialized;
  Flags flags;
  SegmentTable segments;
  // Orders the shadow clears that start segment generations.
  SpinMutex generation_mu;
  SyncTable syncs;
  IdSetTable locksets;
  // Thread sets of shared locations (ids of T<n>), for the join rule.
  IdSetTable threadsets;
  ThreadRegistry threads;
  // Stacks kept for reports: where sync objects were first seen, where
  // lock-order edges were made, where threads were created, and the call
  // stack of every access in the traces.
  StackDepot stacks;
  LockOrderGraph lock_order;
};

// Thread set ids must fit the 10 bits a shared shadow cell gives them (two
// halves, recycled with the shadow's generations); the last id stands for a
// set of more threads than a set holds, which the join rule never shrinks.
constexpr u32 kMaxThreadSets = 1 << 10;
constexpr SetId kThreadSetOverflow = kMaxThreadSets - 1;

// Lives in zero-initialised storage and is built by Initialize(), which can
// run before the program's static constructors.
extern Context *ctx;

void Initialize();
ALWAYS_INLINE bool IsInitialized() { return ctx && ctx->initialized; }

// The thread leaves one level of the runtime; a signal that arrived inside
// it is handled once it is out of the last.
ALWAYS_INLINE void LeaveRuntime(ThreadState *thr) {
  u32 depth = thr->in_rtl - 1;
  thr->in_rtl = depth;
  if (UNLIKELY(__atomic_load_n(&signals_deferred, __ATOMIC_RELAXED)) && !depth)
    deliver_deferred_signals();
}

// Marks the current thread as inside the runtime for its lifetime: the
// runtime's own calls to intercepted functions pass straight through and its
// own memory accesses are never checked.
class ScopedInRuntime {
public:
  ScopedInRuntime() : thr_(cur_thread()) { thr_->in_rtl++; }
  ~ScopedInRuntime() { LeaveRuntime(thr_); }

private:
  ThreadState *thr_;
};

// --- Happens-before ---------------------------------------------------------

// Ends the current segment of thr and starts a new one (after a release).
void NewSegment(ThreadState *thr);

// Sets the running thread's inline no-op tests (hrace_inline_test.h) from
// its segment and whether it records its accesses. Called at each new
// segment (a thread that starts to record turns them off itself,
// TurnInlineTestsOff).
void RefreshInlineTest(ThreadState *thr);

// A thread that has not made a segment since a new segment generation
// started takes one of the new generation before it writes a cell (so that
// no cell names an id of two generations ago); a cheap check for the slow
// path of an access.
ALWAYS_INLINE void RenewSegmentOfOldGeneration(ThreadState *thr) {
  if (UNLIKELY(thr->segment_cursor.generation != ctx->segments.generation()))
    NewSegment(thr);
}

// From taking a segment id of the current generation to the last store of
// it in the shadow. An id one generation old keeps its meaning; one two
// generations old would be read as an id of the current generation, so the
// thread that starts generation g + 2 waits until no thread is inside such
// a scope with an id of generation g (StartNextSegmentGeneration). The
// scope says so with a plain store, which that thread makes visible with an
// asymmetric fence: the generation is read again after the store, and a
// clear that slipped in between takes a new id.
class ShadowWriteScope {
public:
  explicit ShadowWriteScope(ThreadState *thr) : thr_(thr) {
    for (;;) {
      RenewSegmentOfOldGeneration(thr);
      u32 generation = thr->segment_cursor.generation;
      StoreRelaxed(&thr->shadow_write_generation, generation + 1);
      FenceForAsymmetricReader();
      if (LIKELY(ctx->segments.generation() == generation))
        return;
      StoreRelease(&thr->shadow_write_generation, 0u);
    }
  }
  ~ShadowWriteScope() { StoreRelease(&thr_->shadow_write_generation, 0u); }
  ShadowWriteScope(const ShadowWriteScope &) = delete;
  ShadowWriteScope &operator=(const ShadowWriteScope &) = delete;

private:
  ThreadState *thr_;
};

// ANNOTATE_BENIGN_RACE ranges: the cells are put in the Race state, again
// after each clear of the shadow.
void AddBenignRace(uptr addr, uptr size);

// The point `s` of a thread's history happens before the current point of
// thr.
ALWAYS_INLINE bool KnowsPoint(ThreadState *thr, SegmentInfo s) {
  // A point of the thread that had this slot before: the thread's own clock
  // entry says nothing about it, only what its creator knew does.
  if (s.slot == thr->slot && s.thread_id != thr->thread_id)
    return thr->previous_owner_clock >= s.clock;
  return thr->vc.Get(s.slot) >= s.clock;
}

// Segment `seg` happens before the current point of thr.
ALWAYS_INLINE bool HappensBefore(ThreadState *thr, SegmentId seg) {
  // The thread's own segments (the common case of a re-stamp), by id alone.
  if (InSamePage(seg, thr->segment) || seg == 0)
    return true;
  return KnowsPoint(thr, ctx->segments.Get(seg));
}

// Segment `seg` is thr's own, and thr has acquired nothing since it began:
// an access of another thread made after one in `seg` cannot happen before
// thr's current point. (An acquire in `seg` itself may have come after the
// access, so it counts.)
inline bool NothingAcquiredSince(ThreadState *thr, SegmentId seg) {
  SegmentInfo s = ctx->segments.Get(seg);
  return s.thread_id == thr->thread_id && s.clock > thr->last_acquire_clock;
}

// Everything `clock` knows happens before thr from now on.
void AcquireClock(ThreadState *thr, const VectorClock &clock);
void AcquireClock(ThreadState *thr, const ClockRef &clock);

// Thread T<thread_id> has ended and its end happens before thr (it was joined,
// directly or through other synchronisation).
bool EndedBefore(ThreadState *thr, u32 thread_id);

// These few questions are inline: every lock and unlock asks them, and a
// lock/unlock pair's budget is a few dozen nanoseconds.
// Locks release -> acquire only in the pure happens-before machine; the
// hybrid machines check locks with lock sets instead.
ALWAYS_INLINE bool LocksOrder() { return ctx->flags.msm == Msm::kHb; }
// Threads keep their acquisitions with stacks (HeldAcquisitions): for the
// lock-order graph and the misuse reports.
ALWAYS_INLINE bool TracksAcquisitions() {
  return ctx->flags.detect_deadlocks || ctx->flags.report_misuse;
}
// The write/read relations (hrace_write_read.h) are kept in precise mode of
// a hybrid machine.
ALWAYS_INLINE bool WriteReadRelationsEnabled() {
  return ctx->flags.precise && ctx->flags.msm != Msm::kHb;
}
// A thread records its accesses for them while it holds a lock. Its inline
// tests go off when it starts (the memo's went with the lock's acquire);
// recording stops only at an unlock, whose new segment sets them again
// (RefreshInlineTest).
ALWAYS_INLINE void UpdateRecording(ThreadState *thr) {
  u32 record = WriteReadRelationsEnabled() && thr->locks.count() > 0 ? 1 : 0;
  if (record && !thr->record_accesses)
    TurnInlineTestsOff();
  thr->record_accesses = record;
}

// Release/acquire on a sync object's clock; s->mu must not be held.
void Acquire(ThreadState *thr, SyncObject *s);
void Release(ThreadState *thr, SyncObject *s);
void AcquireAddr(ThreadState *thr, uptr addr);
void ReleaseAddr(ThreadState *thr, uptr addr);
// An acquire or release of the atomic variable at addr by code the pass did
// not see (an atomic left in the program, libstdc++'s guard release), with
// the clock atomic operations use (hrace_atomic.cpp).
void AtomicAcquireAddr(ThreadState *thr, uptr addr);
void AtomicReleaseAddr(ThreadState *thr, uptr addr);
// pthread_barrier_wait: the arrival publishes into its round's clock and
// returns the round; leaving acquires that round's clock only.
void BarrierInit(ThreadState *thr, uptr addr, u32 count);
u32 BarrierArrive(ThreadState *thr, uptr addr);
void BarrierLeave(ThreadState *thr, uptr addr, u32 round);

// --- Locks ------------------------------------------------------------------

// The current stack (pc innermost), stored in the depot.
StackId CurrentStack(ThreadState *thr, uptr pc);
// The lock at addr, named (M<n>) and its first sighting recorded; nullptr for
// non-app addresses.
SyncObject *NameLock(ThreadState *thr, uptr pc, SyncObject *s);
ALWAYS_INLINE SyncObject *NamedLock(ThreadState *thr, uptr pc, uptr addr) {
  SyncObject *s = ctx->syncs.GetOrCreate(addr);
  if (!s || LIKELY(LoadRelaxed(&s->lock_id)))
    return s;
  return NameLock(thr, pc, s);
}
// Whether acquiring a lock now can add lock-order edges: only with
// detect_deadlocks, and only from locks the thread holds.
ALWAYS_INLINE bool AddsLockOrderEdges(ThreadState *thr) {
  return ctx->flags.detect_deadlocks && thr->acquisitions.count();
}
// The thread is about to block acquiring the lock at addr (not a trylock):
// the lock-order edges from the locks it holds (detect_deadlocks).
void MutexPreLock(ThreadState *thr, uptr pc, uptr addr);
// The same for a lock already looked up (NamedLock): lock interceptors look
// the object up once for all their steps. Inline: a thread that holds no
// lock has no edge to add.
ALWAYS_INLINE void MutexPreLock(ThreadState *thr, uptr pc, SyncObject *s) {
  if (AddsLockOrderEdges(thr))
    LockOrderBeforeAcquire(thr, pc, s);
}
// A lock was acquired (write = exclusively) at pc. Updates the lock set and,
// where the state machine counts locks as ordering, the clocks.
void MutexLocked(ThreadState *thr, uptr pc, uptr addr, bool write);
void MutexLocked(ThreadState *thr, uptr pc, SyncObject *s, bool write);
// A lock is about to be released; `for_wait`: by a condition wait, which
// takes it again before it returns.
void MutexUnlocking(ThreadState *thr, uptr addr, bool write,
                    bool for_wait = false);
void MutexUnlocking(ThreadState *thr, SyncObject *s, bool write,
                    bool for_wait = false);
void MutexDestroyed(ThreadState *thr, uptr addr);
// ANNOTATE_PURE_HAPPENS_BEFORE_MUTEX: the lock at addr orders in every
// machine.
void MutexIsPureHappensBefore(uptr addr);
// How deep thr holds the lock at addr for writing (0: not at all).
u32 MutexRecursion(ThreadState *thr, uptr addr);

// --- Threads ----------------------------------------------------------------

// Called in the parent before the thread exists; the child starts after
// everything the parent did so far. Null when every thread slot is taken:
// the new thread then runs unchecked (MarkUntracked).
ThreadContext *ThreadCreate(ThreadState *parent, uptr pc);
// The thread is not checked and takes no part in synchronisation: no slot
// was free for it.
void MarkUntracked(ThreadState *thr);
// Called in the new thread before it runs any program code.
void ThreadStart(ThreadState *thr, ThreadContext *tc);
// Called when the thread's start routine returns or it calls pthread_exit.
void ThreadFinish(ThreadState *thr);
void ThreadJoin(ThreadState *thr, ThreadContext *tc);
void ThreadDetach(ThreadState *thr, ThreadContext *tc);
// Registers a thread that was not created through pthread_create.
void AdoptCurrentThread(ThreadState *thr);

// --- Processes --------------------------------------------------------------

// Around fork (hrace_fork.cpp): before, wait until no other thread holds a
// runtime lock; after, in the child, only the forking thread is left.
void ForkBefore(ThreadState *thr);
void ForkParentAfter(ThreadState *thr);
void ForkChildAfter(ThreadState *thr);

// --- Memory -----------------------------------------------------------------

// A heap block appeared: it carries no history (what a free left in its
// cells is forgotten). The cells of its first `rewritten` bytes are left
// for the caller, which stores all of them at once (MarkAllocated).
// `prefaulted`: its shadow was just brought in (PrefaultShadowRange) and is
// cleared in place rather than given back.
void HeapBlockAllocated(uptr addr, uptr size, uptr rewritten = 0,
                        bool prefaulted = false);
// A heap block went away unseen by the checker (freed by the runtime's own
// call or an untracked thread): forgotten.
void HeapBlockFreed(uptr addr, uptr size);
// thr frees a heap block: a write to its first kFreeCheckedBytes, checked
// against every unordered access and left in the cells, so that a later
// access by an unordered thread is reported as racing with the free. The
// rest is forgotten. In a block larger than kFreeWritesNewBytes, bytes never
// accessed since the allocation stay New. The free is reported with the
// frames free_pc (free, operator delete) and caller_pc.
constexpr uptr kFreeCheckedBytes = 4096;
constexpr uptr kFreeWritesNewBytes = 256;
// Set on the pc of a frame the runtime adds for a call the program made
// (free): the frame is shown, the summary names the program's frame below.
constexpr uptr kRuntimeFramePc = static_cast<uptr>(1) << 63;

void HeapBlockFreedBy(ThreadState *thr, uptr free_pc, uptr caller_pc, uptr addr,
                      uptr size);

// A synchronisation object is memory (its first byte stands for it): a
// pthreads call at caller_pc reads it atomically (lock, unlock, signal,
// wait, post, arrival), init and destroy write it. So a use by a thread not
// ordered after an init, or a destroy or re-init not ordered after a use,
// is a data race, reported with the frame of the pthreads function (at fn)
// on top. In the hybrid machines, where locks do not order, a write forgets
// the uses before it (the object's own order covers them, which lock sets
// cannot show): only uses after it are checked.
// (SyncObjectUsed is inline in hrace_access.h: most uses change nothing,
// and a lock and unlock make two; this is the rest of it.)
void SyncObjectUsedChanged(ThreadState *thr, uptr fn, uptr caller_pc,
                           uptr addr);
void SyncObjectWritten(ThreadState *thr, uptr fn, uptr caller_pc, uptr addr);

// thr got [addr, addr+size) from the allocator (malloc and friends, new,
// mmap) through the function at alloc_pc, called at caller_pc: a write of
// its first kAllocWrittenBytes by the allocation, so that a thread handed
// the pointer without ordering races with it. heap: the range is a heap
// block (recorded for reports).
constexpr uptr kAllocWrittenBytes = 256;
// Heap blocks of this many bytes have their shadow brought in at once
// (PrefaultShadowRange): below, a system call costs more than the faults it
// saves; above, a sparse array's shadow would take memory it never uses.
constexpr uptr kPrefaultedBlockMin = 8192;
constexpr uptr kPrefaultedBlockMax = 1 << 20;
void MemoryAllocatedBy(ThreadState *thr, uptr alloc_pc, uptr caller_pc,
                       uptr addr, uptr size, bool heap);
// Forgets everything about a range (stack reuse, munmap).
void MemoryRangeReset(uptr addr, uptr size);

// The current call stack, innermost first, starting with pc.
u32 CaptureStack(ThreadState *thr, uptr pc, uptr *frames, u32 max_frames);

// The depot id of the stack the current function was called from: the
// stack a trace event records beside its pc. Extends the ids the shadow
// stack keeps (ShadowFrame) from the deepest frame that has one.
StackId CallerStackSlow(ThreadState *thr, u32 depth);
ALWAYS_INLINE StackId CallerStack(ThreadState *thr) {
  u32 depth = thr->stack_depth;
  if (UNLIKELY(!depth))
    return 0;
  if (LIKELY(depth <= kShadowStackSize))
    if (StackId id = thr->shadow_stack[depth - 1].stack_plus_one)
      return id - 1;
  return CallerStackSlow(thr, depth);
}

} // namespace hrace

#endif // HRACE_RTL_H
