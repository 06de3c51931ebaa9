//===-- hrace_interceptors_pthread.cpp - Threads and synchronisation ------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Thin and mechanical: call the real function, and on success tell the
// runtime which event happened. Releases are reported before the real call
// (so whoever the call wakes sees them), acquires after it returns.
//
//===----------------------------------------------------------------------===//
#include "hrace_interceptors.h"

#include "../runtime/hrace_access.h"
#include "../runtime/hrace_alloc.h"
#include "../runtime/hrace_misuse.h"
#include "../runtime/hrace_ndr.h"
#include "../runtime/hrace_rtl.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

using namespace hrace;

// Condition variables have two symbol versions on x86-64; the unversioned
// lookup would find the 2.2.5 compatibility one.
#if defined(__x86_64__)
#define COND_VERSION "GLIBC_2.3.2"
#else
#define COND_VERSION nullptr
#endif

DEFINE_REAL(pid_t, fork, void)
DEFINE_REAL(int, pthread_create, pthread_t *, const pthread_attr_t *,
            void *(*)(void *), void *)
DEFINE_REAL(int, pthread_join, pthread_t, void **)
DEFINE_REAL(int, pthread_tryjoin_np, pthread_t, void **)
DEFINE_REAL(int, __cxa_atexit, void (*)(void *), void *, void *)
DEFINE_REAL(int, pthread_timedjoin_np, pthread_t, void **,
            const struct timespec *)
DEFINE_REAL(int, pthread_detach, pthread_t)
DEFINE_REAL(void, pthread_exit, void *)
DEFINE_REAL(int, pthread_mutex_init, pthread_mutex_t *,
            const pthread_mutexattr_t *)
DEFINE_REAL(int, pthread_mutex_destroy, pthread_mutex_t *)
DEFINE_REAL(int, pthread_mutex_lock, pthread_mutex_t *)
DEFINE_REAL(int, pthread_mutex_trylock, pthread_mutex_t *)
DEFINE_REAL(int, pthread_mutex_timedlock, pthread_mutex_t *,
            const struct timespec *)
DEFINE_REAL(int, pthread_mutex_unlock, pthread_mutex_t *)
DEFINE_REAL(int, pthread_rwlock_init, pthread_rwlock_t *,
            const pthread_rwlockattr_t *)
DEFINE_REAL(int, pthread_rwlock_destroy, pthread_rwlock_t *)
DEFINE_REAL(int, pthread_rwlock_rdlock, pthread_rwlock_t *)
DEFINE_REAL(int, pthread_rwlock_tryrdlock, pthread_rwlock_t *)
DEFINE_REAL(int, pthread_rwlock_timedrdlock, pthread_rwlock_t *,
            const struct timespec *)
DEFINE_REAL(int, pthread_rwlock_wrlock, pthread_rwlock_t *)
DEFINE_REAL(int, pthread_rwlock_trywrlock, pthread_rwlock_t *)
DEFINE_REAL(int, pthread_rwlock_timedwrlock, pthread_rwlock_t *,
            const struct timespec *)
DEFINE_REAL(int, pthread_rwlock_unlock, pthread_rwlock_t *)
DEFINE_REAL(int, pthread_spin_init, pthread_spinlock_t *, int)
DEFINE_REAL(int, pthread_spin_destroy, pthread_spinlock_t *)
DEFINE_REAL(int, pthread_spin_lock, pthread_spinlock_t *)
DEFINE_REAL(int, pthread_spin_trylock, pthread_spinlock_t *)
DEFINE_REAL(int, pthread_spin_unlock, pthread_spinlock_t *)
DEFINE_REAL(int, pthread_cond_signal, pthread_cond_t *)
DEFINE_REAL(int, pthread_cond_broadcast, pthread_cond_t *)
DEFINE_REAL(int, pthread_cond_wait, pthread_cond_t *, pthread_mutex_t *)
DEFINE_REAL(int, pthread_cond_timedwait, pthread_cond_t *, pthread_mutex_t *,
            const struct timespec *)
DEFINE_REAL(int, pthread_cond_clockwait, pthread_cond_t *, pthread_mutex_t *,
            clockid_t, const struct timespec *)
DEFINE_REAL(int, pthread_cond_init, pthread_cond_t *,
            const pthread_condattr_t *)
DEFINE_REAL(int, pthread_cond_destroy, pthread_cond_t *)
DEFINE_REAL(int, pthread_barrier_init, pthread_barrier_t *,
            const pthread_barrierattr_t *, unsigned)
DEFINE_REAL(int, pthread_barrier_wait, pthread_barrier_t *)
DEFINE_REAL(int, pthread_barrier_destroy, pthread_barrier_t *)
DEFINE_REAL(int, pthread_once, pthread_once_t *, void (*)(void))
// The C++ ABI's guards of function-local statics (libstdc++, libc++abi).
DEFINE_REAL(int, __cxa_guard_acquire, u64 *)
DEFINE_REAL(void, __cxa_guard_release, u64 *)
DEFINE_REAL(void, __cxa_guard_abort, u64 *)
DEFINE_REAL(int, sem_init, sem_t *, int, unsigned)
DEFINE_REAL(int, sem_post, sem_t *)
DEFINE_REAL(int, sem_wait, sem_t *)
DEFINE_REAL(int, sem_trywait, sem_t *)
DEFINE_REAL(int, sem_timedwait, sem_t *, const struct timespec *)
DEFINE_REAL(int, sem_destroy, sem_t *)

