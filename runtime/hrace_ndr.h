//===-- hrace_ndr.h - Non-deterministic reads: epochs and history ---------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The fourth checker (ndr=1, seeds/002): the runtime side of
// detectors/hrace_ndr.h. Programs built with -fsanitize-hybrid-race-ndr
// call __hrace_ndr_read/__hrace_ndr_write beside the race checker's entry
// points (and __hrace_ndr_dep for the correlations), so the default mode
// pays nothing for it.
//
// A thread's epoch starts at its first checked access after a
// synchronisation event (every acquire, release, lock and unlock) and ends
// at the next. Each variable (an aligned 64-byte line) keeps its epoch
// variables in a history, newest first, at most ndr_history per thread,
// found through a two-level table indexed by the line's compressed address
// (leaves mapped when first touched). When an epoch ends, its reads are checked
// against the history, and its writes re-check the ended reads of other epochs
// that they may now be a dependency of: every pair is checked when the later of
// its two epochs ends.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_NDR_RUNTIME_H
#define HRACE_NDR_RUNTIME_H

#include "../detectors/hrace_ndr.h"
#include "hrace_defs.h"

namespace hrace {

struct ThreadState;

// ndr=1: set once at start-up.
extern bool ndr_enabled;

void NdrInit();
// A synchronisation event: the thread's epoch ends.
void NdrSyncEvent(ThreadState *thr);
// The thread now holds (no longer holds) the lock; the epoch ends first.
void NdrLockAcquired(ThreadState *thr, LockId lock, bool exclusive);
void NdrLockReleased(ThreadState *thr, LockId lock);
// [addr, addr+size) was freed or handed out anew: its histories go.
void NdrResetRange(ThreadState *thr, uptr addr, uptr size);
// The thread starts: it takes part in the floor of epochs still to run
// (hrace_ndr_floor.h) from now on.
void NdrThreadStart(ThreadState *thr);
// pthread_create is on its way; the thread started (after NdrThreadStart)
// or the call failed.
void NdrThreadCreating();
void NdrThreadCreated();
// The thread blocks in pthread_join of thread `thread_id`, a joinable
// thread that runs; it returned.
void NdrJoinBegin(ThreadState *thr, u32 thread_id);
void NdrJoinEnd(ThreadState *thr);
// In a forked child, whose other threads are gone.
void NdrForkChild(ThreadState *thr);
// The thread's last epoch ends; its state goes.
void NdrThreadFinish(ThreadState *thr);
// At exit: the current thread's last epoch, and a notice when ndr=1 found
// no code built for it.
void NdrAtExit(ThreadState *thr);

// One access of a report: the read, or one of its write dependencies.
struct NdrAccessDesc {
  u32 thread_id;
  u32 size;
  uptr addr;
  // The access's return address, and the stack it tops.
  uptr pc;
  StackId stack;
  u32 lock_count;
  bool parallel;
  LockId locks[kNdrMaxLocks];
};

struct NdrReport {
  static constexpr u32 kMaxDeps = 8;
  static constexpr u32 kMaxCorrelations = 4;
  NdrAccessDesc read;
  u32 dep_count;
  NdrAccessDesc deps[kMaxDeps];
  u32 correlation_count;
  Correlation correlations[kMaxCorrelations];
};

// hrace_report.cpp.
void ReportNonDeterministicRead(ThreadState *thr, const NdrReport &report);

} // namespace hrace

#endif // HRACE_NDR_RUNTIME_H
