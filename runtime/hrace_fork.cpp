//===-- hrace_fork.cpp - A process that forks -----------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The child of a fork is a copy of the parent with one thread: the one that
// forked. A runtime lock that another thread held at that moment would stay
// held in the child forever, so the forking thread first closes the fork
// gate (hrace_mutex.h) and waits until no other thread holds a runtime lock;
// threads that want their first one wait at the gate until the fork is done.
//
// In the child the other threads are gone: they are recorded as ended, the
// child's thread is ordered after everything they did (it can no longer race
// with them), and their slots are free. The child has its own thread id for
// reports, its own report count and log file, and starts its own
// symbolizer.
//
//===----------------------------------------------------------------------===//
#include "hrace_ndr.h"
#include "hrace_report.h"
#include "hrace_rtl.h"
#include "hrace_signal.h"
#include "hrace_symbolizer.h"

#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace hrace {

void ForkBefore(ThreadState *thr) {
  (void)thr;
  // One fork at a time: a second one waits for the first to finish.
  while (__atomic_exchange_n(&fork_gate, 1u, __ATOMIC_SEQ_CST))
    sched_yield();
  closed_fork_gate = true;
  // The registered threads' counts are plain stores (hrace_mutex.h).
  AsymmetricFence();
  while (OtherThreadsHoldRuntimeLocks())
    sched_yield();
}

void ForkParentAfter(ThreadState *thr) {
  (void)thr;
  closed_fork_gate = false;
  StoreRelease(&fork_gate, 0u);
}

void ForkChildAfter(ThreadState *thr) {
  closed_fork_gate = false;
  StoreRelease(&fork_gate, 0u);
  LockHoldersForkChild();
  {
    SpinMutexLock l(ctx->threads.mutex());
    for (u32 slot = 0; slot < ctx->threads.slots_in_use(); slot++) {
      ThreadContext *tc = ctx->threads.ContextOfSlot(slot);
      if (!tc || tc == thr->context || tc->status == ThreadStatus::kFree)
        continue;
      if (tc->status == ThreadStatus::kRunning) {
        // Its state is still in the child's copy of memory; its clock says
        // how far it got before the fork.
        Clock clock = tc->state ? LoadRelaxed(&tc->state->clock) : 0;
        if (clock > tc->last_clock)
          tc->last_clock = clock;
        ctx->threads.RecordEnd(tc->thread_id, tc->slot, tc->last_clock);
        if (thr->vc.Get(tc->slot) < tc->last_clock)
          thr->vc.Set(tc->slot, tc->last_clock);
      }
      tc->status = ThreadStatus::kFinished;
      tc->joined = true;
      ctx->threads.Recycle(tc);
    }
    thr->context->os_tid = static_cast<int>(syscall(SYS_gettid));
  }
  thr->Learned();
  NdrForkChild(thr);
  ReportsForkChild();
  SymbolizerForkChild();
  DeferredSignalsForkChild(thr);
}

} // namespace hrace
