//===-- hrace_interceptors.h - Interposing libc and libpthread ------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The runtime is linked whole into the executable and exports (through the
// dynamic list hrace.syms) functions named like libc's: the dynamic linker
// binds every call, also those from shared libraries, to these definitions.
// Each interceptor tells the runtime what happened and calls the real function,
// found with dlsym(RTLD_NEXT) at start-up.
//
// Every interceptor starts with SCOPED_INTERCEPTOR: calls made from inside the
// runtime, before it is initialised, or by a thread it does not check go
// straight to the real function.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_INTERCEPTORS_H
#define HRACE_INTERCEPTORS_H

#include "../runtime/hrace_defs.h"
#include "../runtime/hrace_rtl.h"
#include "../runtime/hrace_signal.h"
#include "../runtime/hrace_suppressions.h"

#include <pthread.h>

namespace hrace {

void InitInterceptors();
void InitPthreadInterceptors();
void InitLibcInterceptors();
// Generated from hrace_libc_calls.tbl.
void InitLibcCallInterceptors();
void InitSignalInterceptors();
void InitMmapInterceptors();

// Resolves `name` in the libraries after the executable; dies if absent and
// `required`. `version` pins a symbol version where libc keeps old ones.
void *ResolveReal(const char *name, const char *version, bool required);

} // namespace hrace

#define REAL(name) real_##name
#define DEFINE_REAL(ret, name, ...) static ret (*real_##name)(__VA_ARGS__);
#define RESOLVE_REAL(name)                                                     \
  real_##name = reinterpret_cast<decltype(real_##name)>(                       \
      ::hrace::ResolveReal(#name, nullptr, true))
#define RESOLVE_REAL_VERSIONED(name, version)                                  \
  real_##name = reinterpret_cast<decltype(real_##name)>(                       \
      ::hrace::ResolveReal(#name, version, true))

// The real function of a call that may block (a lock, a wait, a join): a
// signal that arrives while it blocks is handled at once. `real` is any
// callable, a C variadic function (open) too.
template <typename Fn, typename... Args>
ALWAYS_INLINE auto CallBlocking(::hrace::ThreadState *thr, Fn real,
                                Args... args) -> decltype(real(args...)) {
  ::hrace::ScopedBlockingCall blocking(thr);
  return real(args...);
}

// The real function of a call that runs program code (a callback), with the
// thread outside the runtime meanwhile so that code is checked.
template <typename Fn, typename... Args>
ALWAYS_INLINE auto CallOutsideRuntime(::hrace::ThreadState *thr, Fn real,
                                      Args... args) -> decltype(real(args...)) {
  ::hrace::LeaveRuntime(thr);
  // Back inside when the call returns, whatever it returns (void too).
  struct Reenter {
    ::hrace::ThreadState *thr;
    ~Reenter() { thr->in_rtl++; }
  } reenter{thr};
  return real(args...);
}

namespace hrace {
// A thread cancelled in a cancellation point's real call is unwound from
// there, past the rest of the interceptor: what the interceptor would have
// done on return (on_cancel: a condition wait owns its mutex again) is done
// by a cleanup handler, which also takes the thread out of the runtime so
// that the program's own cleanup handlers are checked like its other code.
struct CancelledCall {
  ThreadState *thr;
  // As they were outside the interceptor.
  u32 in_rtl;
  u32 in_blocking_call;
  void (*on_cancel)(ThreadState *thr, uptr arg);
  uptr arg;
};
void LeaveCancelledCall(void *call);
} // namespace hrace

// The real function of a cancellation point (a condition wait, a join, a
// semaphore wait): CallBlocking, and the thread leaves the interceptor
// properly if it is cancelled there. Not inline: it calls setjmp.
template <typename Fn, typename... Args>
auto CallCancellationPoint(::hrace::ThreadState *thr,
                           void (*on_cancel)(::hrace::ThreadState *,
                                             ::hrace::uptr),
                           ::hrace::uptr arg, Fn real, Args... args)
    -> decltype(real(args...)) {
  ::hrace::CancelledCall call{thr, thr->in_rtl - 1, thr->in_blocking_call,
                              on_cancel, arg};
  decltype(real(args...)) res;
  pthread_cleanup_push(::hrace::LeaveCancelledCall, &call);
  res = CallBlocking(thr, real, args...);
  pthread_cleanup_pop(0);
  return res;
}

namespace hrace {
// called_from_lib: a call from a library the suppressions name has its
// memory accesses ignored (its synchronisation still counts, so the
// program's own accesses are ordered as before).
class ScopedIgnoredLibCall {
public:
  ALWAYS_INLINE ScopedIgnoredLibCall(ThreadState *thr, uptr caller_pc)
      : thr_(nullptr) {
    if (UNLIKELY(called_from_lib_present) && CalledFromIgnoredLib(caller_pc)) {
      thr_ = thr;
      thr->ignore_reads++;
      thr->ignore_writes++;
    }
  }
  // Never below zero: a callback run inside the call may have ended more
  // ignores than it began.
  ALWAYS_INLINE ~ScopedIgnoredLibCall() {
    if (UNLIKELY(thr_ != nullptr)) {
      thr_->ignore_reads -= thr_->ignore_reads != 0;
      thr_->ignore_writes -= thr_->ignore_writes != 0;
    }
  }

private:
  ThreadState *thr_;
};
} // namespace hrace

#define INTERCEPTOR_ATTRIBUTE extern "C" __attribute__((visibility("default")))

// Declares `thr` and bails out to the real function when the call must not be
// observed. Leaves the thread inside the runtime for the rest of the scope.
#define SCOPED_INTERCEPTOR(name, ...)                                          \
  SCOPED_INTERCEPTOR_AT(name, CALLER_PC(), __VA_ARGS__)

// The same where the program's call site is `pc` (an interceptor's body in a
// function of its own, shared by a variadic function and its va_list twin).
#define SCOPED_INTERCEPTOR_AT(name, pc, ...)                                   \
  if (UNLIKELY(!REAL(name)))                                                   \
    ::hrace::Initialize();                                                     \
  ::hrace::ThreadState *thr = ::hrace::cur_thread();                           \
  if (UNLIKELY(!thr->context && !thr->in_rtl))                                 \
    ::hrace::AdoptCurrentThread(thr);                                          \
  /* No context: not initialised yet, or an untracked thread. */               \
  if (UNLIKELY(thr->in_rtl || !thr->context))                                  \
    return REAL(name)(__VA_ARGS__);                                            \
  const ::hrace::uptr caller_pc = (pc);                                        \
  (void)caller_pc;                                                             \
  ::hrace::ScopedInRuntime scoped_in_runtime;                                  \
  ::hrace::ScopedIgnoredLibCall ignored_lib_call(thr, caller_pc)

#endif // HRACE_INTERCEPTORS_H
