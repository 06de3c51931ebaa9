//===-- hrace_mutex.cpp - The runtime's own lock --------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_mutex.h"

namespace hrace {

__thread u32 runtime_locks_held __attribute__((tls_model("initial-exec")));
LockHolderCount lock_holders[kLockHolderStripes];
u32 fork_gate;
__thread bool closed_fork_gate __attribute__((tls_model("initial-exec")));
__thread u32 signals_deferred __attribute__((tls_model("initial-exec")));
void (*deliver_deferred_signals)();

void WaitForForkGate() {
  while (LoadAcquire(&fork_gate))
    sched_yield();
}

bool OtherThreadsHoldRuntimeLocks() {
  u32 holders = 0;
  for (const LockHolderCount &c : lock_holders)
    holders += __atomic_load_n(&c.threads, __ATOMIC_SEQ_CST);
  // The caller's own count, if it holds one now.
  return holders > (runtime_locks_held ? 1u : 0u);
}

} // namespace hrace
