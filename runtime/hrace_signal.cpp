//===-- hrace_signal.cpp - Signals that arrive inside the runtime --------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_signal.h"

#include "hrace_alloc.h"
#include "hrace_libc.h"
#include "hrace_misuse.h"
#include "hrace_report.h"
#include "hrace_rtl.h"

#include <errno.h>
#include <ucontext.h>

namespace hrace {

namespace {

// Signals 1.._NSIG-1 (glibc's _NSIG is 65: 64 signals).
constexpr int kMaxSignal = _NSIG;

// What the program asked for with sigaction, for one signal.
struct ProgramAction {
  // sa_sigaction or sa_handler; never SIG_DFL or SIG_IGN (those go to the
  // kernel as they are).
  void *handler;
  int flags;
  sigset_t mask;
};

struct DeferredSignal {
  ProgramAction action;
  siginfo_t info;
  ucontext_t context;
};

} // namespace

// One slot per signal: like the kernel's standard signals, two arrivals of
// the same signal before it is handled are handled once.
struct DeferredSignals {
  u64 pending[(kMaxSignal + 63) / 64];
  DeferredSignal signals[kMaxSignal];
};

namespace {

RealSigaction real_sigaction;

// Written under actions_mu by the sigaction interceptor, read by handlers
// without a lock (a handler cannot wait for one). Two buffers: the writer
// fills the one not in use and then publishes it in `state` with release,
// so a handler never sees half an action, and replacing one program handler
// by another never leaves a moment with none.
struct InstalledAction {
  ProgramAction buffers[2];
  // Bit 0: a program handler is installed; bit 1: which buffer holds it.
  u32 state;
};
InstalledAction actions[kMaxSignal];
SpinMutex actions_mu;

constexpr u32 kInstalled = 1;
constexpr u32 kBufferShift = 1;

// The program's action for `sig`, as a handler sees it; false if none.
bool CurrentAction(int sig, ProgramAction *out, u32 *state) {
  *state = __atomic_load_n(&actions[sig].state, __ATOMIC_ACQUIRE);
  if (!(*state & kInstalled))
    return false;
  *out = actions[sig].buffers[*state >> kBufferShift];
  return true;
}

// A fault must be handled where it happened: deferring it would return to
// the faulting instruction and fault again. The same signals sent by kill
// or raise (si_code <= 0) are asynchronous like any other.
bool IsSynchronous(int sig, const siginfo_t *info) {
  return (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE ||
          sig == SIGTRAP || sig == SIGSYS) &&
         info && info->si_code > 0;
}

// The thread is somewhere a handler's runtime calls could deadlock on a
// runtime lock it holds, or find its state half updated.
bool InsideRuntime(ThreadState *thr) {
  if (LoadRelaxed(&runtime_locks_held))
    return true;
  return thr->in_rtl && !thr->in_blocking_call && !thr->exiting;
}

// report_signal_unsafe: a handler that changes errno breaks the code it
// interrupted, which may be about to read errno (the runtime restores it,
// so the program runs as it would without the bug; it is still reported).
// A synchronous signal (a fault in the program's own code) is exempt: the
// interrupted code never gets to read errno as it was.
void CheckErrnoKept(ThreadState *thr, const ProgramAction &action, int sig,
                    int errno_before, bool synchronous) {
  if (errno == errno_before || synchronous || !thr->context || thr->exiting ||
      LoadRelaxed(&runtime_locks_held) || !ctx->flags.report_signal_unsafe)
    return;
  // In by hand: leaving through LeaveRuntime would deliver signals from
  // inside a delivery.
  thr->in_rtl++;
  // Reported at the handler's entry (pc + 1: reports symbolize pc - 1).
  uptr handler = reinterpret_cast<uptr>(action.handler) + 1;
  ReportMisuse(thr, handler, Misuse::kErrnoInSignalHandler, nullptr, 0,
               ctx->stacks.Put(&handler, 1),
               "runs a handler of signal %d that changes errno", sig);
  thr->in_rtl--;
}

void CallProgramHandler(ThreadState *thr, const ProgramAction &action, int sig,
                        siginfo_t *info, void *context, bool synchronous) {
  int errno_before = errno;
  thr->in_signal_handler++;
  if (action.flags & SA_SIGINFO)
    reinterpret_cast<void (*)(int, siginfo_t *, void *)>(action.handler)(
        sig, info, context);
  else
    reinterpret_cast<void (*)(int)>(action.handler)(sig);
  thr->in_signal_handler--;
  CheckErrnoKept(thr, action, sig, errno_before, synchronous);
}

// The handler runs after everything the thread that installed it did before
// installing it (SetSignalAction releases here).
// (in_rtl by hand: leaving through LeaveRuntime would deliver signals from
// inside a delivery.)
void AcquireInstallation(ThreadState *thr, int sig) {
  thr->in_rtl++;
  AcquireAddr(thr, reinterpret_cast<uptr>(&actions[sig]));
  thr->in_rtl--;
}

// The program's handler, run now: out of the runtime for its duration, so
// that its accesses and calls are checked like any other code. A handler
// that jumps out (siglongjmp) leaves the runtime for good, as it should.
void RunNow(ThreadState *thr, const ProgramAction &action, int sig,
            siginfo_t *info, void *context, bool synchronous) {
  if (thr->exiting || LoadRelaxed(&runtime_locks_held) || !thr->context) {
    CallProgramHandler(thr, action, sig, info, context, synchronous);
    return;
  }
  AcquireInstallation(thr, sig);
  u32 in_rtl = thr->in_rtl;
  u32 in_blocking_call = thr->in_blocking_call;
  thr->in_rtl = 0;
  thr->in_blocking_call = 0;
  CallProgramHandler(thr, action, sig, info, context, synchronous);
  thr->in_rtl = in_rtl;
  thr->in_blocking_call = in_blocking_call;
}

// The copied context's floating-point state pointer points into the
// kernel's signal frame, gone by the time a deferred handler runs: point it
// at the copy's own storage.
void FixContextCopy(ucontext_t *copy, const ucontext_t *original) {
#if defined(__x86_64__)
  if (original->uc_mcontext.fpregs) {
    internal_memcpy(&copy->__fpregs_mem, original->uc_mcontext.fpregs,
                    sizeof(copy->__fpregs_mem));
    copy->uc_mcontext.fpregs = &copy->__fpregs_mem;
  }
#else
  (void)copy;
  (void)original;
#endif
}

// Another signal (of another number) may arrive while this one is being
// recorded: the table is published with a compare-and-swap and the pending
// bit set atomically.
void Defer(ThreadState *thr, const ProgramAction &action, int sig,
           siginfo_t *info, void *context) {
  DeferredSignals *d =
      __atomic_load_n(&thr->deferred_signals, __ATOMIC_RELAXED);
  if (!d) {
    DeferredSignals *fresh = static_cast<DeferredSignals *>(
        MmapOrDie(sizeof(DeferredSignals), "deferred signals"));
    if (__atomic_compare_exchange_n(&thr->deferred_signals, &d, fresh, false,
                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      d = fresh;
    else
      UnmapOrDie(fresh, sizeof(DeferredSignals));
  }
  DeferredSignal &slot = d->signals[sig];
  slot.action = action;
  internal_memcpy(&slot.info, info, sizeof(slot.info));
  if (context) {
    internal_memcpy(&slot.context, context, sizeof(slot.context));
    FixContextCopy(&slot.context, static_cast<const ucontext_t *>(context));
  }
  __atomic_fetch_or(&d->pending[sig / 64], u64(1) << (sig % 64),
                    __ATOMIC_RELAXED);
  // The thread reads this when it leaves the runtime (same thread: a
  // compiler barrier is all the ordering needed).
  __atomic_store_n(&signals_deferred, 1, __ATOMIC_RELAXED);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

void HraceSignalHandler(int sig, siginfo_t *info, void *context) {
  int saved_errno = errno;
  ThreadState *thr = cur_thread();
  ProgramAction action;
  u32 state;
  if (!CurrentAction(sig, &action, &state)) {
    // Changed to SIG_DFL or SIG_IGN while this one was on its way.
    errno = saved_errno;
    return;
  }
  // The kernel reset its handler to SIG_DFL; so does the program's view,
  // unless the program installed another handler meanwhile.
  if (action.flags & SA_RESETHAND)
    __atomic_compare_exchange_n(&actions[sig].state, &state,
                                state & ~kInstalled, false, __ATOMIC_RELEASE,
                                __ATOMIC_RELAXED);
  bool synchronous = IsSynchronous(sig, info);
  if (synchronous || !InsideRuntime(thr))
    RunNow(thr, action, sig, info, context, synchronous);
  else
    Defer(thr, action, sig, info, context);
  errno = saved_errno;
}

void DeliverDeferredSignals() {
  ThreadState *thr = cur_thread();
  DeferredSignals *d = thr->deferred_signals;
  // An exiting thread stays in the runtime for good: it delivers whenever it
  // holds no runtime lock.
  if ((thr->in_rtl && !thr->exiting) || LoadRelaxed(&runtime_locks_held) || !d)
    return;
  int saved_errno = errno;
  sigset_t all, before;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &before);
  while (__atomic_load_n(&signals_deferred, __ATOMIC_RELAXED)) {
    __atomic_store_n(&signals_deferred, 0, __ATOMIC_RELAXED);
    bool held_back = false;
    for (int sig = 1; sig < kMaxSignal; sig++) {
      u64 bit = u64(1) << (sig % 64);
      if (!(d->pending[sig / 64] & bit))
        continue;
      // Blocked where delivery happens (inside a handler whose mask holds
      // it): it waits for a later delivery, as the kernel would make it.
      if (sigismember(&before, sig) == 1) {
        held_back = true;
        continue;
      }
      __atomic_fetch_and(&d->pending[sig / 64], ~bit, __ATOMIC_RELAXED);
      DeferredSignal s;
      internal_memcpy(&s, &d->signals[sig], sizeof(s));
      FixContextCopy(&s.context, &d->signals[sig].context);
      // The mask the kernel would have set for the handler: the thread's,
      // the action's, and the signal itself unless SA_NODEFER.
      sigset_t during = before;
      for (int other = 1; other < kMaxSignal; other++)
        if (sigismember(&s.action.mask, other) == 1)
          sigaddset(&during, other);
      if (!(s.action.flags & SA_NODEFER))
        sigaddset(&during, sig);
      pthread_sigmask(SIG_SETMASK, &during, nullptr);
      if (thr->context && !thr->exiting)
        AcquireInstallation(thr, sig);
      CallProgramHandler(thr, s.action, sig, &s.info, &s.context, false);
      pthread_sigmask(SIG_SETMASK, &all, nullptr);
    }
    if (held_back) {
      __atomic_store_n(&signals_deferred, 1, __ATOMIC_RELAXED);
      break;
    }
  }
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  errno = saved_errno;
}

bool IsProgramHandler(const struct sigaction *act) {
  return act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN;
}

} // namespace

void DeferredSignalsForkChild(ThreadState *thr) {
  // The kernel gives a child no pending signals.
  __atomic_store_n(&signals_deferred, 0, __ATOMIC_RELAXED);
  if (DeferredSignals *d = thr->deferred_signals)
    internal_memset(d->pending, 0, sizeof(d->pending));
}

void InitSignals(RealSigaction real) {
  real_sigaction = real;
  deliver_deferred_signals = DeliverDeferredSignals;
}

int SetSignalAction(int sig, const struct sigaction *act,
                    struct sigaction *old) {
  // SIGKILL and SIGSTOP, and numbers out of range: the kernel says EINVAL.
  if (sig <= 0 || sig >= kMaxSignal || sig == SIGKILL || sig == SIGSTOP)
    return real_sigaction(sig, act, old);
  SpinMutexLock l(&actions_mu);
  InstalledAction &installed = actions[sig];
  u32 before = __atomic_load_n(&installed.state, __ATOMIC_RELAXED);
  bool was_installed = before & kInstalled;
  ProgramAction previous = installed.buffers[before >> kBufferShift];
  struct sigaction kernel_old;
  int res;
  if (!act) {
    res = real_sigaction(sig, nullptr, &kernel_old);
  } else if (!IsProgramHandler(act)) {
    __atomic_store_n(&installed.state, before & ~kInstalled, __ATOMIC_RELEASE);
    res = real_sigaction(sig, act, &kernel_old);
  } else {
    struct sigaction wrapped = *act;
    wrapped.sa_sigaction = HraceSignalHandler;
    wrapped.sa_flags |= SA_SIGINFO;
    u32 spare = ((before >> kBufferShift) ^ 1) & 1;
    ProgramAction &next = installed.buffers[spare];
    next.handler = reinterpret_cast<void *>(act->sa_handler);
    next.flags = act->sa_flags;
    next.mask = act->sa_mask;
    if (ThreadState *thr = cur_thread(); thr->context)
      ReleaseAddr(thr, reinterpret_cast<uptr>(&installed));
    __atomic_store_n(&installed.state, (spare << kBufferShift) | kInstalled,
                     __ATOMIC_RELEASE);
    res = real_sigaction(sig, &wrapped, &kernel_old);
  }
  if (res) {
    __atomic_store_n(&installed.state, before, __ATOMIC_RELEASE);
    return res;
  }
  if (!old)
    return res;
  *old = kernel_old;
  // The program sees its own handler where the kernel has the runtime's.
  if (kernel_old.sa_sigaction == HraceSignalHandler && was_installed) {
    old->sa_handler = reinterpret_cast<void (*)(int)>(previous.handler);
    old->sa_flags = previous.flags;
    old->sa_mask = previous.mask;
  }
  return res;
}

void ScopedBlockingCall::DeliverBeforeBlocking(ThreadState *thr) {
  if (LoadRelaxed(&runtime_locks_held))
    return;
  u32 in_rtl = thr->in_rtl;
  thr->in_rtl = 0;
  DeliverDeferredSignals();
  thr->in_rtl = in_rtl;
}

void ReleaseDeferredSignals(ThreadState *thr) {
  // Signals still waiting are handled first, not dropped.
  DeliverDeferredSignals();
  DeferredSignals *d = thr->deferred_signals;
  if (!d)
    return;
  sigset_t all, before;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &before);
  thr->deferred_signals = nullptr;
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  UnmapOrDie(d, sizeof(*d));
}

} // namespace hrace
