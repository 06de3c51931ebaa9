//===-- hrace_misuse.cpp - Misuse of the pthreads API ---------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_misuse.h"

#include "hrace_interface.h"

#include "hrace_report.h"
#include "hrace_rtl.h"

#include <errno.h>
#include <pthread.h>

namespace hrace {

namespace {

const char *NounOf(SyncKind kind) {
  switch (kind) {
  case SyncKind::kMutex:
    return "mutex";
  case SyncKind::kRwLock:
    return "reader-writer lock";
  case SyncKind::kSpinLock:
    return "spin lock";
  case SyncKind::kCond:
    return "condition variable";
  case SyncKind::kBarrier:
    return "barrier";
  case SyncKind::kSemaphore:
    return "semaphore";
  case SyncKind::kUnknown:
    break;
  }
  return "lock";
}

// Read without the object's lock: set once, under it.
SyncKind KindOf(const SyncObject *s) {
  return static_cast<SyncKind>(
      LoadRelaxed(reinterpret_cast<const u8 *>(&s->kind)));
}

bool IsLock(SyncKind kind) {
  return kind == SyncKind::kMutex || kind == SyncKind::kRwLock ||
         kind == SyncKind::kSpinLock;
}

// What a report says about s; `kind` is what the call took it for.
ObjectDescription Describe(const SyncObject *s, SyncKind kind) {
  ObjectDescription o;
  o.noun = NounOf(kind);
  o.addr = s->addr;
  o.lock_id = IsLock(kind) ? s->lock_id : 0;
  o.first_seen = s->first_seen;
  o.first_seen_thread = s->first_seen_thread;
  o.holder = LoadRelaxed(&s->owner);
  o.readers = LoadRelaxed(&s->readers);
  return o;
}

// For the "first observed" line of reports about s.
void RecordFirstSighting(ThreadState *thr, uptr pc, SyncObject *s) {
  if (UNLIKELY(!LoadRelaxed(&s->first_seen))) {
    StackId stack = CurrentStack(thr, pc);
    SpinMutexLock l(&s->mu);
    if (!s->first_seen) {
      s->first_seen = stack;
      s->first_seen_thread = thr->thread_id;
    }
  }
}

// The object at addr with its first sighting recorded.
SyncObject *Observed(ThreadState *thr, uptr pc, uptr addr, SyncKind kind) {
  SyncObject *s =
      IsLock(kind) ? NamedLock(thr, pc, addr) : ctx->syncs.GetOrCreate(addr);
  if (s)
    RecordFirstSighting(thr, pc, s);
  return s;
}

const char *ErrorName(int error) {
  switch (error) {
  case EINVAL:
    return "EINVAL";
  case EBUSY:
    return "EBUSY";
  case EPERM:
    return "EPERM";
  case EDEADLK:
    return "EDEADLK";
  case EAGAIN:
    return "EAGAIN";
  case ETIMEDOUT:
    return "ETIMEDOUT";
  case EOVERFLOW:
    return "EOVERFLOW";
  case ENOMEM:
    return "ENOMEM";
  case ENOTRECOVERABLE:
    return "ENOTRECOVERABLE";
  case EOWNERDEAD:
    return "EOWNERDEAD";
  }
  return "an error";
}

bool Enabled() { return ctx->flags.report_misuse; }

// A frame's objects die unseen when it returns: an object the table still
// knows on the caller's stack may be a dead one's, and another frame's
// object of another kind may now live there. Globals and heap objects (a
// free forgets them) have no such past.
bool OnOwnStack(ThreadState *thr, uptr addr) {
  const ThreadContext *tc = thr->context;
  return tc && addr >= tc->stack_beg && addr < tc->stack_end;
}

// An object the runtime does not know as valid: named by its address only.
ObjectDescription Unknown(uptr addr, SyncKind kind) {
  ObjectDescription o;
  o.noun = NounOf(kind);
  o.addr = addr;
  return o;
}

} // namespace

// glibc keeps a mutex's type (PTHREAD_MUTEX_RECURSIVE...) in the low bits
// of its kind, also for statically initialised mutexes.
namespace {
#if defined(__GLIBC__)
int MutexKindWord(uptr addr) {
  return LoadRelaxed(&reinterpret_cast<pthread_mutex_t *>(addr)->__data.__kind);
}
bool MutexIsRecursive(uptr addr) {
  return (MutexKindWord(addr) & 3) == PTHREAD_MUTEX_RECURSIVE;
}
#else
bool MutexIsRecursive(uptr) { return false; }
#endif
} // namespace

bool CheckInit(ThreadState *thr, uptr pc, uptr addr, SyncKind kind,
               u32 barrier_count) {
  if (!Enabled())
    return false;
  // SyncObjectInit writes the meta cell after this.
  SyncObject *s = ctx->syncs.GetBeforeWrite(addr);
  if (kind == SyncKind::kBarrier && !barrier_count) {
    ObjectDescription o = Unknown(addr, kind);
    ReportMisuse(thr, pc, Misuse::kBarrierInitInvalid, &o, 1, 0,
                 "initialises barrier at 0x%zx with a count of zero", addr);
    return true;
  }
  if (!s || !s->initialized || s->kind != kind)
    return false;
  ObjectDescription o = Describe(s, kind);
  if (kind == SyncKind::kBarrier) {
    bool waited;
    {
      SpinMutexLock l(&s->mu);
      SyncExtras *x = s->extras();
      waited = x && x->barrier && x->barrier->arrived;
    }
    if (!waited && OnOwnStack(thr, addr))
      return false;
    ReportMisuse(thr, pc,
                 waited ? Misuse::kBarrierInitWaited : Misuse::kBarrierReinit,
                 &o, 1, 0, "initialises barrier at 0x%zx again%s", addr,
                 waited ? " while threads wait on it" : "");
    return true;
  }
  if (IsLock(kind) && (o.holder || o.readers)) {
    ReportMisuse(thr, pc, Misuse::kDestroyLocked, &o, 1, 0,
                 "initialises %s M%u at 0x%zx again while it is held",
                 NounOf(kind), s->lock_id, addr);
    return true;
  }
  return false;
}

void SyncObjectInit(ThreadState *thr, uptr pc, uptr addr, SyncKind kind,
                    u32 barrier_count) {
  // A new object: what the runtime knew of the old one at this address (its
  // clocks, its name in the lock-order graph) is gone.
  ctx->syncs.ResetRange(addr, 1);
  SyncObject *s = Observed(thr, pc, addr, kind);
  if (!s)
    return;
  {
    SpinMutexLock l(&s->mu);
    s->kind = kind;
    s->initialized = true;
  }
  if (kind == SyncKind::kBarrier)
    BarrierInit(thr, addr, barrier_count);
}

bool CheckLockSlow(ThreadState *thr, uptr pc, SyncObject *s, SyncKind kind,
                   bool write, bool try_lock) {
  if (!Enabled())
    return false;
  uptr addr = s->addr;
  RecordFirstSighting(thr, pc, s);
  // Locked only the first time: every lock call passes here.
  SyncKind known = KindOf(s);
  if (UNLIKELY(known == SyncKind::kUnknown)) {
    SpinMutexLock l(&s->mu);
    if (s->kind == SyncKind::kUnknown)
      s->kind = kind;
    known = s->kind;
  }
  bool initialized = LoadRelaxed(&s->initialized);
  ObjectDescription o = Describe(s, known);
  // A stale kind (an object of another kind once lived at this address and
  // was never destroyed) is trusted only when the object is held now, or was
  // initialised as such outside the thread's stack.
  if (known != kind && IsLock(known) && IsLock(kind) &&
      (o.holder || o.readers || (initialized && !OnOwnStack(thr, addr))) &&
      (known == SyncKind::kRwLock) != (kind == SyncKind::kRwLock)) {
    Misuse what = kind == SyncKind::kRwLock ? Misuse::kMutexAsRwLock
                                            : Misuse::kRwLockAsMutex;
    ReportMisuse(thr, pc, what, &o, 1, 0, "passes %s M%u at 0x%zx to a %s call",
                 NounOf(known), s->lock_id, addr, NounOf(kind));
    return true;
  }
  if (kind == SyncKind::kMutex && MutexMemoryDestroyed(addr)) {
    ReportMisuse(thr, pc, Misuse::kLockInvalid, &o, 1, 0,
                 "locks mutex M%u at 0x%zx, which was destroyed", s->lock_id,
                 addr);
    return true;
  }
  if (try_lock)
    return false;
  u32 me = thr->thread_id + 1;
  bool relock =
      o.holder == me && !(kind == SyncKind::kMutex && MutexIsRecursive(addr));
  // A write lock of a reader-writer lock this thread holds for reading
  // waits for itself too.
  if (kind == SyncKind::kRwLock && write && o.holder != me &&
      thr->locks.Holds(s->lock_id))
    relock = true;
  if (!relock)
    return false;
  o.holder = 0;
  o.readers = 0;
  ReportMisuse(thr, pc, Misuse::kRelockNonRecursive, &o, 1, 0,
               "locks %s M%u at 0x%zx, which it already holds", NounOf(kind),
               s->lock_id, addr);
  return true;
}

bool CheckUnlock(ThreadState *thr, uptr pc, uptr addr, SyncKind kind,
                 UnlockMode mode) {
  return CheckUnlock(thr, pc, addr, ctx->syncs.Get(addr), kind, mode);
}

bool CheckUnlockSlow(ThreadState *thr, uptr pc, uptr addr, SyncObject *s,
                     SyncKind kind, UnlockMode mode) {
  if (!Enabled())
    return false;
  u32 me = thr->thread_id + 1;
  bool held_for_reading = s && s->lock_id && thr->locks.Holds(s->lock_id);
  if (s && kind == SyncKind::kUnknown) {
    // Annotated and ThreadSanitizer-interface locks say which hold they
    // release; only a mismatch with what the thread holds is checked.
    ObjectDescription o = Describe(s, SyncKind::kRwLock);
    if (mode == UnlockMode::kRead && o.holder == me) {
      ReportMisuse(thr, pc, Misuse::kReadUnlockWriteHeld, &o, 1, 0,
                   "read-unlocks lock M%u at 0x%zx, which it holds for "
                   "writing",
                   s->lock_id, addr);
      return true;
    }
    if (mode == UnlockMode::kWrite && o.holder != me && held_for_reading) {
      ReportMisuse(thr, pc, Misuse::kWriteUnlockReadHeld, &o, 1, 0,
                   "write-unlocks lock M%u at 0x%zx, which it holds for "
                   "reading",
                   s->lock_id, addr);
      return true;
    }
    return false;
  }
  if (kind == SyncKind::kUnknown)
    return false;
  bool destroyed = kind == SyncKind::kMutex && MutexMemoryDestroyed(addr);
  if (!s || !s->lock_id || destroyed) {
    ObjectDescription o = Unknown(addr, kind);
    ReportMisuse(thr, pc, Misuse::kUnlockInvalid, &o, 1, 0,
                 "unlocks %s at 0x%zx, which %s", NounOf(kind), addr,
                 destroyed ? "was destroyed"
                           : "was never initialised or locked");
    return true;
  }
  ObjectDescription o = Describe(s, kind);
  if (o.holder == me || held_for_reading)
    return false;
  if (!o.holder && !o.readers) {
    ReportMisuse(thr, pc, Misuse::kUnlockUnlocked, &o, 1, 0,
                 "unlocks %s M%u at 0x%zx, which no thread holds", NounOf(kind),
                 s->lock_id, addr);
    return true;
  }
  ReportMisuse(thr, pc, Misuse::kUnlockOtherThread, &o, 1, 0,
               "unlocks %s M%u at 0x%zx, which it does not hold", NounOf(kind),
               s->lock_id, addr);
  return true;
}

bool CheckDestroy(ThreadState *thr, uptr pc, uptr addr, SyncKind kind) {
  if (!Enabled())
    return false;
  if (kind == SyncKind::kMutex && MutexMemoryDestroyed(addr)) {
    ObjectDescription o = Unknown(addr, kind);
    ReportMisuse(thr, pc, Misuse::kDestroyInvalid, &o, 1, 0,
                 "destroys mutex at 0x%zx, which was destroyed before", addr);
    return true;
  }
  SyncObject *s = ctx->syncs.Get(addr);
  if (kind == SyncKind::kBarrier && (!s || !s->initialized)) {
    ObjectDescription o = Unknown(addr, kind);
    ReportMisuse(thr, pc, Misuse::kBarrierDestroyUninit, &o, 1, 0,
                 "destroys barrier at 0x%zx, which was never initialised",
                 addr);
    return true;
  }
  if (!s)
    return false;
  ObjectDescription o = Describe(s, kind);
  if (IsLock(kind) && (o.holder || o.readers)) {
    ReportMisuse(thr, pc, Misuse::kDestroyLocked, &o, 1, 0,
                 "destroys %s M%u at 0x%zx, which is held", NounOf(kind),
                 s->lock_id, addr);
    return true;
  }
  SyncExtras *x = s->extras();
  u32 waiters = x ? LoadRelaxed(&x->waiters) : 0;
  if (x && kind == SyncKind::kCond) {
    SpinMutexLock l(&s->mu);
    waiters = x->waiters - x->woken;
  }
  if (x && kind == SyncKind::kBarrier) {
    SpinMutexLock l(&s->mu);
    waiters = x->barrier ? x->barrier->arrived : 0;
  }
  if (!waiters || IsLock(kind))
    return false;
  o.readers = 0;
  Misuse what = kind == SyncKind::kCond      ? Misuse::kCondDestroyWaited
                : kind == SyncKind::kBarrier ? Misuse::kBarrierDestroyWaited
                                             : Misuse::kSemDestroyWaited;
  ReportMisuse(thr, pc, what, &o, 1, 0,
               "destroys %s at 0x%zx while %u thread%s wait%s on it",
               NounOf(kind), addr, waiters, waiters == 1 ? "" : "s",
               waiters == 1 ? "s" : "");
  return true;
}

bool CondWaitBegin(ThreadState *thr, uptr pc, uptr cond, uptr mutex) {
  SyncObject *c = ctx->syncs.GetOrCreate(cond);
  if (!c)
    return false;
  uptr other_mutex = 0;
  {
    SpinMutexLock l(&c->mu);
    if (c->kind == SyncKind::kUnknown)
      c->kind = SyncKind::kCond;
    // POSIX binds a condition variable to one mutex while threads wait on
    // it; with no waiter left it may be used with another.
    SyncExtras &x = c->Extras();
    if (x.waiters && x.cond_mutex != mutex)
      other_mutex = x.cond_mutex;
    else
      x.cond_mutex = mutex;
    x.waiters++;
  }
  if (!Enabled())
    return false;
  u32 me = thr->thread_id + 1;
  SyncObject *m = ctx->syncs.Get(mutex);
  bool destroyed = MutexMemoryDestroyed(mutex);
  if (!m || !m->lock_id || destroyed) {
    ObjectDescription o = Unknown(mutex, SyncKind::kMutex);
    ReportMisuse(thr, pc, Misuse::kCondWaitInvalid, &o, 1, 0,
                 "waits on condition variable 0x%zx with mutex 0x%zx, which "
                 "%s",
                 cond, mutex,
                 destroyed ? "was destroyed"
                           : "was never initialised or "
                             "locked");
    return true;
  }
  ObjectDescription o = Describe(m, SyncKind::kMutex);
  if (o.holder != me) {
    Misuse what =
        o.holder ? Misuse::kCondWaitOtherThread : Misuse::kCondWaitUnlocked;
    ReportMisuse(thr, pc, what, &o, 1, 0,
                 "waits on condition variable 0x%zx with mutex M%u, which it "
                 "does not hold",
                 cond, m->lock_id);
    return true;
  }
  if (!other_mutex)
    return false;
  ObjectDescription objects[2] = {o, o};
  if (SyncObject *other = ctx->syncs.Get(other_mutex))
    objects[1] = Describe(other, SyncKind::kMutex);
  else
    objects[1].addr = other_mutex;
  objects[0].holder = 0;
  objects[1].holder = 0;
  ReportMisuse(thr, pc, Misuse::kCondTwoMutexes, objects, 2, 0,
               "waits on condition variable 0x%zx with mutex M%u while other "
               "threads wait on it with mutex M%u",
               cond, m->lock_id, objects[1].lock_id);
  return true;
}

void CondWaitEnd(ThreadState *thr, uptr cond) {
  (void)thr;
  if (SyncObject *c = ctx->syncs.Get(cond)) {
    SpinMutexLock l(&c->mu);
    SyncExtras *x = c->extras();
    if (x && x->waiters)
      x->waiters--;
    if (x && x->woken)
      x->woken--;
  }
}

void CondSignalled(ThreadState *thr, uptr cond, bool broadcast) {
  (void)thr;
  if (SyncObject *c = ctx->syncs.Get(cond)) {
    SpinMutexLock l(&c->mu);
    SyncExtras &x = c->Extras();
    x.woken = broadcast || x.woken >= x.waiters ? x.waiters : x.woken + 1;
  }
}

bool CheckBarrierWait(ThreadState *thr, uptr pc, uptr addr) {
  if (!Enabled())
    return false;
  SyncObject *s = ctx->syncs.Get(addr);
  if (s && s->initialized && s->kind == SyncKind::kBarrier)
    return false;
  ObjectDescription o = Unknown(addr, SyncKind::kBarrier);
  ReportMisuse(thr, pc, Misuse::kBarrierWaitUninit, &o, 1, 0,
               "waits on barrier at 0x%zx, which was never initialised", addr);
  return true;
}

void SemWaitBegin(ThreadState *thr, uptr addr) {
  (void)thr;
  if (SyncObject *s = ctx->syncs.GetOrCreate(addr))
    __atomic_fetch_add(&s->Extras().waiters, 1u, __ATOMIC_RELAXED);
}

void SemWaitEnd(ThreadState *thr, uptr addr) {
  (void)thr;
  if (SyncObject *s = ctx->syncs.Get(addr))
    if (SyncExtras *x = s->extras())
      __atomic_fetch_sub(&x->waiters, 1u, __ATOMIC_RELAXED);
}

void ReportFailedCall(ThreadState *thr, uptr pc, const char *function,
                      int error) {
  if (!Enabled())
    return;
  if (error == EOVERFLOW && !internal_strcmp(function, "sem_post")) {
    ReportMisuse(thr, pc, Misuse::kSemPostOverflow, nullptr, 0, 0,
                 "posts a semaphore at its maximum value (sem_post fails "
                 "with EOVERFLOW)");
    return;
  }
  ReportMisuse(thr, pc, Misuse::kCallFailed, nullptr, 0, 0,
               "calls %s, which fails with %s (%d)", function, ErrorName(error),
               error);
}

void CheckThreadExit(ThreadState *thr) {
  HeldAcquisitions *held = &thr->acquisitions;
  if (!Enabled() || !held->count() || thr->thread_id == 0)
    return;
  constexpr u32 kShown = 8;
  ObjectDescription objects[kShown];
  u32 shown = 0;
  // Reported once per place where the first held lock was taken.
  uptr pc = held->at(0)->frame_count ? held->at(0)->frames[0] : 0;
  for (u32 i = 0; i < held->count() && shown < kShown; i++) {
    HeldAcquisitions::Acquisition *a = held->at(i);
    SyncObject *s = ctx->syncs.Get(a->addr);
    if (!s)
      continue;
    ObjectDescription &o = objects[shown++];
    o = Describe(s, s->kind);
    o.holder = 0;
    o.readers = 0;
    o.acquired = ctx->stacks.Put(a->frames, a->frame_count);
  }
  // Where the thread ends is its start routine's return or pthread_exit;
  // the locks' acquisitions say more.
  ReportMisuse(thr, pc, Misuse::kExitHoldingLocks, objects, shown,
               objects[0].acquired, "exits while holding %u lock%s",
               held->count(), held->count() == 1 ? "" : "s");
}

void CheckFreeOfLocks(ThreadState *thr, uptr pc, uptr addr, uptr size) {
  if (!Enabled())
    return;
  ctx->syncs.ForEachInRange(addr, size, [&](SyncObject *s) {
    if (!IsLock(s->kind) ||
        (!LoadRelaxed(&s->owner) && !LoadRelaxed(&s->readers)))
      return;
    ObjectDescription o = Describe(s, s->kind);
    ReportMisuse(thr, pc, Misuse::kFreeLocked, &o, 1, 0,
                 "frees memory at 0x%zx that holds %s M%u, which is held", addr,
                 NounOf(s->kind), s->lock_id);
  });
}

void CheckThreadLeaks(ThreadState *thr) {
  if (!ctx->flags.report_thread_leaks)
    return;
  constexpr u32 kMaxLeaks = 64;
  u32 leaked[kMaxLeaks];
  StackId created[kMaxLeaks];
  u32 count = 0;
  {
    SpinMutexLock l(ctx->threads.mutex());
    for (u32 slot = 0; slot < ctx->threads.slots_in_use(); slot++) {
      ThreadContext *tc = ctx->threads.ContextOfSlot(slot);
      if (!tc || tc->status != ThreadStatus::kFinished || tc->detached ||
          tc->joined || count == kMaxLeaks)
        continue;
      leaked[count] = tc->thread_id;
      created[count] = tc->creation_stack;
      count++;
    }
  }
  for (u32 i = 0; i < count; i++) {
    uptr site = 0;
    ctx->stacks.Get(created[i], &site, 1);
    // One report per creation site, as for other kinds.
    ReportMisuse(thr, site, Misuse::kThreadLeak, nullptr, 0, created[i],
                 "exits the process; thread T%u finished and was never "
                 "joined or detached. T%u was created at",
                 leaked[i], leaked[i]);
  }
}

} // namespace hrace

extern "C" void __hrace_result_checked(void *fn) {
  hrace::cur_thread()->checked_result_fn = reinterpret_cast<hrace::uptr>(fn);
}
