//===-- hrace_mutex.h - The runtime's own lock ----------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The runtime cannot use pthread_mutex_t: those calls are intercepted and
// would be seen as the program's synchronisation. SpinMutex spins briefly and
// then yields; it guards short critical sections off the access hot path
// (sync objects, registries, reports).
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_MUTEX_H
#define HRACE_MUTEX_H

#include "hrace_defs.h"

#include <sched.h>

namespace hrace {

// Runtime locks this thread holds. A fork waits until no other thread holds
// one, so that the child finds every runtime lock free; a signal that
// arrives while its thread holds one is handled after the last is released.
extern __thread u32 runtime_locks_held __attribute__((tls_model("initial-exec")));

// A fork must see every thread's count. A thread registered as a lock holder
// (RegisterLockHolder) is found through a table, and its count is this
// thread-local one, set with plain stores: the fork makes them visible with
// one asymmetric fence (membarrier) before it reads them, so a lock costs no
// locked instruction beyond its own. Threads the table does not know (not
// yet started, finished, adopted, or where membarrier is unavailable) count
// themselves in 64 shared stripes with atomic adds instead.
extern __thread bool lock_holder_registered
    __attribute__((tls_model("initial-exec")));

// The unregistered threads' counts, in 64 cache lines (a thread always uses
// the same one) so that counting costs no contention.
struct alignas(64) LockHolderCount {
  u32 threads;
};
constexpr u32 kLockHolderStripes = 64;
extern LockHolderCount lock_holders[kLockHolderStripes];
ALWAYS_INLINE u32 *LockHolderStripe() {
  return &lock_holders[(reinterpret_cast<uptr>(&runtime_locks_held) >> 12) %
                       kLockHolderStripes]
              .threads;
}

// Non-zero while a fork waits for the lock holders to leave; outermost
// acquisitions wait for it to open (WaitForForkGate).
extern u32 fork_gate;
// This thread closed the gate: its own acquisitions go through.
extern __thread bool closed_fork_gate __attribute__((tls_model("initial-exec")));
void WaitForForkGate();
// For the fork, which has closed the gate and called AsymmetricFence (below)
// so that the registered threads' counts are visible: whether any other
// thread holds a runtime lock.
bool OtherThreadsHoldRuntimeLocks();

// An asymmetric fence between a thread's plain store and another thread's
// read of it: the reader calls AsymmetricFence (membarrier, where the kernel
// offers it) and then reads; the writer stores and then calls
// FenceForAsymmetricReader before its next load, a compiler barrier where
// membarrier works and a full fence where it does not.
extern bool asymmetric_fence_works;
void AsymmetricFence();
ALWAYS_INLINE void FenceForAsymmetricReader() {
  if (LIKELY(__atomic_load_n(&asymmetric_fence_works, __ATOMIC_RELAXED)))
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
  else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

// The calling thread, holding no runtime lock, enters the table (if
// membarrier works here and the table has room) or leaves it. A thread
// leaves before its thread-local storage can go away.
void RegisterLockHolder();
void UnregisterLockHolder();
// In a fork's child: only the calling thread is left.
void LockHoldersForkChild();

// Signals that arrived while this thread was inside the runtime, and what
// delivers them once it leaves (hrace_signal.cpp sets it up).
extern __thread u32 signals_deferred __attribute__((tls_model("initial-exec")));
extern void (*deliver_deferred_signals)();

// The thread takes its first runtime lock (its count becomes 1), or gives
// up its last one (0).
ALWAYS_INLINE void LeaveRuntimeLocks() {
  // Release: a fork that reads 0 then finds the locks released.
  __atomic_store_n(&runtime_locks_held, 0u, __ATOMIC_RELEASE);
  if (!lock_holder_registered)
    __atomic_fetch_sub(LockHolderStripe(), 1u, __ATOMIC_RELEASE);
  if (UNLIKELY(signals_deferred))
    deliver_deferred_signals();
}

ALWAYS_INLINE void EnterRuntimeLocks() {
  for (;;) {
    StoreRelaxed(&runtime_locks_held, 1u);
    if (LIKELY(lock_holder_registered))
      // The count, then the gate: a fork stores the gate, fences every
      // thread and reads the counts, so one of the two sees the other. Only
      // the compiler must keep this order; the fork's fence orders the CPU.
      __atomic_signal_fence(__ATOMIC_SEQ_CST);
    else
      __atomic_fetch_add(LockHolderStripe(), 1u, __ATOMIC_SEQ_CST);
    if (LIKELY(!__atomic_load_n(&fork_gate, __ATOMIC_SEQ_CST)) ||
        closed_fork_gate)
      return;
    LeaveRuntimeLocks();
    WaitForForkGate();
  }
}

class SpinMutex {
public:
  void Lock() {
    u32 held = runtime_locks_held;
    if (held)
      StoreRelaxed(&runtime_locks_held, held + 1);
    else
      EnterRuntimeLocks();
    for (unsigned spins = 0;; spins++) {
      if (!LoadRelaxed(&locked_) &&
          !__atomic_exchange_n(&locked_, 1, __ATOMIC_ACQUIRE))
        return;
      // With two cores a busy holder is often descheduled: yield early.
      if (spins > 16)
        sched_yield();
      else
        CpuRelax();
    }
  }
  // Takes the mutex if no other thread holds it.
  bool TryLock() {
    u32 held = runtime_locks_held;
    if (held)
      StoreRelaxed(&runtime_locks_held, held + 1);
    else
      EnterRuntimeLocks();
    if (!LoadRelaxed(&locked_) &&
        !__atomic_exchange_n(&locked_, 1, __ATOMIC_ACQUIRE))
      return true;
    ReleaseCount();
    return false;
  }
  void Unlock() {
    __atomic_store_n(&locked_, 0, __ATOMIC_RELEASE);
    ReleaseCount();
  }

private:
  // One runtime lock fewer held by this thread.
  static ALWAYS_INLINE void ReleaseCount() {
    u32 held = runtime_locks_held - 1;
    if (held)
      StoreRelaxed(&runtime_locks_held, held);
    else
      LeaveRuntimeLocks();
  }
  static ALWAYS_INLINE void CpuRelax() {
#if defined(__x86_64__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
  }
  u32 locked_ = 0;
};

class SpinMutexLock {
public:
  explicit SpinMutexLock(SpinMutex *mu) : mu_(mu) { mu_->Lock(); }
  ~SpinMutexLock() { mu_->Unlock(); }
  SpinMutexLock(const SpinMutexLock &) = delete;
  SpinMutexLock &operator=(const SpinMutexLock &) = delete;

private:
  SpinMutex *mu_;
};

} // namespace hrace

#endif // HRACE_MUTEX_H
