//===-- hrace_annotations.cpp - Dynamic annotations -----------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The functions behind annotations/include/hrace/annotations.h.
//
//===----------------------------------------------------------------------===//
#include "../shadow/hrace_shadow.h"
#include "hrace_libc.h"
#include "hrace_misuse.h"
#include "hrace_rtl.h"

using namespace hrace;

namespace {

ThreadState *AnnotatingThread() {
  ThreadState *thr = cur_thread();
  if (!IsInitialized() || thr->in_rtl)
    return nullptr;
  if (!thr->context)
    AdoptCurrentThread(thr);
  return thr;
}

// Runs fn for a thread the runtime follows, inside the runtime.
template <typename Fn> void WithThread(Fn fn) {
  if (ThreadState *thr = AnnotatingThread()) {
    ScopedInRuntime in_rtl;
    fn(thr);
  }
}

} // namespace

extern "C" {

INTERFACE_ATTRIBUTE void AnnotateHappensBefore(const char *, int,
                                               const volatile void *addr) {
  if (ThreadState *thr = AnnotatingThread()) {
    ScopedInRuntime in_rtl;
    ReleaseAddr(thr, Addr(addr));
  }
}

INTERFACE_ATTRIBUTE void AnnotateHappensAfter(const char *, int,
                                              const volatile void *addr) {
  if (ThreadState *thr = AnnotatingThread()) {
    ScopedInRuntime in_rtl;
    AcquireAddr(thr, Addr(addr));
  }
}

// A benign race is put straight into the Race state: the state every machine
// treats as "already dealt with, check nothing more".
INTERFACE_ATTRIBUTE void AnnotateBenignRaceSized(const char *, int,
                                                 const volatile void *addr,
                                                 size_t size, const char *) {
  if (!AnnotatingThread() || !IsAppMem(Addr(addr)))
    return;
  ScopedInRuntime in_rtl;
  AddBenignRace(Addr(addr), size);
}

INTERFACE_ATTRIBUTE void AnnotateIgnoreReadsBegin(const char *, int) {
  if (ThreadState *thr = AnnotatingThread())
    thr->ignore_reads++;
}

INTERFACE_ATTRIBUTE void AnnotateIgnoreReadsEnd(const char *, int) {
  if (ThreadState *thr = AnnotatingThread())
    if (thr->ignore_reads)
      thr->ignore_reads--;
}

INTERFACE_ATTRIBUTE void AnnotateIgnoreWritesBegin(const char *, int) {
  if (ThreadState *thr = AnnotatingThread())
    thr->ignore_writes++;
}

INTERFACE_ATTRIBUTE void AnnotateIgnoreWritesEnd(const char *, int) {
  if (ThreadState *thr = AnnotatingThread())
    if (thr->ignore_writes)
      thr->ignore_writes--;
}

INTERFACE_ATTRIBUTE void AnnotateThreadName(const char *, int,
                                            const char *name) {
  if (ThreadState *thr = AnnotatingThread())
    internal_strlcpy(thr->context->name, name, sizeof(thr->context->name));
}

// --- The rest of the classic dynamic-annotations ABI (seeds/003, 5) --------
// Code written against dynamic_annotations.h (for Helgrind or the first
// ThreadSanitizer) links and keeps its meaning where HybridRace has one.

// A lock the program implements itself: a lock like a pthread rwlock.
INTERFACE_ATTRIBUTE void AnnotateRWLockCreate(const char *, int,
                                              const volatile void *) {}
INTERFACE_ATTRIBUTE void AnnotateRWLockCreateStatic(const char *, int,
                                                    const volatile void *) {}
INTERFACE_ATTRIBUTE void AnnotateRWLockDestroy(const char *, int,
                                               const volatile void *lock) {
  WithThread([&](ThreadState *thr) { MutexDestroyed(thr, Addr(lock)); });
}
INTERFACE_ATTRIBUTE void AnnotateRWLockAcquired(const char *, int,
                                                const volatile void *lock,
                                                long is_w) {
  uptr pc = CALLER_PC();
  // Said after the acquisition, but it may have blocked: it orders the locks
  // the thread holds before this one.
  WithThread([&](ThreadState *thr) {
    MutexPreLock(thr, pc, Addr(lock));
    MutexLocked(thr, pc, Addr(lock), is_w);
  });
}
INTERFACE_ATTRIBUTE void AnnotateRWLockReleased(const char *, int,
                                                const volatile void *lock,
                                                long is_w) {
  uptr pc = CALLER_PC();
  WithThread([&](ThreadState *thr) {
    CheckUnlock(thr, pc, Addr(lock), SyncKind::kUnknown,
                is_w ? UnlockMode::kWrite : UnlockMode::kRead);
    MutexUnlocking(thr, Addr(lock), is_w);
  });
}

// A condition variable or a producer/consumer queue the program implements:
// a signal or a put happens before the wait or get that sees it.
INTERFACE_ATTRIBUTE void AnnotateCondVarSignal(const char *, int,
                                               const volatile void *cv) {
  WithThread([&](ThreadState *thr) { ReleaseAddr(thr, Addr(cv)); });
}
INTERFACE_ATTRIBUTE void AnnotateCondVarSignalAll(const char *, int,
                                                  const volatile void *cv) {
  WithThread([&](ThreadState *thr) { ReleaseAddr(thr, Addr(cv)); });
}
INTERFACE_ATTRIBUTE void AnnotateCondVarWait(const char *, int,
                                             const volatile void *cv,
                                             const volatile void *) {
  WithThread([&](ThreadState *thr) { AcquireAddr(thr, Addr(cv)); });
}
INTERFACE_ATTRIBUTE void AnnotatePCQCreate(const char *, int,
                                           const volatile void *) {}
INTERFACE_ATTRIBUTE void AnnotatePCQDestroy(const char *, int,
                                            const volatile void *) {}
INTERFACE_ATTRIBUTE void AnnotatePCQPut(const char *, int,
                                        const volatile void *pcq) {
  WithThread([&](ThreadState *thr) { ReleaseAddr(thr, Addr(pcq)); });
}
INTERFACE_ATTRIBUTE void AnnotatePCQGet(const char *, int,
                                        const volatile void *pcq) {
  WithThread([&](ThreadState *thr) { AcquireAddr(thr, Addr(pcq)); });
}

// Publishing a range forgets its history: what was written before cannot
// race with what any thread does after. New memory likewise starts fresh.
INTERFACE_ATTRIBUTE void AnnotatePublishMemoryRange(const char *, int,
                                                    const volatile void *addr,
                                                    long size) {
  WithThread([&](ThreadState *) { MemoryRangeReset(Addr(addr), size); });
}
INTERFACE_ATTRIBUTE void
AnnotateUnpublishMemoryRange(const char *, int, const volatile void *, long) {}
INTERFACE_ATTRIBUTE void
AnnotateNewMemory(const char *, int, const volatile void *addr, long size) {
  WithThread([&](ThreadState *) { MemoryRangeReset(Addr(addr), size); });
}

INTERFACE_ATTRIBUTE void AnnotateBenignRace(const char *file, int line,
                                            const volatile void *addr,
                                            const char *description) {
  AnnotateBenignRaceSized(file, line, addr, 1, description);
}

// Detection off (0) and back on (1) for the calling thread.
INTERFACE_ATTRIBUTE void AnnotateEnableRaceDetection(const char *, int,
                                                     int enable) {
  if (ThreadState *thr = AnnotatingThread()) {
    if (!enable) {
      thr->ignore_reads++;
      thr->ignore_writes++;
    } else if (thr->ignore_reads && thr->ignore_writes) {
      thr->ignore_reads--;
      thr->ignore_writes--;
    }
  }
}

// Accepted, and change nothing: synchronisation is always seen, a mutex
// that is "not pure happens-before" is what every mutex already is in the
// hybrid machines, and there is no state to flush.
INTERFACE_ATTRIBUTE void AnnotateIgnoreSyncBegin(const char *, int) {}
INTERFACE_ATTRIBUTE void AnnotateIgnoreSyncEnd(const char *, int) {}
// ANNOTATE_PURE_HAPPENS_BEFORE_MUTEX expands to this: the mutex orders its
// critical sections in the hybrid machines too (its users hand data over
// through it in ways the write/read relations do not see).
INTERFACE_ATTRIBUTE void AnnotateMutexIsUsedAsCondVar(const char *, int,
                                                      const volatile void *mu) {
  WithThread([&](ThreadState *) { MutexIsPureHappensBefore(Addr(mu)); });
}
INTERFACE_ATTRIBUTE void AnnotateMutexIsNotPHB(const char *, int,
                                               const volatile void *) {}
INTERFACE_ATTRIBUTE void AnnotateFlushState(const char *, int) {}

INTERFACE_ATTRIBUTE int RunningOnValgrind(void) { return 0; }

// WebKit's WTF copies of the annotations.
INTERFACE_ATTRIBUTE void WTFAnnotateHappensBefore(const char *file, int line,
                                                  const volatile void *addr) {
  AnnotateHappensBefore(file, line, addr);
}
INTERFACE_ATTRIBUTE void WTFAnnotateHappensAfter(const char *file, int line,
                                                 const volatile void *addr) {
  AnnotateHappensAfter(file, line, addr);
}
INTERFACE_ATTRIBUTE void WTFAnnotateBenignRaceSized(const char *file, int line,
                                                    const volatile void *addr,
                                                    size_t size,
                                                    const char *description) {
  AnnotateBenignRaceSized(file, line, addr, size, description);
}

} // extern "C"