// A program linked with -static-libstdc++ has no shared libstdc++ to find
// the guard functions in: its calls reach the runtime's definitions, which
// then keep the guard themselves. Byte 0 says "initialised", as the ABI
// requires (the compiler's inline check reads it); byte 1 "being
// initialised".
namespace {
u8 *GuardByte(u64 *g, int i) { return reinterpret_cast<u8 *>(g) + i; }

int OwnGuardAcquire(u64 *g) {
  for (;;) {
    if (__atomic_load_n(GuardByte(g, 0), __ATOMIC_ACQUIRE))
      return 0;
    u8 idle = 0;
    if (__atomic_compare_exchange_n(GuardByte(g, 1), &idle, 1, false,
                                    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
      // The initialiser may have finished between the load above and the
      // exchange: its release cleared byte 1 after setting byte 0, so the
      // acquiring exchange sees byte 0 set. Running it again would
      // construct the object twice.
      if (!__atomic_load_n(GuardByte(g, 0), __ATOMIC_ACQUIRE))
        return 1;
      __atomic_store_n(GuardByte(g, 1), 0, __ATOMIC_RELEASE);
      return 0;
    }
    sched_yield();
  }
}

void OwnGuardRelease(u64 *g) {
  __atomic_store_n(GuardByte(g, 0), 1, __ATOMIC_RELEASE);
  __atomic_store_n(GuardByte(g, 1), 0, __ATOMIC_RELEASE);
}

void OwnGuardAbort(u64 *g) {
  __atomic_store_n(GuardByte(g, 1), 0, __ATOMIC_RELEASE);
}

template <typename Fn> void ResolveOr(Fn **real, const char *name, Fn *own) {
  *real = reinterpret_cast<Fn *>(ResolveReal(name, nullptr, false));
  if (!*real)
    *real = own;
}
} // namespace

namespace hrace {
void InitPthreadInterceptors() {
  RESOLVE_REAL(fork);
  RESOLVE_REAL(pthread_create);
  RESOLVE_REAL(pthread_join);
  RESOLVE_REAL(pthread_tryjoin_np);
  RESOLVE_REAL(__cxa_atexit);
  RESOLVE_REAL(pthread_timedjoin_np);
  RESOLVE_REAL(pthread_detach);
  RESOLVE_REAL(pthread_exit);
  RESOLVE_REAL(pthread_mutex_init);
  RESOLVE_REAL(pthread_mutex_destroy);
  RESOLVE_REAL(pthread_mutex_lock);
  RESOLVE_REAL(pthread_mutex_trylock);
  RESOLVE_REAL(pthread_mutex_timedlock);
  RESOLVE_REAL(pthread_mutex_unlock);
  RESOLVE_REAL(pthread_rwlock_init);
  RESOLVE_REAL(pthread_rwlock_destroy);
  RESOLVE_REAL(pthread_rwlock_rdlock);
  RESOLVE_REAL(pthread_rwlock_tryrdlock);
  RESOLVE_REAL(pthread_rwlock_timedrdlock);
  RESOLVE_REAL(pthread_rwlock_wrlock);
  RESOLVE_REAL(pthread_rwlock_trywrlock);
  RESOLVE_REAL(pthread_rwlock_timedwrlock);
  RESOLVE_REAL(pthread_rwlock_unlock);
  RESOLVE_REAL(pthread_spin_init);
  RESOLVE_REAL(pthread_spin_destroy);
  RESOLVE_REAL(pthread_spin_lock);
  RESOLVE_REAL(pthread_spin_trylock);
  RESOLVE_REAL(pthread_spin_unlock);
  RESOLVE_REAL_VERSIONED(pthread_cond_signal, COND_VERSION);
  RESOLVE_REAL_VERSIONED(pthread_cond_broadcast, COND_VERSION);
  RESOLVE_REAL_VERSIONED(pthread_cond_wait, COND_VERSION);
  RESOLVE_REAL_VERSIONED(pthread_cond_timedwait, COND_VERSION);
  RESOLVE_REAL_VERSIONED(pthread_cond_init, COND_VERSION);
  RESOLVE_REAL_VERSIONED(pthread_cond_destroy, COND_VERSION);
  // glibc 2.30 and later only.
  real_pthread_cond_clockwait =
      reinterpret_cast<decltype(real_pthread_cond_clockwait)>(
          ResolveReal("pthread_cond_clockwait", nullptr, false));
  RESOLVE_REAL(pthread_barrier_init);
  RESOLVE_REAL(pthread_barrier_wait);
  RESOLVE_REAL(pthread_barrier_destroy);
  RESOLVE_REAL(pthread_once);
  ResolveOr(&real___cxa_guard_acquire, "__cxa_guard_acquire", OwnGuardAcquire);
  ResolveOr(&real___cxa_guard_release, "__cxa_guard_release", OwnGuardRelease);
  ResolveOr(&real___cxa_guard_abort, "__cxa_guard_abort", OwnGuardAbort);
  RESOLVE_REAL(sem_init);
  RESOLVE_REAL(sem_post);
  RESOLVE_REAL(sem_wait);
  RESOLVE_REAL(sem_trywait);
  RESOLVE_REAL(sem_timedwait);
  RESOLVE_REAL(sem_destroy);
}
} // namespace hrace

// --- Threads ----------------------------------------------------------------

namespace {
struct ThreadStartArgs {
  void *(*routine)(void *);
  void *arg;
  // Null when no thread slot was free: the thread runs unchecked.
  ThreadContext *context;
  // The creator's signal mask, which the new thread gets once the runtime
  // knows it: a signal before that would run the program's handler in a
  // thread the runtime is still setting up.
  sigset_t mask;
};

// A cancelled thread never returns to the trampoline: it ends here, after
// the program's cleanup handlers, and a join orders it like any other.
void FinishCancelledThread(void *p) {
  ThreadState *thr = static_cast<ThreadState *>(p);
  thr->in_rtl++;
  ThreadFinish(thr);
}

void *ThreadStartTrampoline(void *p) {
  ThreadState *thr = cur_thread();
  thr->in_rtl++;
  ThreadStartArgs args = *static_cast<ThreadStartArgs *>(p);
  InternalFree(p);
  if (args.context) {
    ThreadStart(thr, args.context);
    NdrThreadCreated();
  } else
    MarkUntracked(thr);
  LeaveRuntime(thr);
  pthread_sigmask(SIG_SETMASK, &args.mask, nullptr);
  void *result;
  pthread_cleanup_push(FinishCancelledThread, thr);
  result = args.routine(args.arg);
  pthread_cleanup_pop(0);
  thr->in_rtl++;
  ThreadFinish(thr);
  return result;
}

bool CreatesDetached(const pthread_attr_t *attr) {
  int state;
  return attr && !pthread_attr_getdetachstate(attr, &state) &&
         state == PTHREAD_CREATE_DETACHED;
}
} // namespace

INTERCEPTOR_ATTRIBUTE int pthread_create(pthread_t *th,
                                         const pthread_attr_t *attr,
                                         void *(*routine)(void *), void *arg) {
  SCOPED_INTERCEPTOR(pthread_create, th, attr, routine, arg);
  ThreadStartArgs *args =
      static_cast<ThreadStartArgs *>(InternalAlloc(sizeof(ThreadStartArgs)));
  args->routine = routine;
  args->arg = arg;
  args->context = ThreadCreate(thr, caller_pc);
  ThreadContext *tc = args->context;
  // A thread created detached is released when it ends, as one detached
  // later is; before it can end.
  if (tc && CreatesDetached(attr))
    tc->detached = true;
  if (tc)
    NdrThreadCreating();
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &args->mask);
  int res = REAL(pthread_create)(th, attr, ThreadStartTrampoline, args);
  pthread_sigmask(SIG_SETMASK, &args->mask, nullptr);
  if (res)
    InternalFree(args);
  if (!tc)
    return res;
  if (res)
    NdrThreadCreated();
  SpinMutexLock l(ctx->threads.mutex());
  if (res) {
    ctx->threads.Recycle(tc);
  } else {
    // Recorded here too, not only by the child: a join may come before the
    // child has run at all.
    tc->pthread = Addr(reinterpret_cast<void *>(*th));
  }
  return res;
}

