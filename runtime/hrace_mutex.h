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

class SpinMutex {
public:
  void Lock() {
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
  void Unlock() { __atomic_store_n(&locked_, 0, __ATOMIC_RELEASE); }

private:
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
