//===-- hrace_tsan_interface.cpp - ThreadSanitizer's public interface -----===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Code written for ThreadSanitizer calls these (<sanitizer/tsan_interface.h>,
// and hand-instrumented code calls __tsan_read4 and friends); with
// HybridRace it links and means the same:
//  - __tsan_acquire / __tsan_release: happens-before on an address;
//  - __tsan_mutex_*: a custom mutex is a lock (lock sets, lock order, and
//    release/acquire in msm=hb), like a pthread mutex; signal and divert
//    mark code the mutex runs on the side and change nothing;
//  - __tsan_ignore_thread_begin/end: the thread's accesses are not checked;
//  - __tsan_read*/__tsan_write*/__tsan_func_*: the instrumentation's entry
//    points;
//  - __tsan_init: called by the constructor ThreadSanitizer's pass adds to
//    every module the driver compiles (to honour no_sanitize("thread"),
//    tools/hrace-driver.cpp); the runtime is already initialised;
//  - fibers: accepted, not modelled (a fiber's accesses count as those of
//    the thread running it);
//  - and sanitizer_common's __sanitizer_unaligned_load/store16/32/64
//    (<sanitizer/common_interface_defs.h>): checked accesses.
//
//===----------------------------------------------------------------------===//
#include "hrace_access.h"
#include "hrace_alloc.h"
#include "hrace_interface.h"
#include "hrace_libc.h"
#include "hrace_misuse.h"
#include "hrace_rtl.h"

using namespace hrace;

namespace {

// The flags of <sanitizer/tsan_interface.h> this file reads.
constexpr unsigned kMutexReadLock = 1 << 3;
constexpr unsigned kMutexTryLock = 1 << 4;
constexpr unsigned kMutexTryLockFailed = 1 << 5;
// After a full unlock (a condition wait), the lock is taken back `recursion`
// deep; a full unlock releases every level and says how many there were.
constexpr unsigned kMutexRecursiveLock = 1 << 6;
constexpr unsigned kMutexRecursiveUnlock = 1 << 7;

// A thread the runtime checks, outside the runtime; adopted if new.
ThreadState *CallingThread() {
  ThreadState *thr = cur_thread();
  if (!IsInitialized() || thr->in_rtl || thr->untracked)
    return nullptr;
  if (!thr->context)
    AdoptCurrentThread(thr);
  return thr->context ? thr : nullptr;
}

} // namespace

#define HRACE_TSAN_ACCESS(name, size, write)                                   \
  extern "C" HRACE_INTERFACE void name(void *addr) {                           \
    MemoryAccess(cur_thread(), CALLER_PC(), Addr(addr), size, write);          \
  }

HRACE_TSAN_ACCESS(__tsan_read1, 1, false)
HRACE_TSAN_ACCESS(__tsan_read2, 2, false)
HRACE_TSAN_ACCESS(__tsan_read4, 4, false)
HRACE_TSAN_ACCESS(__tsan_read8, 8, false)
HRACE_TSAN_ACCESS(__tsan_read16, 16, false)
HRACE_TSAN_ACCESS(__tsan_write1, 1, true)
HRACE_TSAN_ACCESS(__tsan_write2, 2, true)
HRACE_TSAN_ACCESS(__tsan_write4, 4, true)
HRACE_TSAN_ACCESS(__tsan_write8, 8, true)
HRACE_TSAN_ACCESS(__tsan_write16, 16, true)
HRACE_TSAN_ACCESS(__tsan_unaligned_read2, 2, false)
HRACE_TSAN_ACCESS(__tsan_unaligned_read4, 4, false)
HRACE_TSAN_ACCESS(__tsan_unaligned_read8, 8, false)
HRACE_TSAN_ACCESS(__tsan_unaligned_read16, 16, false)
HRACE_TSAN_ACCESS(__tsan_unaligned_write2, 2, true)
HRACE_TSAN_ACCESS(__tsan_unaligned_write4, 4, true)
HRACE_TSAN_ACCESS(__tsan_unaligned_write8, 8, true)
HRACE_TSAN_ACCESS(__tsan_unaligned_write16, 16, true)

#define HRACE_UNALIGNED(bits)                                                  \
  extern "C" HRACE_INTERFACE u##bits __sanitizer_unaligned_load##bits(         \
      const void *p) {                                                         \
    MemoryAccess(cur_thread(), CALLER_PC(), Addr(p), bits / 8, false);         \
    u##bits v;                                                                 \
    internal_memcpy(&v, p, sizeof(v));                                         \
    return v;                                                                  \
  }                                                                            \
  extern "C" HRACE_INTERFACE void __sanitizer_unaligned_store##bits(           \
      void *p, u##bits v) {                                                    \
    MemoryAccess(cur_thread(), CALLER_PC(), Addr(p), bits / 8, true);          \
    internal_memcpy(p, &v, sizeof(v));                                         \
  }

HRACE_UNALIGNED(16)
HRACE_UNALIGNED(32)
HRACE_UNALIGNED(64)