// The child must find every runtime lock free and only its own thread
// alive (hrace_fork.cpp).
INTERCEPTOR_ATTRIBUTE pid_t fork(void) {
  SCOPED_INTERCEPTOR(fork);
  ForkBefore(thr);
  pid_t pid = REAL(fork)();
  if (pid == 0)
    ForkChildAfter(thr);
  else
    ForkParentAfter(thr);
  return pid;
}

// The child of vfork shares the parent's memory, runtime included, until it
// execs; a fork is what the runtime can follow.
INTERCEPTOR_ATTRIBUTE pid_t vfork(void) { return fork(); }

static ThreadContext *LiveThread(pthread_t th) {
  SpinMutexLock l(ctx->threads.mutex());
  return ctx->threads.FindByPthread(Addr(reinterpret_cast<void *>(th)));
}

INTERCEPTOR_ATTRIBUTE int pthread_join(pthread_t th, void **ret) {
  SCOPED_INTERCEPTOR(pthread_join, th, ret);
  ThreadContext *tc = LiveThread(th);
  // The joiner leaves the floor of ndr=1 while it waits for a joinable
  // thread (a detached one fails the join at once).
  bool waits = tc && !tc->detached && tc != thr->context;
  if (waits)
    NdrJoinBegin(thr, tc->thread_id);
  int res = CallCancellationPoint(thr, nullptr, 0, REAL(pthread_join), th, ret);
  if (waits)
    NdrJoinEnd(thr);
  if (!res && tc)
    ThreadJoin(thr, tc);
  return res;
}

