//===-- hrace_write_read.h - Write/read relations (precise=1) -------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Ordering through locks, condition variables and polling loops without
// annotations: the write/read relations of seeds/000 (section 5.3 and
// figure 6), extended from signal/wait to every critical section, as its
// section 9 proposes ("to identify user-defined synchronisations").
//
// While it holds a lock (precise mode of a hybrid machine), a thread records
// what it reads, with the value of pointer-sized reads, and what it writes.
// When it leaves a critical section of lock l:
//   1. each read of a location that an earlier section of l wrote is a
//      relation: the reader may be ordered after that writer. It becomes a
//      hand-off edge, scoped to the memory it plausibly carried and consulted
//      only where a machine would otherwise report (hrace_handoff.h). Inside
//      a marked loop it is also kept for the loop's exit.
//   2. its writes go into l's map with its clock (hrace_lock_writes.h).
// A completed wait orders the waiter fully (its vector clock) after the
// writers whose values its condition read:
//   - at the exit of a loop the compiler marked: a condition-variable wait
//     loop, whether or not wait was called (a lost signal, seeds/000 5.1,
//     or a signal never sent because no waiter was registered yet), or a
//     loop that re-takes a lock, sleeps or yields until a condition holds;
//   - for a wait outside any marked loop, at the next unlock.
// Only a wait that really returned signalled and found no relation falls
// back to every signaller of the condition variable.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_WRITE_READ_H
#define HRACE_WRITE_READ_H

#include "hrace_defs.h"
#include "hrace_handoff.h"
#include "hrace_vector_clock.h"

namespace hrace {

struct ThreadState;
struct SyncObject;

// The recent reads or writes a thread made while holding locks, at
// positions that only grow (a ring of the last kMax).
class RegionAccesses {
public:
  static constexpr u32 kMax = 64;
  struct Access {
    uptr addr;
    uptr size;
    // What a pointer-sized read returned (its hand-off scope), else 0.
    uptr value;
  };

  // A repeat of the newest access is not added again, unless a new critical
  // section or loop began since (StartRun): each must see its own reads.
  // Called outside the runtime (in_rtl not raised, to keep a write under a
  // lock cheap), so a signal handler's own accesses may come in between:
  // the entry is written before it is counted, so the handler's entries
  // made in between are overwritten or left past the count, never
  // half-read. A lost entry is a relation fewer, as when the ring drops
  // its oldest: at worst a report that pure happens-before would not make
  // (hrace_lock_writes.h), for an access made in a signal handler.
  ALWAYS_INLINE void Add(uptr addr, uptr size, uptr value) {
    u64 count = count_;
    // A loop re-reading its flag adds nothing new.
    if (count && !run_started_) {
      const Access &last = ring_[(count - 1) % kMax];
      if (last.addr == addr && last.size == size && last.value == value)
        return;
    }
    run_started_ = false;
    ring_[count % kMax] = {addr, size, value};
    __atomic_signal_fence(__ATOMIC_RELEASE);
    count_ = count + 1;
  }
  void StartRun() { run_started_ = true; }
  // The position after the newest access, and of the oldest one still held.
  u64 end() const { return count_; }
  u64 begin() const { return count_ > kMax ? count_ - kMax : 0; }
  const Access &Get(u64 pos) const { return ring_[pos % kMax]; }

private:
  Access ring_[kMax] = {};
  u64 count_ = 0;
  bool run_started_ = false;
};

// A lock the thread holds, and where its critical section began in the
// thread's RegionAccesses.
struct OpenRegion {
  uptr lock;
  u64 reads_begin;
  u64 writes_begin;
};

// Everything a thread keeps for the write/read relations.
struct ThreadRelations {
  static constexpr u32 kMaxOpen = 64;

  RegionAccesses reads;
  RegionAccesses writes;
  OpenRegion open[kMaxOpen] = {};
  u32 open_count = 0;
  // Marked loops entered and not yet left, where the innermost one's
  // condition starts in `reads`, and the relations found at unlocks since.
  u32 loop_depth = 0;
  u64 loop_reads_begin = 0;
  bool loop_related = false;
  VectorClock loop_relations;
  // A wait that returned and is decided once its condition has been read.
  uptr pending_wait_cv = 0;
  bool pending_wait_signalled = false;
  HandoffEdges handoffs;
  // The thread's clock as of its last acquire (hrace_clock_snapshot.h),
  // shared by what it publishes until it acquires again, with its own
  // clock at its last publication.
  ClockRef knowledge;
  u32 knowledge_acquires = 0;
};

// The relations are on in precise mode of a hybrid machine
// (WriteReadRelationsEnabled), and a thread records its accesses while it
// holds a lock (UpdateRecording): both inline in hrace_rtl.h, where the
// context is complete.

// A critical section starts (first acquisition of the lock at `lock`) or
// ends (last release, before the new segment): relations are looked up,
// writes published. A section that ends because a condition wait releases
// the mutex does not complete an earlier wait: the condition is about to be
// read again. LockRegionStarted's caller checks WriteReadRelationsEnabled():
// without the relations no section is open, and LockRegionEnding returns at
// once.
ALWAYS_INLINE void LockRegionStarted(ThreadRelations &r, uptr lock) {
  if (r.open_count == ThreadRelations::kMaxOpen)
    return;
  r.open[r.open_count++] = {lock, r.reads.end(), r.writes.end()};
  r.reads.StartRun();
  r.writes.StartRun();
}
void LockRegionEnding(ThreadState *thr, SyncObject *s, bool for_wait);
// An access of a thread that holds a lock, for the relations its critical
// sections' ends look up. Inline: in precise mode every access under a lock
// comes here.
ALWAYS_INLINE void RecordRegionAccess(ThreadRelations &r, uptr addr, uptr size,
                                      bool write) {
  if (write) {
    r.writes.Add(addr, size, 0);
    return;
  }
  // The instrumented load comes right after this call, so the word is
  // readable and, under the lock, what the load will return.
  uptr value = size == sizeof(uptr) && !(addr & (sizeof(uptr) - 1))
                   ? *reinterpret_cast<const uptr *>(addr)
                   : 0;
  r.reads.Add(addr, size, value);
}

// The marks the compiler puts around a wait or polling loop.
void WaitLoopEntered(ThreadState *thr);
void WaitLoopExited(ThreadState *thr);
// The wait function returned (`signalled`: not a time-out or an error). In
// precise mode the ordering is decided once the condition has been read
// again: at the marked loop's exit, or at the next unlock.
void WaitReturned(ThreadState *thr, uptr cv, bool signalled);

// The thread ends: its clocks go back to the allocator.
void ThreadRelationsFinished(ThreadState *thr);

} // namespace hrace

#endif // HRACE_WRITE_READ_H
