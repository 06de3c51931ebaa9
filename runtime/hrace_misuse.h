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

#include <pthread.h>

namespace hrace {

enum class Misuse : u8 {
#define HRACE_MISUSE(name, kind, title, suppression) k##name,
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
// Before a lock call on s (found with NamedLock; try: a trylock, which
// never blocks). Returns true if the call was reported as a misuse.
bool CheckLockSlow(ThreadState *thr, uptr pc, SyncObject *s, SyncKind kind,
                   bool write, bool try_lock);
// glibc marks a destroyed mutex by an invalid kind (its lock calls then
// fail with EINVAL).
ALWAYS_INLINE bool MutexMemoryDestroyed(uptr addr) {
#if defined(__GLIBC__)
  return LoadRelaxed(
             &reinterpret_cast<pthread_mutex_t *>(addr)->__data.__kind) == -1;
#else
  return false;
#endif
}
ALWAYS_INLINE bool CheckLock(ThreadState *thr, uptr pc, SyncObject *s,
                             SyncKind kind, bool write, bool try_lock) {
  // Every lock call passes here: an object seen before as this kind, not
  // held by the caller, whose memory is not a destroyed mutex, has nothing
  // to report. (A write lock of a reader-writer lock also needs the caller's
  // read holds: the slow path.)
  if (LIKELY(LoadRelaxed(reinterpret_cast<const u8 *>(&s->kind)) ==
                 static_cast<u8>(kind) &&
             LoadRelaxed(&s->first_seen) &&
             LoadRelaxed(&s->owner) != thr->thread_id + 1 &&
             (kind != SyncKind::kRwLock || !write) &&
             (kind != SyncKind::kMutex || !MutexMemoryDestroyed(s->addr))))
    return false;
  return CheckLockSlow(thr, pc, s, kind, write, try_lock);
}
// Before an unlock; `write` is the mode the caller says it releases, or
// unknown (pthread_rwlock_unlock releases whichever it holds).
enum class UnlockMode : u8 { kWrite, kRead, kEither };
bool CheckUnlock(ThreadState *thr, uptr pc, uptr addr, SyncKind kind,
                 UnlockMode mode);
// The same where the caller looked the object up (null: none).
bool CheckUnlockSlow(ThreadState *thr, uptr pc, uptr addr, SyncObject *s,
                     SyncKind kind, UnlockMode mode);
ALWAYS_INLINE bool CheckUnlock(ThreadState *thr, uptr pc, uptr addr,
                               SyncObject *s, SyncKind kind, UnlockMode mode) {
  // The common case: the caller holds it for writing.
  if (LIKELY(s && kind != SyncKind::kUnknown &&
             LoadRelaxed(&s->owner) == thr->thread_id + 1 &&
             (kind != SyncKind::kMutex || !MutexMemoryDestroyed(addr))))
    return false;
  return CheckUnlockSlow(thr, pc, addr, s, kind, mode);
}
// Before pthread_*_destroy and sem_destroy.
bool CheckDestroy(ThreadState *thr, uptr pc, uptr addr, SyncKind kind);
// Around a condition wait: the mutex must be held by the caller, and all
// threads waiting at once must use one mutex.
bool CondWaitBegin(ThreadState *thr, uptr pc, uptr cond, uptr mutex);
void CondWaitEnd(ThreadState *thr, uptr cond);
// A signal unblocks one waiter, a broadcast all: destroying the condition
// variable then is allowed while they return from their waits.
void CondSignalled(ThreadState *thr, uptr cond, bool broadcast);
// Before a barrier wait.
bool CheckBarrierWait(ThreadState *thr, uptr pc, uptr addr);
// Around sem_wait and its variants.
void SemWaitBegin(ThreadState *thr, uptr addr);
void SemWaitEnd(ThreadState *thr, uptr addr);
// After a pthreads call: an error code it returned that no check above
// explained (`expected` lists the codes that are part of the call's normal
// use, such as EBUSY from a trylock), unless `already_reported` (or the
// program checks the result: ResultChecked).
void ReportFailedCall(ThreadState *thr, uptr pc, const char *function,
                      int error);
// The pass marks a call to a pthreads function whose result the program
// uses (__hrace_result_checked): its errors are the program's to handle.
// Calls that ignore the result, and calls from code the pass did not see,
// have errors reported. Consumes the mark.
ALWAYS_INLINE bool ResultChecked(ThreadState *thr, uptr fn) {
  bool checked = thr->checked_result_fn == fn;
  thr->checked_result_fn = 0;
  return checked;
}
ALWAYS_INLINE void CheckResult(ThreadState *thr, uptr pc, const char *function,
                               int error, bool already_reported,
                               int expected1 = 0, int expected2 = 0) {
  if (UNLIKELY(error) && !already_reported && error != expected1 &&
      error != expected2)
    ReportFailedCall(thr, pc, function, error);
}
// The thread is finishing: locks it still holds are reported.
void CheckThreadExit(ThreadState *thr);
// thr frees [addr, addr+size): locked mutexes in it are reported.
void CheckFreeOfLocks(ThreadState *thr, uptr pc, uptr addr, uptr size);
// At exit: joinable threads that finished and were never joined.
void CheckThreadLeaks(ThreadState *thr);

} // namespace hrace

#endif // HRACE_MISUSE_H