// The GNU joins that may give up: only a join that happened orders.
INTERCEPTOR_ATTRIBUTE int pthread_tryjoin_np(pthread_t th, void **ret) {
  SCOPED_INTERCEPTOR(pthread_tryjoin_np, th, ret);
  ThreadContext *tc = LiveThread(th);
  int res = REAL(pthread_tryjoin_np)(th, ret);
  if (!res && tc)
    ThreadJoin(thr, tc);
  return res;
}

INTERCEPTOR_ATTRIBUTE int pthread_timedjoin_np(pthread_t th, void **ret,
                                               const struct timespec *t) {
  SCOPED_INTERCEPTOR(pthread_timedjoin_np, th, ret, t);
  ThreadContext *tc = LiveThread(th);
  int res = CallCancellationPoint(thr, nullptr, 0, REAL(pthread_timedjoin_np),
                                  th, ret, t);
  if (!res && tc)
    ThreadJoin(thr, tc);
  return res;
}

namespace {
// A handler registered with __cxa_atexit (atexit, C++ static destructors):
// it runs in whichever thread exits, after everything the registering
// thread did before registering it. Every registration releases into one
// sync object, and every handler acquires it before it runs.
struct ExitHandler {
  void (*fn)(void *);
  void *arg;
};
char exit_handlers_sync;

void RunExitHandler(void *p) {
  ExitHandler h = *static_cast<ExitHandler *>(p);
  ThreadState *thr = cur_thread();
  if (IsInitialized() && thr->context && !thr->in_rtl) {
    ScopedInRuntime in_rtl;
    AcquireAddr(thr, Addr(&exit_handlers_sync));
  }
  InternalFree(p);
  h.fn(h.arg);
}
} // namespace

INTERCEPTOR_ATTRIBUTE int __cxa_atexit(void (*fn)(void *), void *arg,
                                       void *dso) {
  SCOPED_INTERCEPTOR(__cxa_atexit, fn, arg, dso);
  ExitHandler *h = static_cast<ExitHandler *>(InternalAlloc(sizeof(*h)));
  h->fn = fn;
  h->arg = arg;
  ReleaseAddr(thr, Addr(&exit_handlers_sync));
  int res = REAL(__cxa_atexit)(RunExitHandler, h, dso);
  if (res)
    InternalFree(h);
  return res;
}

INTERCEPTOR_ATTRIBUTE int pthread_detach(pthread_t th) {
  SCOPED_INTERCEPTOR(pthread_detach, th);
  ThreadContext *tc = LiveThread(th);
  int res = REAL(pthread_detach)(th);
  if (!res && tc)
    ThreadDetach(thr, tc);
  return res;
}

INTERCEPTOR_ATTRIBUTE void pthread_exit(void *ret) {
  if (!REAL(pthread_exit))
    Initialize();
  ThreadState *thr = cur_thread();
  if (IsInitialized() && !thr->in_rtl && thr->context) {
    thr->in_rtl++;
    ThreadFinish(thr);
  }
  REAL(pthread_exit)(ret);
  __builtin_unreachable();
}

// --- Mutexes, reader-writer locks, spin locks -------------------------------
//
// Every lock call goes through the same few steps, so each interceptor is
// one line: the misuse checks before the call (hrace_misuse.h), the
// lock-order edges before a blocking acquisition, the call, the event, and
// an error the checks did not explain.