extern "C" {

HRACE_INTERFACE void __tsan_read_range(void *addr, uptr size) {
  MemoryAccess(cur_thread(), CALLER_PC(), Addr(addr), size, false);
}

HRACE_INTERFACE void __tsan_write_range(void *addr, uptr size) {
  MemoryAccess(cur_thread(), CALLER_PC(), Addr(addr), size, true);
}

HRACE_INTERFACE void __tsan_init() { Initialize(); }

HRACE_INTERFACE void __tsan_func_entry(void *caller_pc) {
  __hrace_func_entry(caller_pc);
}

HRACE_INTERFACE void __tsan_func_exit() { __hrace_func_exit(); }

HRACE_INTERFACE void __tsan_acquire(void *addr) {
  if (ThreadState *thr = CallingThread()) {
    ScopedInRuntime in_rtl;
    AcquireAddr(thr, Addr(addr));
  }
}

HRACE_INTERFACE void __tsan_release(void *addr) {
  if (ThreadState *thr = CallingThread()) {
    ScopedInRuntime in_rtl;
    ReleaseAddr(thr, Addr(addr));
  }
}

HRACE_INTERFACE void __tsan_mutex_create(void *, unsigned) {}

HRACE_INTERFACE void __tsan_mutex_destroy(void *addr, unsigned) {
  if (ThreadState *thr = CallingThread()) {
    ScopedInRuntime in_rtl;
    MutexDestroyed(thr, Addr(addr));
  }
}

// A lock that may block orders the locks the thread holds before it; a
// trylock cannot deadlock.
HRACE_INTERFACE void __tsan_mutex_pre_lock(void *addr, unsigned flags) {
  if (flags & kMutexTryLock)
    return;
  uptr pc = CALLER_PC();
  if (ThreadState *thr = CallingThread()) {
    ScopedInRuntime in_rtl;
    MutexPreLock(thr, pc, Addr(addr));
  }
}

HRACE_INTERFACE void __tsan_mutex_post_lock(void *addr, unsigned flags,
                                            int recursion) {
  if (flags & kMutexTryLockFailed)
    return;
  uptr pc = CALLER_PC();
  if (ThreadState *thr = CallingThread()) {
    ScopedInRuntime in_rtl;
    bool write = !(flags & kMutexReadLock);
    int depth = (flags & kMutexRecursiveLock) && recursion > 1 ? recursion : 1;
    for (int i = 0; i < depth; i++)
      MutexLocked(thr, pc, Addr(addr), write);
  }
}

HRACE_INTERFACE int __tsan_mutex_pre_unlock(void *addr, unsigned flags) {
  uptr pc = CALLER_PC();
  ThreadState *thr = CallingThread();
  if (!thr)
    return 0;
  ScopedInRuntime in_rtl;
  bool write = !(flags & kMutexReadLock);
  CheckUnlock(thr, pc, Addr(addr), SyncKind::kUnknown,
              write ? UnlockMode::kWrite : UnlockMode::kRead);
  if (!(flags & kMutexRecursiveUnlock) || !write) {
    MutexUnlocking(thr, Addr(addr), write);
    return 0;
  }
  u32 depth = MutexRecursion(thr, Addr(addr));
  for (u32 i = 0; i < depth; i++)
    MutexUnlocking(thr, Addr(addr), true);
  return static_cast<int>(depth);
}

HRACE_INTERFACE void __tsan_mutex_post_unlock(void *, unsigned) {}
HRACE_INTERFACE void __tsan_mutex_pre_signal(void *, unsigned) {}
HRACE_INTERFACE void __tsan_mutex_post_signal(void *, unsigned) {}
HRACE_INTERFACE void __tsan_mutex_pre_divert(void *, unsigned) {}
HRACE_INTERFACE void __tsan_mutex_post_divert(void *, unsigned) {}

HRACE_INTERFACE void __tsan_ignore_thread_begin() {
  if (ThreadState *thr = CallingThread()) {
    thr->ignore_reads++;
    thr->ignore_writes++;
  }
}

HRACE_INTERFACE void __tsan_ignore_thread_end() {
  if (ThreadState *thr = CallingThread()) {
    if (thr->ignore_reads)
      thr->ignore_reads--;
    if (thr->ignore_writes)
      thr->ignore_writes--;
  }
}

// Fibers are not modelled; each gets a distinct handle so that code that
// keeps them in tables works, and switching changes nothing.
HRACE_INTERFACE void *__tsan_get_current_fiber() {
  static char main_fiber;
  return &main_fiber;
}

HRACE_INTERFACE void *__tsan_create_fiber(unsigned) {
  ScopedInRuntime in_rtl;
  return InternalAlloc(1);
}

HRACE_INTERFACE void __tsan_destroy_fiber(void *fiber) {
  ScopedInRuntime in_rtl;
  InternalFree(fiber);
}

HRACE_INTERFACE void __tsan_switch_to_fiber(void *, unsigned) {}
HRACE_INTERFACE void __tsan_set_fiber_name(void *, const char *) {}

} // extern "C"
