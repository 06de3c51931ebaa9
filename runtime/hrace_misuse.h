//===-- hrace_misuse.h - Misuse of the pthreads API -----------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// report_misuse: the checks Helgrind makes on the pthreads calls it
// intercepts (seeds/004, 7.2), made by the interceptors before and after the
// real call from what the sync object table knows: the kind of each object,
// the holder of a lock and its readers, the waiters of a condition variable,
// barrier or semaphore. A call that misuses an object is reported once per
// call site; a real call that then fails is not reported again.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_MISUSE_H
#define HRACE_MISUSE_H

#include "hrace_defs.h"
#include "hrace_sync.h"
#include "hrace_thread.h"

namespace hrace {

enum class Misuse : u8 {
#define HRACE_MISUSE(name, kind, title) k##name,
#include "hrace_misuse.inc"
#undef HRACE_MISUSE
};

// Before pthread_*_init (and sem_init): re-initialising a held lock or a
// barrier, a barrier count of zero. Returns true if the call was reported.
bool CheckInit(ThreadState *thr, uptr pc, uptr addr, SyncKind kind,
               u32 barrier_count = 0);
// After a successful init: a new object at addr, of that kind, first seen
// here.
void SyncObjectInit(ThreadState *thr, uptr pc, uptr addr, SyncKind kind,
                    u32 barrier_count = 0);
// Before a lock call (try: a trylock, which never blocks). Returns true if
// the call was reported as a misuse.
bool CheckLock(ThreadState *thr, uptr pc, uptr addr, SyncKind kind, bool write,
               bool try_lock);
// Before an unlock; `write` is the mode the caller says it releases, or
// unknown (pthread_rwlock_unlock releases whichever it holds).
enum class UnlockMode : u8 { kWrite, kRead, kEither };
bool CheckUnlock(ThreadState *thr, uptr pc, uptr addr, SyncKind kind,
                 UnlockMode mode);
// Before pthread_*_destroy and sem_destroy.
bool CheckDestroy(ThreadState *thr, uptr pc, uptr addr, SyncKind kind);
// Around a condition wait: the mutex must be held by the caller, and all
// threads waiting at once must use one mutex.
bool CondWaitBegin(ThreadState *thr, uptr pc, uptr cond, uptr mutex);
void CondWaitEnd(ThreadState *thr, uptr cond);
// Before a barrier wait.
bool CheckBarrierWait(ThreadState *thr, uptr pc, uptr addr);
// Around sem_wait and its variants.
void SemWaitBegin(ThreadState *thr, uptr addr);
void SemWaitEnd(ThreadState *thr, uptr addr);
// After a pthreads call: an error code it returned that no check above
// explained (`expected` lists the codes that are part of the call's normal
// use, such as EBUSY from a trylock), unless `already_reported`.
void CheckResult(ThreadState *thr, uptr pc, const char *function, int error,
                 bool already_reported, int expected1 = 0, int expected2 = 0);
// The thread is finishing: locks it still holds are reported.
void CheckThreadExit(ThreadState *thr);
// thr frees [addr, addr+size): locked mutexes in it are reported.
void CheckFreeOfLocks(ThreadState *thr, uptr pc, uptr addr, uptr size);
// At exit: joinable threads that finished and were never joined.
void CheckThreadLeaks(ThreadState *thr);

} // namespace hrace

#endif // HRACE_MISUSE_H