namespace {
// An interceptor's own address: what the program's calls and the pass's
// marks (__hrace_result_checked) name it by.
template <typename Fn> uptr FnAddr(Fn *fn) {
  return reinterpret_cast<uptr>(fn);
}

// EOWNERDEAD from a robust mutex still means the caller now owns it.
bool Acquired(int res) { return res == 0 || res == EOWNERDEAD; }

enum class LockCall { kBlocking, kTry, kTimed };

template <typename Fn>
int InterceptLock(ThreadState *thr, uptr pc, const char *name, uptr fn,
                  uptr addr, SyncKind kind, bool write, LockCall how, Fn real) {
  bool checked = ResultChecked(thr, fn);
  // Looked up once for all the steps.
  SyncObject *s = NamedLock(thr, pc, addr);
  if (!s)
    return real();
  bool misuse = CheckLock(thr, pc, s, kind, write, how == LockCall::kTry);
  if (how != LockCall::kTry)
    MutexPreLock(thr, pc, s);
  int res = how == LockCall::kTry ? real() : CallBlocking(thr, real);
  if (Acquired(res))
    MutexLocked(thr, pc, s, write);
  SyncObjectUsed(thr, fn, pc, addr);
  // A trylock that finds the lock taken, a timed lock that times out: the
  // call's normal use.
  int expected = how == LockCall::kTry     ? EBUSY
                 : how == LockCall::kTimed ? ETIMEDOUT
                                           : 0;
  CheckResult(thr, pc, name, res, misuse || checked, expected, EOWNERDEAD);
  return res;
}

template <typename Fn>
int InterceptUnlock(ThreadState *thr, uptr pc, const char *name, uptr fn,
                    uptr addr, SyncKind kind, Fn real) {
  bool checked = ResultChecked(thr, fn);
  SyncObject *s = ctx->syncs.GetOrCreate(addr);
  if (!s)
    return real();
  bool misuse = CheckUnlock(thr, pc, addr, s, kind, UnlockMode::kEither);
  // pthread_rwlock_unlock releases a read or a write hold; the lock's owner
  // says which.
  bool write = true;
  if (kind == SyncKind::kRwLock)
    write = LoadRelaxed(&s->owner) == thr->thread_id + 1;
  SyncObjectUsed(thr, fn, pc, addr);
  MutexUnlocking(thr, s, write);
  int res = real();
  CheckResult(thr, pc, name, res, misuse || checked);
  return res;
}

template <typename Fn>
int InterceptInit(ThreadState *thr, uptr pc, const char *name, uptr fn,
                  uptr addr, SyncKind kind, u32 barrier_count, Fn real) {
  bool checked = ResultChecked(thr, fn);
  bool misuse = CheckInit(thr, pc, addr, kind, barrier_count);
  int res = real();
  if (!res) {
    SyncObjectInit(thr, pc, addr, kind, barrier_count);
    SyncObjectWritten(thr, fn, pc, addr);
  }
  CheckResult(thr, pc, name, res, misuse || checked);
  return res;
}

template <typename Fn>
int InterceptDestroy(ThreadState *thr, uptr pc, const char *name, uptr fn,
                     uptr addr, SyncKind kind, Fn real) {
  bool checked = ResultChecked(thr, fn);
  bool misuse = CheckDestroy(thr, pc, addr, kind);
  int res = real();
  if (!res) {
    SyncObjectWritten(thr, fn, pc, addr);
    MutexDestroyed(thr, addr);
  }
  CheckResult(thr, pc, name, res, misuse || checked);
  return res;
}
} // namespace

#define LOCK_INTERCEPTOR(name, type, kind, write, how)                         \
  INTERCEPTOR_ATTRIBUTE int name(type *l) {                                    \
    SCOPED_INTERCEPTOR(name, l);                                               \
    return InterceptLock(thr, caller_pc, #name, FnAddr(&name), Addr(l),        \
                         SyncKind::kind, write, LockCall::how,                 \
                         [=] { return REAL(name)(l); });                       \
  }
#define TIMED_LOCK_INTERCEPTOR(name, type, kind, write)                        \
  INTERCEPTOR_ATTRIBUTE int name(type *l, const struct timespec *t) {          \
    SCOPED_INTERCEPTOR(name, l, t);                                            \
    return InterceptLock(thr, caller_pc, #name, FnAddr(&name), Addr(l),        \
                         SyncKind::kind, write, LockCall::kTimed,              \
                         [=] { return REAL(name)(l, t); });                    \
  }
#define UNLOCK_INTERCEPTOR(name, type, kind)                                   \
  INTERCEPTOR_ATTRIBUTE int name(type *l) {                                    \
    SCOPED_INTERCEPTOR(name, l);                                               \
    return InterceptUnlock(thr, caller_pc, #name, FnAddr(&name), Addr(l),      \
                           SyncKind::kind, [=] { return REAL(name)(l); });     \
  }
#define INIT_INTERCEPTOR(name, type, attr_type, kind)                          \
  INTERCEPTOR_ATTRIBUTE int name(type *l, attr_type a) {                       \
    SCOPED_INTERCEPTOR(name, l, a);                                            \
    return InterceptInit(thr, caller_pc, #name, FnAddr(&name), Addr(l),        \
                         SyncKind::kind, 0, [=] { return REAL(name)(l, a); }); \
  }
#define DESTROY_INTERCEPTOR(name, type, kind)                                  \
  INTERCEPTOR_ATTRIBUTE int name(type *l) {                                    \
    SCOPED_INTERCEPTOR(name, l);                                               \
    return InterceptDestroy(thr, caller_pc, #name, FnAddr(&name), Addr(l),     \
                            SyncKind::kind, [=] { return REAL(name)(l); });    \
  }

INIT_INTERCEPTOR(pthread_mutex_init, pthread_mutex_t,
                 const pthread_mutexattr_t *, kMutex)
DESTROY_INTERCEPTOR(pthread_mutex_destroy, pthread_mutex_t, kMutex)
LOCK_INTERCEPTOR(pthread_mutex_lock, pthread_mutex_t, kMutex, true, kBlocking)
LOCK_INTERCEPTOR(pthread_mutex_trylock, pthread_mutex_t, kMutex, true, kTry)
TIMED_LOCK_INTERCEPTOR(pthread_mutex_timedlock, pthread_mutex_t, kMutex, true)
UNLOCK_INTERCEPTOR(pthread_mutex_unlock, pthread_mutex_t, kMutex)

