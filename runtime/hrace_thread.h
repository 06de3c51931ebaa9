//===-- hrace_thread.h - Threads: per-thread state and the registry -------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// ThreadState is what the hot path needs, in static TLS of the running thread.
// ThreadContext is what outlives the thread: its report name, creation stack,
// final clock for joiners and its access trace. Contexts live in slots; a slot
// is the index into vector clocks and is reused (oldest free first) once its
// thread is joined, or has exited detached.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_THREAD_H
#define HRACE_THREAD_H

#include "../detectors/hrace_lock_order.h"
#include "../shadow/hrace_shadow_cell.h"
#include "hrace_defs.h"
#include "hrace_lockset.h"
#include "hrace_mutex.h"
#include "hrace_noop_memo.h"
#include "hrace_segment.h"
#include "hrace_trace.h"
#include "hrace_vector_clock.h"
#include "hrace_write_read.h"

namespace hrace {

// Threads alive at once (a slot is reused once its thread is joined or has
// exited detached); a thread beyond them runs unchecked.
constexpr u32 kMaxThreadSlots = 1 << 16;
constexpr u32 kShadowStackSize = 1 << 14;

struct DeferredSignals;
struct NdrThread;

// A frame of the shadow stack: the return address into its caller, and the
// depot id + 1 of the whole stack up to it, 0 until a recorded access needs
// it. A call writes its frame with 0, so every nonzero id on the stack was
// computed while all frames below it were as they are now: a trace event
// names its whole stack for one load when no call came between
// (CallerStack).
struct ShadowFrame {
  uptr pc;
  StackId stack_plus_one;
};

enum class ThreadStatus : u8 { kFree, kCreated, kRunning, kFinished };

struct ThreadContext {
  u32 slot;
  // T<n> in reports; T0 is the main thread.
  u32 thread_id;
  u32 parent_id;
  ThreadStatus status;
  bool detached;
  bool joined;
  // True for threads the runtime first saw running (not via pthread_create).
  bool adopted;
  uptr pthread;
  int os_tid;
  // Highest clock this slot ever had: a new thread in the slot starts above it
  // so its segments never look older than the previous owner's.
  Clock last_clock;
  // At creation the parent's clock (the child starts after it); at exit the
  // thread's final clock (a joiner acquires it).
  VectorClock sync_clock;
  // Where pthread_create was called, unwound through uninstrumented code.
  StackId creation_stack;
  uptr stack_beg;
  uptr stack_end;
  // Set by ANNOTATE_THREAD_NAME; shown in reports.
  char name[64];
  // While it runs: its ThreadState, which a forked child reads the thread's
  // last clock from.
  ThreadState *state;
  Trace trace;
  // The running thread's shadow stack, kept with the slot as the trace is:
  // a thread's own pointer (ThreadState, in __thread storage) starts null
  // in every new thread, and one mapped per thread was never given back.
  ShadowFrame *shadow_stack;
  // What hand-offs ordered for the threads of this slot, for the threads
  // ordered after them (hrace_handoff.h).
  HandoffRecords handoff_records;
};

struct ThreadState {
  // Hot fields first: one cache line covers what every access reads.
  SegmentId segment = 0;
  u32 ignore_reads = 0;
  u32 ignore_writes = 0;
  // Inside the runtime: interceptors pass straight through.
  u32 in_rtl = 0;
  // No thread slot was free: the thread is never checked (MarkUntracked).
  bool untracked = false;
  // The thread has finished (or the process is exiting): the runtime stays
  // out of its way, and its signals are handled at once.
  bool exiting = false;
  // Inside a blocking interceptor's real call (ScopedBlockingCall): it holds
  // no runtime lock there, and its signals are handled at once.
  u32 in_blocking_call = 0;
  // Signals that arrived inside the runtime (hrace_signal.cpp); mapped at
  // the first one.
  DeferredSignals *deferred_signals = nullptr;
  // Inside the program's signal handler (report_signal_unsafe).
  u32 in_signal_handler = 0;
  // The pthreads function the program is about to call and whose result it
  // uses (__hrace_result_checked; report_misuse).
  uptr checked_result_fn = 0;
  // Inside a lock region in precise mode: accesses are recorded for the
  // write/read relations before they are checked.
  u32 record_accesses = 0;
  u32 slot = 0;
  u32 thread_id = 0;
  Clock clock = 0;
  // What this thread's creator knew of the slot's previous owner.
  Clock previous_owner_clock = 0;
  // Where this thread's next segment ids come from.
  SegmentCursor segment_cursor;
  // Generation + 1 of the segment ids this thread is writing into the
  // shadow (ShadowWriteScope), 0 when it is not: the thread that starts a
  // generation waits until no id two generations old is on its way.
  u32 shadow_write_generation = 0;
  u32 stack_depth = 0;
  ShadowFrame *shadow_stack = nullptr;
  ThreadContext *context = nullptr;
  // Bumped whenever vc learns something: memoised answers that depend on
  // what this thread knows (the join rule) are keyed by it.
  u32 acquires = 0;
  // The thread's own clock (its segment's) when vc last learned something:
  // an access made in a later segment knows nothing of other threads that
  // the thread did not know before it (msm=short's Shared-Read write row).
  Clock last_acquire_clock = 0;
  // vc learned something (or may have).
  void Learned() {
    acquires++;
    last_acquire_clock = clock;
    noops.Invalidate();
  }
  VectorClock vc;
  // Fences (hrace_atomic.cpp): what the thread's relaxed reads read, for
  // its acquire fences, and its clock at its last release fence, for its
  // relaxed writes. The memo says which version of a sync object's clock
  // fence_acquire already holds.
  VectorClock fence_acquire;
  VectorClock fence_release;
  struct FenceMemoEntry {
    const void *sync;
    u32 version;
  };
  static constexpr u32 kFenceMemoSize = 4;
  FenceMemoEntry fence_memo[kFenceMemoSize] = {};
  HeldLocks locks;
  // The same locks with where they were taken, for lock-order edges and
  // misuse reports (detect_deadlocks, report_misuse).
  HeldAcquisitions acquisitions;
  ThreadRelations relations;
  SetOpCache set_ops;
  NoopMemo noops;
  // Bumped by every look-up of the heap block around an access that a
  // machine's row makes (hand-off scopes): a transition that made none
  // read nothing of the address, and the memo may keep it for every cell
  // of its value (NoopMemo::NoteChange).
  u32 scope_lookups = 0;
  struct JoinRuleEntry {
    u32 thread_set = 0;
    u32 ended = 0;
    u32 acquires = 0;
    bool alone = false;
  };
  JoinRuleEntry join_rule_cache[64] = {};
  // The non-deterministic read checker's epoch and history (ndr=1).
  NdrThread *ndr = nullptr;
  // Its ndr state went (NdrThreadFinish): state made after, for a free in
  // a TLS destructor, takes no part in the floor of epochs still to run.
  bool ndr_finished = false;
};

// Zero-initialised static TLS: a thread that never started has segment 0 and
// is registered lazily on its first event.
extern __thread ThreadState cur_thread_state
    __attribute__((tls_model("initial-exec")));

ALWAYS_INLINE ThreadState *cur_thread() { return &cur_thread_state; }

// When a thread ended, for the join rule: its slot and final clock.
struct ThreadEnd {
  Clock clock;
  u32 slot;
  u32 ended;
};

class ThreadRegistry {
public:
  // Ends are kept for the last kRememberedEnds thread ids: thread T<n>
  // shares its entry with T<n + kRememberedEnds>, which replaces it. A
  // location whose thread set still names a thread that many creations old
  // stays shared (the join rule does not apply: a missed report at worst).
  static constexpr u32 kRememberedEnds = 1 << 22;

