//===-- hrace_signal.h - Signals that arrive inside the runtime ----------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A signal handler is the program's code, instrumented like the rest: it
// checks accesses, takes locks, updates the thread's clock. Run in the middle
// of the runtime, it would wait forever for a runtime lock its own thread
// holds, or find the thread's state half updated. So the runtime installs
// its own handler in front of every handler the program sets (sigaction,
// signal), and a signal that arrives while its thread is inside the runtime
// (an interceptor, the slow access path, a runtime lock held) is recorded
// and handled as soon as the thread leaves it. Two cases are handled at
// once: synchronous signals (a fault must be handled where it happened), and
// a thread blocked in the real function of a blocking interceptor (a lock,
// a wait, a join): it holds no runtime lock there, and a handler that must
// end the wait (a watchdog's SIGALRM) would otherwise never run.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_SIGNAL_H
#define HRACE_SIGNAL_H

#include "hrace_thread.h"

#include <signal.h>

namespace hrace {

using RealSigaction = int (*)(int, const struct sigaction *,
                              struct sigaction *);
// `real` is libc's sigaction, which the runtime calls in the program's name.
void InitSignals(RealSigaction real);

// sigaction, for the interceptor: records the program's handler and gives
// the kernel the runtime's in front of it; reports the program's back.
int SetSignalAction(int sig, const struct sigaction *act,
                    struct sigaction *old);

// A blocking interceptor's real call: signals are handled at once while it
// waits (and the ones deferred so far before it starts).
// Inline: every lock call makes one (lock/unlock's budget is a few dozen
// nanoseconds), and signals are rarely waiting.
class ScopedBlockingCall {
public:
  ALWAYS_INLINE explicit ScopedBlockingCall(ThreadState *thr) : thr_(thr) {
    if (UNLIKELY(__atomic_load_n(&signals_deferred, __ATOMIC_RELAXED)))
      DeliverBeforeBlocking(thr);
    thr->in_blocking_call++;
  }
  ALWAYS_INLINE ~ScopedBlockingCall() { thr_->in_blocking_call--; }

private:
  // What arrived before the wait is handled before it: the handler may be
  // what ends it. (Before the count goes up: the handlers' own calls are
  // not blocked in this one.)
  static void DeliverBeforeBlocking(ThreadState *thr);

  ThreadState *thr_;
};

// The thread has finished: its deferred signals are handled, and what kept
// them goes.
void ReleaseDeferredSignals(ThreadState *thr);

// In a forked child: the parent's deferred signals are not the child's.
void DeferredSignalsForkChild(ThreadState *thr);

} // namespace hrace

#endif // HRACE_SIGNAL_H