INIT_INTERCEPTOR(pthread_rwlock_init, pthread_rwlock_t,
                 const pthread_rwlockattr_t *, kRwLock)
DESTROY_INTERCEPTOR(pthread_rwlock_destroy, pthread_rwlock_t, kRwLock)
LOCK_INTERCEPTOR(pthread_rwlock_rdlock, pthread_rwlock_t, kRwLock, false,
                 kBlocking)
LOCK_INTERCEPTOR(pthread_rwlock_tryrdlock, pthread_rwlock_t, kRwLock, false,
                 kTry)
TIMED_LOCK_INTERCEPTOR(pthread_rwlock_timedrdlock, pthread_rwlock_t, kRwLock,
                       false)
LOCK_INTERCEPTOR(pthread_rwlock_wrlock, pthread_rwlock_t, kRwLock, true,
                 kBlocking)
LOCK_INTERCEPTOR(pthread_rwlock_trywrlock, pthread_rwlock_t, kRwLock, true,
                 kTry)
TIMED_LOCK_INTERCEPTOR(pthread_rwlock_timedwrlock, pthread_rwlock_t, kRwLock,
                       true)
UNLOCK_INTERCEPTOR(pthread_rwlock_unlock, pthread_rwlock_t, kRwLock)

INIT_INTERCEPTOR(pthread_spin_init, pthread_spinlock_t, int, kSpinLock)
DESTROY_INTERCEPTOR(pthread_spin_destroy, pthread_spinlock_t, kSpinLock)
LOCK_INTERCEPTOR(pthread_spin_lock, pthread_spinlock_t, kSpinLock, true,
                 kBlocking)
LOCK_INTERCEPTOR(pthread_spin_trylock, pthread_spinlock_t, kSpinLock, true,
                 kTry)
UNLOCK_INTERCEPTOR(pthread_spin_unlock, pthread_spinlock_t, kSpinLock)

// --- Condition variables ----------------------------------------------------

INIT_INTERCEPTOR(pthread_cond_init, pthread_cond_t, const pthread_condattr_t *,
                 kCond)
DESTROY_INTERCEPTOR(pthread_cond_destroy, pthread_cond_t, kCond)

INTERCEPTOR_ATTRIBUTE int pthread_cond_signal(pthread_cond_t *c) {
  SCOPED_INTERCEPTOR(pthread_cond_signal, c);
  SyncObjectUsed(thr, FnAddr(&pthread_cond_signal), caller_pc, Addr(c));
  CondSignalled(thr, Addr(c), /*broadcast=*/false);
  ReleaseAddr(thr, Addr(c));
  return REAL(pthread_cond_signal)(c);
}

INTERCEPTOR_ATTRIBUTE int pthread_cond_broadcast(pthread_cond_t *c) {
  SCOPED_INTERCEPTOR(pthread_cond_broadcast, c);
  SyncObjectUsed(thr, FnAddr(&pthread_cond_broadcast), caller_pc, Addr(c));
  CondSignalled(thr, Addr(c), /*broadcast=*/true);
  ReleaseAddr(thr, Addr(c));
  return REAL(pthread_cond_broadcast)(c);
}

namespace {
// What a cancelled wait must undo: glibc took the mutex again before the
// program's cleanup handlers run, and they run holding it; the thread no
// longer waits on the condition variable.
struct CondWaitCall {
  uptr cond;
  uptr mutex;
  uptr pc;
};

void WaitCancelled(ThreadState *thr, uptr arg) {
  const CondWaitCall *call = reinterpret_cast<const CondWaitCall *>(arg);
  MutexLocked(thr, call->pc, call->mutex, true);
  CondWaitEnd(thr, call->cond);
}

// A wait releases the mutex, sleeps, and re-acquires it (a new lock region,
// which can block behind the locks the thread still holds); returning from
// a wait that was signalled orders the waiter after the signaller
// (hrace_write_read.h says which one).
template <typename Fn>
int InterceptCondWait(ThreadState *thr, uptr pc, const char *name, uptr fn,
                      uptr cond, uptr mutex, int expected, Fn real) {
  bool checked = ResultChecked(thr, fn);
  bool misuse = CondWaitBegin(thr, pc, cond, mutex);
  // Both objects are used on the way in; the return uses nothing a signaller
  // that destroys the condition variable at once could race with.
  SyncObjectUsed(thr, fn, pc, cond);
  SyncObjectUsed(thr, fn, pc, mutex);
  MutexUnlocking(thr, mutex, true, /*for_wait=*/true);
  CondWaitCall call{cond, mutex, pc};
  int res = CallCancellationPoint(thr, WaitCancelled,
                                  reinterpret_cast<uptr>(&call), real);
  MutexPreLock(thr, pc, mutex);
  MutexLocked(thr, pc, mutex, true);
  CondWaitEnd(thr, cond);
  WaitReturned(thr, cond, res == 0);
  CheckResult(thr, pc, name, res, misuse || checked, expected);
  return res;
}
} // namespace