  void Init();
  // A context in a free slot, in state kCreated; null (after a one-line
  // notice, once) when every slot is taken.
  ThreadContext *Create(u32 parent_id);
  // The context of a live (not yet joined) thread.
  ThreadContext *FindByPthread(uptr pthread);
  // The context that still describes thread T<thread_id>, or nullptr if its
  // slot has been reused.
  ThreadContext *FindByThreadId(u32 thread_id);
  ThreadContext *ContextOfSlot(u32 slot) { return slots_[slot]; }
  // The same, without the registry's lock: slots in use so far, and each
  // slot's context once it is complete (null before).
  u32 PublishedSlots() const { return LoadAcquire(&next_slot_); }
  const ThreadContext *PublishedContext(u32 slot) const {
    return LoadAcquire(&slots_[slot]);
  }
  // The slot may be reused: the thread was joined, or exited detached.
  void Recycle(ThreadContext *tc);
  SpinMutex *mutex() { return &mu_; }
  u32 slots_in_use() const { return next_slot_; }
  void RecordEnd(u32 thread_id, u32 slot, Clock clock);
  // `ended` is 1 when the end of T<thread_id> is remembered.
  ThreadEnd EndOf(u32 thread_id) const;
  // How many threads have ended so far.
  u32 ended_count() const { return LoadAcquire(&ended_count_); }

private:
  SpinMutex mu_;
  ThreadEnd *ends_ = nullptr;
  u32 ended_count_ = 0;
  ThreadContext *slots_[kMaxThreadSlots] = {};
  // Free slots as a FIFO ring, so the slot reused is the one freed longest ago.
  u32 free_ring_[kMaxThreadSlots];
  u32 free_head_ = 0;
  u32 free_tail_ = 0;
  u32 next_slot_ = 0;
  u32 next_thread_id_ = 0;
  bool slots_exhausted_ = false;
};

// A thread's stack bounds, from pthread_getattr_np.
void GetThreadStackBounds(uptr *beg, uptr *end);

} // namespace hrace

#endif // HRACE_THREAD_H
