//===-- hrace_mutex.cpp - The runtime's own lock --------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_mutex.h"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace hrace {

__thread u32 runtime_locks_held __attribute__((tls_model("initial-exec")));
__thread bool lock_holder_registered __attribute__((tls_model("initial-exec")));
bool asymmetric_fence_works;
LockHolderCount lock_holders[kLockHolderStripes];
u32 fork_gate;
__thread bool closed_fork_gate __attribute__((tls_model("initial-exec")));
__thread u32 signals_deferred __attribute__((tls_model("initial-exec")));
void (*deliver_deferred_signals)();

void WaitForForkGate() {
  while (LoadAcquire(&fork_gate))
    sched_yield();
}

namespace {

// The registered threads' counts. An entry changes only under
// registered_holders_mu, which its thread takes unregistered: while a fork
// has closed the gate and the stripes are empty, no entry changes and every
// entry's thread is alive.
constexpr u32 kMaxRegisteredHolders = 1 << 16;
u32 *registered_holders[kMaxRegisteredHolders];
u32 registered_holders_end;
SpinMutex registered_holders_mu;
__thread u32 registered_holder_index __attribute__((tls_model("initial-exec")));

// Whether this process may use membarrier's private expedited command. It
// must register once; the kernel refuses where the command is missing (old
// kernels, qemu-user, seccomp filters), and every thread then counts in the
// stripes.
enum Fence : u32 { kFenceUnknown, kFenceAvailable, kFenceUnavailable };
u32 asymmetric_fence = kFenceUnknown;

bool AsymmetricFenceAvailable() {
  u32 f = LoadAcquire(&asymmetric_fence);
  if (f == kFenceUnknown) {
    long res = syscall(SYS_membarrier,
                       MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0);
    f = res == 0 ? kFenceAvailable : kFenceUnavailable;
    StoreRelease(&asymmetric_fence, f);
    __atomic_store_n(&asymmetric_fence_works, f == kFenceAvailable,
                     __ATOMIC_RELEASE);
  }
  return f == kFenceAvailable;
}

} // namespace

void RegisterLockHolder() {
  if (lock_holder_registered || runtime_locks_held ||
      !AsymmetricFenceAvailable())
    return;
  {
    SpinMutexLock l(&registered_holders_mu);
    u32 i = 0;
    while (i < registered_holders_end && registered_holders[i])
      i++;
    if (i == kMaxRegisteredHolders)
      return;
    if (i == registered_holders_end)
      StoreRelease(&registered_holders_end, i + 1);
    StoreRelease(&registered_holders[i], &runtime_locks_held);
    registered_holder_index = i;
  }
  // After the table's lock is released: that release counted in the stripes.
  lock_holder_registered = true;
}

void UnregisterLockHolder() {
  if (!lock_holder_registered || runtime_locks_held)
    return;
  lock_holder_registered = false;
  SpinMutexLock l(&registered_holders_mu);
  StoreRelease(&registered_holders[registered_holder_index],
               static_cast<u32 *>(nullptr));
}

void LockHoldersForkChild() {
  // The other threads are gone; the kernel may not carry the fence's
  // registration over to the child's new address space, so it registers
  // again, and the calling thread keeps counting the way that allows.
  StoreRelaxed(&asymmetric_fence, u32(kFenceUnknown));
  __atomic_store_n(&asymmetric_fence_works, false, __ATOMIC_RELAXED);
  for (u32 i = 0; i < registered_holders_end; i++)
    registered_holders[i] = nullptr;
  registered_holders_end = 0;
  bool was_registered = lock_holder_registered;
  lock_holder_registered = false;
  if (was_registered)
    RegisterLockHolder();
}

void AsymmetricFence() {
  if (LoadAcquire(&asymmetric_fence) == kFenceAvailable)
    syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
}

bool OtherThreadsHoldRuntimeLocks() {
  u32 holders = 0;
  for (const LockHolderCount &c : lock_holders)
    holders += __atomic_load_n(&c.threads, __ATOMIC_SEQ_CST);
  // The caller's own count, if it holds one now and counts in the stripes.
  if (holders > (runtime_locks_held && !lock_holder_registered ? 1u : 0u))
    return true;
  // No thread is registering or leaving the table now, nor can one start.
  u32 end = LoadAcquire(&registered_holders_end);
  for (u32 i = 0; i < end; i++) {
    u32 *count = LoadAcquire(&registered_holders[i]);
    if (count && count != &runtime_locks_held &&
        __atomic_load_n(count, __ATOMIC_ACQUIRE))
      return true;
  }
  return false;
}

} // namespace hrace