INTERCEPTOR_ATTRIBUTE int pthread_cond_wait(pthread_cond_t *c,
                                            pthread_mutex_t *m) {
  SCOPED_INTERCEPTOR(pthread_cond_wait, c, m);
  return InterceptCondWait(thr, caller_pc, "pthread_cond_wait",
                           FnAddr(&pthread_cond_wait), Addr(c), Addr(m), 0,
                           [=] { return REAL(pthread_cond_wait)(c, m); });
}

INTERCEPTOR_ATTRIBUTE int pthread_cond_timedwait(pthread_cond_t *c,
                                                 pthread_mutex_t *m,
                                                 const struct timespec *t) {
  SCOPED_INTERCEPTOR(pthread_cond_timedwait, c, m, t);
  return InterceptCondWait(
      thr, caller_pc, "pthread_cond_timedwait", FnAddr(&pthread_cond_timedwait),
      Addr(c), Addr(m), ETIMEDOUT,
      [=] { return REAL(pthread_cond_timedwait)(c, m, t); });
}

INTERCEPTOR_ATTRIBUTE int pthread_cond_clockwait(pthread_cond_t *c,
                                                 pthread_mutex_t *m,
                                                 clockid_t clock,
                                                 const struct timespec *t) {
  SCOPED_INTERCEPTOR(pthread_cond_clockwait, c, m, clock, t);
  return InterceptCondWait(
      thr, caller_pc, "pthread_cond_clockwait", FnAddr(&pthread_cond_clockwait),
      Addr(c), Addr(m), ETIMEDOUT,
      [=] { return REAL(pthread_cond_clockwait)(c, m, clock, t); });
}

// --- Barriers, once, semaphores ---------------------------------------------

INTERCEPTOR_ATTRIBUTE int pthread_barrier_init(pthread_barrier_t *b,
                                               const pthread_barrierattr_t *a,
                                               unsigned count) {
  SCOPED_INTERCEPTOR(pthread_barrier_init, b, a, count);
  return InterceptInit(thr, caller_pc, "pthread_barrier_init",
                       FnAddr(&pthread_barrier_init), Addr(b),
                       SyncKind::kBarrier, count,
                       [=] { return REAL(pthread_barrier_init)(b, a, count); });
}

INTERCEPTOR_ATTRIBUTE int pthread_barrier_wait(pthread_barrier_t *b) {
  SCOPED_INTERCEPTOR(pthread_barrier_wait, b);
  bool checked = ResultChecked(thr, FnAddr(&pthread_barrier_wait));
  bool misuse = CheckBarrierWait(thr, caller_pc, Addr(b));
  SyncObjectUsed(thr, FnAddr(&pthread_barrier_wait), caller_pc, Addr(b));
  // Everyone's arrival at this round is published before anyone leaves it.
  u32 round = BarrierArrive(thr, Addr(b));
  int res = CallBlocking(thr, REAL(pthread_barrier_wait), b);
  BarrierLeave(thr, Addr(b), round);
  CheckResult(thr, caller_pc, "pthread_barrier_wait", res, misuse || checked,
              PTHREAD_BARRIER_SERIAL_THREAD);
  return res;
}

DESTROY_INTERCEPTOR(pthread_barrier_destroy, pthread_barrier_t, kBarrier)

namespace {
// pthread_once takes no argument for its routine: the routine to run and its
// control word travel in TLS, saved and restored around nested onces.
__thread void (*once_routine)(void);
__thread pthread_once_t *once_control;

void OnceTrampoline() {
  void (*routine)(void) = once_routine;
  pthread_once_t *control = once_control;
  ThreadState *thr = cur_thread();
  // The routine is the program's code, not a call blocked in pthread_once.
  u32 in_blocking_call = thr->in_blocking_call;
  thr->in_blocking_call = 0;
  LeaveRuntime(thr);
  routine();
  thr->in_blocking_call = in_blocking_call;
  thr->in_rtl++;
  // Whoever returns from pthread_once later is ordered after the routine.
  ReleaseAddr(thr, Addr(control));
}
} // namespace

INTERCEPTOR_ATTRIBUTE int pthread_once(pthread_once_t *control,
                                       void (*routine)(void)) {
  SCOPED_INTERCEPTOR(pthread_once, control, routine);
  void (*saved_routine)(void) = once_routine;
  pthread_once_t *saved_control = once_control;
  once_routine = routine;
  once_control = control;
  int res = CallBlocking(thr, REAL(pthread_once), control, OnceTrampoline);
  once_routine = saved_routine;
  once_control = saved_control;
  AcquireAddr(thr, Addr(control));
  return res;
}

// A function-local static: the thread that gets 1 from the acquire runs the
// initialiser and releases; every later user is ordered after that release,
// whether it waited in the acquire (which then returns 0) or found the guard
// set in the inline check the compiler emits before the call (an acquiring
// atomic load of the guard's first byte, which the pass instruments). An
// abort (the initialiser threw) released nothing and orders nothing.

