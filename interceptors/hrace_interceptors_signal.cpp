//===-- hrace_interceptors_signal.cpp - sigaction and signal --------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The program's handlers go to the kernel behind the runtime's own
// (runtime/hrace_signal.cpp), which defers a signal that arrives inside the
// runtime. Every thread's calls count, also those of threads the runtime
// does not check: a handler belongs to the process.
//
//===----------------------------------------------------------------------===//
#include "hrace_interceptors.h"

#include "../runtime/hrace_rtl.h"

#include <signal.h>

DEFINE_REAL(int, sigaction, int, const struct sigaction *, struct sigaction *)
DEFINE_REAL(sighandler_t, signal, int, sighandler_t)

namespace hrace {
void InitSignalInterceptors() {
  RESOLVE_REAL(sigaction);
  RESOLVE_REAL(signal);
  InitSignals(REAL(sigaction));
}
} // namespace hrace

using namespace hrace;

INTERCEPTOR_ATTRIBUTE int sigaction(int sig, const struct sigaction *act,
                                    struct sigaction *old) {
  if (UNLIKELY(!REAL(sigaction)))
    Initialize();
  ThreadState *thr = cur_thread();
  if (UNLIKELY(thr->in_rtl || !IsInitialized()))
    return REAL(sigaction)(sig, act, old);
  ScopedInRuntime in_rtl;
  return SetSignalAction(sig, act, old);
}

// glibc's signal(): BSD semantics, a handler that stays installed and
// restarts interrupted calls.
INTERCEPTOR_ATTRIBUTE sighandler_t signal(int sig, sighandler_t handler) {
  if (UNLIKELY(!REAL(signal)))
    Initialize();
  ThreadState *thr = cur_thread();
  if (UNLIKELY(thr->in_rtl || !IsInitialized()))
    return REAL(signal)(sig, handler);
  ScopedInRuntime in_rtl;
  struct sigaction act = {}, old = {};
  act.sa_handler = handler;
  act.sa_flags = SA_RESTART;
  sigemptyset(&act.sa_mask);
  if (sig > 0 && sig < _NSIG)
    sigaddset(&act.sa_mask, sig);
  if (SetSignalAction(sig, &act, &old))
    return SIG_ERR;
  return old.sa_handler;
}