INTERCEPTOR_ATTRIBUTE int __cxa_guard_acquire(u64 *g) {
  SCOPED_INTERCEPTOR(__cxa_guard_acquire, g);
  int res = CallBlocking(thr, REAL(__cxa_guard_acquire), g);
  if (!res)
    AtomicAcquireAddr(thr, Addr(g));
  return res;
}

INTERCEPTOR_ATTRIBUTE void __cxa_guard_release(u64 *g) {
  SCOPED_INTERCEPTOR(__cxa_guard_release, g);
  // The release store of the guard byte, which the inline check reads.
  AtomicReleaseAddr(thr, Addr(g));
  REAL(__cxa_guard_release)(g);
}

INTERCEPTOR_ATTRIBUTE void __cxa_guard_abort(u64 *g) {
  SCOPED_INTERCEPTOR(__cxa_guard_abort, g);
  REAL(__cxa_guard_abort)(g);
}

// --- Semaphores: -1 and errno instead of an error code --------------------

namespace {
int ErrorOf(int res) { return res ? errno : 0; }

template <typename Fn>
int InterceptSemWait(ThreadState *thr, uptr pc, const char *name, uptr fn,
                     sem_t *s, bool blocks, int expected, Fn real) {
  bool checked = ResultChecked(thr, fn);
  SyncObjectUsed(thr, fn, pc, Addr(s));
  SemWaitBegin(thr, Addr(s));
  int res =
      blocks ? CallCancellationPoint(thr, SemWaitEnd, Addr(s), real) : real();
  int error = ErrorOf(res);
  SemWaitEnd(thr, Addr(s));
  if (!res)
    AcquireAddr(thr, Addr(s));
  // A signal interrupts a wait: the program's loop waits again.
  CheckResult(thr, pc, name, error, checked, expected, EINTR);
  errno = error;
  return res;
}
} // namespace

INTERCEPTOR_ATTRIBUTE int sem_init(sem_t *s, int pshared, unsigned value) {
  SCOPED_INTERCEPTOR(sem_init, s, pshared, value);
  bool checked = ResultChecked(thr, FnAddr(&sem_init));
  int res = REAL(sem_init)(s, pshared, value);
  int error = ErrorOf(res);
  if (!res) {
    SyncObjectInit(thr, caller_pc, Addr(s), SyncKind::kSemaphore);
    SyncObjectWritten(thr, FnAddr(&sem_init), caller_pc, Addr(s));
  }
  CheckResult(thr, caller_pc, "sem_init", error, checked);
  errno = error;
  return res;
}

INTERCEPTOR_ATTRIBUTE int sem_post(sem_t *s) {
  SCOPED_INTERCEPTOR(sem_post, s);
  bool checked = ResultChecked(thr, FnAddr(&sem_post));
  SyncObjectUsed(thr, FnAddr(&sem_post), caller_pc, Addr(s));
  ReleaseAddr(thr, Addr(s));
  int res = REAL(sem_post)(s);
  int error = ErrorOf(res);
  CheckResult(thr, caller_pc, "sem_post", error, checked);
  errno = error;
  return res;
}

INTERCEPTOR_ATTRIBUTE int sem_wait(sem_t *s) {
  SCOPED_INTERCEPTOR(sem_wait, s);
  return InterceptSemWait(thr, caller_pc, "sem_wait", FnAddr(&sem_wait), s,
                          true, 0, [=] { return REAL(sem_wait)(s); });
}

INTERCEPTOR_ATTRIBUTE int sem_trywait(sem_t *s) {
  SCOPED_INTERCEPTOR(sem_trywait, s);
  return InterceptSemWait(thr, caller_pc, "sem_trywait", FnAddr(&sem_trywait),
                          s, false, EAGAIN,
                          [=] { return REAL(sem_trywait)(s); });
}

INTERCEPTOR_ATTRIBUTE int sem_timedwait(sem_t *s, const struct timespec *t) {
  SCOPED_INTERCEPTOR(sem_timedwait, s, t);
  return InterceptSemWait(thr, caller_pc, "sem_timedwait",
                          FnAddr(&sem_timedwait), s, true, ETIMEDOUT,
                          [=] { return REAL(sem_timedwait)(s, t); });
}

INTERCEPTOR_ATTRIBUTE int sem_destroy(sem_t *s) {
  SCOPED_INTERCEPTOR(sem_destroy, s);
  bool checked = ResultChecked(thr, FnAddr(&sem_destroy));
  bool misuse = CheckDestroy(thr, caller_pc, Addr(s), SyncKind::kSemaphore);
  int res = REAL(sem_destroy)(s);
  int error = ErrorOf(res);
  if (!res) {
    SyncObjectWritten(thr, FnAddr(&sem_destroy), caller_pc, Addr(s));
    MutexDestroyed(thr, Addr(s));
  }
  CheckResult(thr, caller_pc, "sem_destroy", error, misuse || checked);
  errno = error;
  return res;
}
