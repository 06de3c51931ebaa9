//===-- hrace_atomic.cpp - Atomic operations ------------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pass replaces each atomic load, store, read-modify-write and
// compare-exchange of 1, 2, 4 or 8 bytes with a call here, and the runtime
// performs the operation itself: only then is the value an acquire reads
// consistent with the clock it acquires. An atomic variable that took part
// in a release has a sync object; its atomic clock is what an acquire of the
// current value must learn (C++20 [intro.races]):
//   - a release store replaces the clock with the thread's (the release
//     sequences it ends are gone),
//   - a release read-modify-write joins the thread's clock into it (a
//     read-modify-write continues every release sequence),
//   - a relaxed store empties it, or replaces it with the thread's clock at
//     its last release fence (fence-to-atomic synchronisation),
//   - a relaxed read-modify-write leaves it, or joins the fence's clock.
// Every change to the clock and the operation happen under the object's
// lock; an acquire load re-reads the value under it. A relaxed load of a
// variable with a clock adds the clock to what the thread's next acquire
// fence acquires.
//
// The operation is also an atomic access of its bytes (hrace_msm_atomic.h):
// atomic against plain accesses race, atomics among themselves never do.
// The access is checked after the operation's acquire (what it learned
// orders the access) and before its release is visible (a thread that
// acquires it must find the access in the shadow).
//
// Atomics of other sizes (16 bytes) or operations the runtime does not
// perform stay in the program, bracketed by __hrace_atomic_load/store/
// rmw_begin/rmw_end: their release joins the clock, a relaxed store does not
// empty it (docs/design.md), and fences apply as to the others.
//
//===----------------------------------------------------------------------===//
#include "hrace_access.h"
#include "hrace_interface.h"
#include "hrace_rtl.h"
#include "hrace_sync.h"

#include <string.h>

using namespace hrace;

namespace {

enum MemoryOrder {
  kRelaxed = 0,
  kConsume = 1,
  kAcquire = 2,
  kRelease = 3,
  kAcqRel = 4,
  kSeqCst = 5
};

bool HasAcquire(int order) {
  return order == kConsume || order == kAcquire || order == kAcqRel ||
         order == kSeqCst;
}

bool HasRelease(int order) {
  return order == kRelease || order == kAcqRel || order == kSeqCst;
}

// The thread if the operation takes part in detection: one the runtime
// knows (adopted here if it was not created by pthread_create), outside the
// runtime. Ignoring reads or writes (annotations) stops checking, not
// synchronisation.
ThreadState *AtomicThread() {
  ThreadState *thr = cur_thread();
  if (UNLIKELY(thr->in_rtl))
    return nullptr;
  if (UNLIKELY(thr->segment == 0)) {
    AdoptCurrentThread(thr);
    if (!thr->segment)
      return nullptr;
  }
  return thr;
}

// Called under s->mu before the operation whose value goes with the new
// clock: a relaxed reader that sees the value then sees the new version
// too, misses its memo and waits on the lock until the clock is complete.
void NoteClockChanged(SyncObject *s) {
  StoreRelease(&s->atomic_clock_version, s->atomic_clock_version + 1);
}

// Publishes `clock` into s's atomic clock for an operation on addr, under
// s->mu: replacing it (a store's own release) or joining it. An object of
// the same 8-byte granule that another address has used (two small atomics
// side by side) only ever joins, so neither erases what the other
// published: over-synchronising can hide a race, never report a false one.
void PublishAtomicClock(SyncObject *s, uptr addr, const VectorClock &clock,
                        bool replace) {
  SyncExtras &x = s->Extras();
  if (s->addr != addr)
    x.atomic_clock_shared = true;
  if (replace && !x.atomic_clock_shared)
    x.atomic_clock.CopyFrom(clock);
  else
    x.atomic_clock.Join(clock);
}

// Whether the thread's fence clock already holds version `version` of s's
// clock: a small memo by object, so that a spinning relaxed reader takes no
// lock until a writer changes the clock.
ThreadState::FenceMemoEntry &FenceMemoOf(ThreadState *thr, SyncObject *s) {
  u32 slot = static_cast<u32>(reinterpret_cast<uptr>(s) >> 6) %
             ThreadState::kFenceMemoSize;
  return thr->fence_memo[slot];
}

// What a relaxed write publishes: the thread's clock at its last release
// fence, if it has had one.
bool HasFenceRelease(ThreadState *thr) { return thr->fence_release.size(); }

template <typename T> T LoadValue(const volatile T *a, int order) {
  return order == kRelaxed ? __atomic_load_n(a, __ATOMIC_RELAXED)
                           : __atomic_load_n(a, __ATOMIC_SEQ_CST);
}

template <typename T> void StoreValue(volatile T *a, T v, int order) {
  if (order == kRelaxed)
    __atomic_store_n(a, v, __ATOMIC_RELAXED);
  else
    __atomic_store_n(a, v, __ATOMIC_SEQ_CST);
}

template <typename T> struct SignedOf;
template <> struct SignedOf<u8> { typedef s8 type; };
template <> struct SignedOf<u16> { typedef s16 type; };
template <> struct SignedOf<u32> { typedef s32 type; };
template <> struct SignedOf<u64> { typedef s64 type; };

// fadd and fsub of a float (4 bytes) or a double (8 bytes), in its bits.
template <typename F, typename T> T FloatOp(T old, T v, int op) {
  F x, y;
  memcpy(&x, &old, sizeof(F));
  memcpy(&y, &v, sizeof(F));
  x = op == HRACE_ATOMIC_FADD ? x + y : x - y;
  memcpy(&old, &x, sizeof(F));
  return old;
}

// The new value of a read-modify-write the hardware has no instruction for
// (PerformRmw does the others itself).
template <typename T> T Apply(T old, T v, int op) {
  typedef typename SignedOf<T>::type S;
  switch (op) {
  case HRACE_ATOMIC_NAND:
    return ~(old & v);
  case HRACE_ATOMIC_MAX:
    return static_cast<S>(old) > static_cast<S>(v) ? old : v;
  case HRACE_ATOMIC_MIN:
    return static_cast<S>(old) < static_cast<S>(v) ? old : v;
  case HRACE_ATOMIC_UMAX:
    return old > v ? old : v;
  case HRACE_ATOMIC_UMIN:
    return old < v ? old : v;
  default:
    // fadd and fsub: the pass sends them for floats and doubles only.
    if constexpr (sizeof(T) == sizeof(float))
      return FloatOp<float>(old, v, op);
    else if constexpr (sizeof(T) == sizeof(double))
      return FloatOp<double>(old, v, op);
    return v;
  }
}

// The hardware's own instruction for the common operations; a
// compare-exchange loop for the rest.
template <typename T> T PerformRmw(volatile T *a, T v, int op) {
  switch (op) {
  case HRACE_ATOMIC_XCHG:
    return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);
  case HRACE_ATOMIC_ADD:
    return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);
  case HRACE_ATOMIC_SUB:
    return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST);
  case HRACE_ATOMIC_AND:
    return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST);
  case HRACE_ATOMIC_OR:
    return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST);
  case HRACE_ATOMIC_XOR:
    return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST);
  }
  T old = __atomic_load_n(a, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(a, &old, Apply(old, v, op),
                                      /*weak=*/true, __ATOMIC_SEQ_CST,
                                      __ATOMIC_RELAXED)) {
  }
  return old;
}

template <typename T> T AtomicLoad(const volatile T *a, int order, uptr pc) {
  ThreadState *thr = AtomicThread();
  if (!thr)
    return LoadValue(a, order);
  ScopedInRuntime in_rtl;
  uptr addr = reinterpret_cast<uptr>(a);
  // At least acquire, so that the object and its version, set before the
  // value was stored, are seen below.
  T v = __atomic_load_n(a, __ATOMIC_SEQ_CST);
  // No object: no release has stored a value yet (a release creates the
  // object before it stores), so v needs no clock.
  if (SyncObject *s = ctx->syncs.Get(addr)) {
    ThreadState::FenceMemoEntry &memo = FenceMemoOf(thr, s);
    bool acquire = HasAcquire(order);
    if (acquire || memo.sync != s ||
        memo.version != LoadAcquire(&s->atomic_clock_version)) {
      // Reread under the lock: the value and the clock must match.
      SpinMutexLock l(&s->mu);
      v = __atomic_load_n(a, __ATOMIC_SEQ_CST);
      if (acquire) {
        AcquireClock(thr, s->atomic_clock());
      } else {
        thr->fence_acquire.Join(s->atomic_clock());
        memo.sync = s;
        memo.version = s->atomic_clock_version;
      }
    }
  }
  // After the acquire: what it learned orders this access too.
  AtomicMemoryAccess(thr, pc, addr, sizeof(T), false);
  return v;
}

template <typename T> void AtomicStore(volatile T *a, T v, int order, uptr pc) {
  ThreadState *thr = AtomicThread();
  if (!thr)
    return StoreValue(a, v, order);
  ScopedInRuntime in_rtl;
  uptr addr = reinterpret_cast<uptr>(a);
  // Before the release publishes this segment: a thread that acquires it
  // must find this access in the shadow.
  AtomicMemoryAccess(thr, pc, addr, sizeof(T), true);
  bool release = HasRelease(order);
  SyncObject *s = release || HasFenceRelease(thr) ? ctx->syncs.GetOrCreate(addr)
                                                  : ctx->syncs.Get(addr);
  if (!s)
    return StoreValue(a, v, order);
  {
    SpinMutexLock l(&s->mu);
    NoteClockChanged(s);
    // A store ends every release sequence: only its own release (or its
    // thread's last release fence) is left to acquire.
    PublishAtomicClock(s, addr, release ? thr->vc : thr->fence_release,
                       /*replace=*/true);
    // Sequentially consistent even when relaxed: the value must not become
    // visible before the version (a release store orders only what comes
    // before it).
    StoreValue(a, v, kSeqCst);
  }
  if (release)
    NewSegment(thr);
}

// A read-modify-write or a compare-exchange: `op` the operation, or -1 for a
// compare-exchange of `cmp`, which exchanged if and only if the old value
// returned equals cmp.
template <typename T>
T AtomicRmw(volatile T *a, T v, T cmp, int op, int success_order,
            int failure_order, uptr pc) {
  auto perform = [&]() -> T {
    if (op >= 0)
      return PerformRmw(a, v, op);
    T old = cmp;
    __atomic_compare_exchange_n(a, &old, v, /*weak=*/false, __ATOMIC_SEQ_CST,
                                __ATOMIC_SEQ_CST);
    return old;
  };
  ThreadState *thr = AtomicThread();
  if (!thr)
    return perform();
  ScopedInRuntime in_rtl;
  uptr addr = reinterpret_cast<uptr>(a);
  bool may_release = HasRelease(success_order) || HasFenceRelease(thr);
  bool may_acquire = HasAcquire(success_order) || HasAcquire(failure_order);
  SyncObject *s = may_release || may_acquire ? ctx->syncs.GetOrCreate(addr)
                                             : ctx->syncs.Get(addr);
  if (!s) {
    T old = perform();
    // A release may have created the object and stored the value just
    // read since the lookup: what the next acquire fence acquires includes
    // its clock (at worst more than it should).
    if (SyncObject *late = ctx->syncs.Get(addr)) {
      SpinMutexLock l(&late->mu);
      thr->fence_acquire.Join(late->atomic_clock());
    }
    AtomicMemoryAccess(thr, pc, addr, sizeof(T), op >= 0 || old == cmp);
    return old;
  }
  T old;
  bool released = false;
  {
    SpinMutexLock l(&s->mu);
    if (may_release)
      NoteClockChanged(s);
    old = perform();
    bool exchanged = op >= 0 || old == cmp;
    int order = exchanged ? success_order : failure_order;
    if (HasAcquire(order))
      AcquireClock(thr, s->atomic_clock());
    else
      thr->fence_acquire.Join(s->atomic_clock());
    // After the acquire, before the release: a failed exchange only read.
    // (The access may start a segment of a new generation, which the
    // release must include. A race found here is reported with s->mu held;
    // reports take no sync object's lock.)
    AtomicMemoryAccess(thr, pc, addr, sizeof(T), exchanged);
    if (exchanged && (HasRelease(order) || HasFenceRelease(thr))) {
      // A read-modify-write continues the release sequences before it.
      PublishAtomicClock(s, addr,
                         HasRelease(order) ? thr->vc : thr->fence_release,
                         /*replace=*/false);
      released = HasRelease(order);
    }
  }
  if (released)
    NewSegment(thr);
  return old;
}

// --- Operations left in the program ---------------------------------------

// Joins clock into the atomic clock of the variable at addr.
void JoinIntoAtomicClock(uptr addr, const VectorClock &clock) {
  if (SyncObject *s = ctx->syncs.GetOrCreate(addr)) {
    SpinMutexLock l(&s->mu);
    NoteClockChanged(s);
    PublishAtomicClock(s, addr, clock, /*replace=*/false);
  }
}

// The access of an atomic left in the program, before its release or after
// its acquire.
void HookAccess(void *addr, uptr size, int order, bool write, bool before,
                uptr pc) {
  ThreadState *thr = AtomicThread();
  if (!thr)
    return;
  ScopedInRuntime in_rtl;
  uptr a = reinterpret_cast<uptr>(addr);
  if (before) {
    AtomicMemoryAccess(thr, pc, a, size, write);
    if (HasRelease(order))
      AtomicReleaseAddr(thr, a);
    else if (HasFenceRelease(thr))
      // A relaxed write publishes the thread's last release fence.
      JoinIntoAtomicClock(a, thr->fence_release);
  } else {
    if (HasAcquire(order)) {
      AtomicAcquireAddr(thr, a);
    } else if (SyncObject *s = ctx->syncs.Get(a)) {
      // A relaxed read: for the thread's next acquire fence.
      SpinMutexLock l(&s->mu);
      thr->fence_acquire.Join(s->atomic_clock());
    }
    if (size)
      AtomicMemoryAccess(thr, pc, a, size, write);
  }
}

} // namespace

namespace hrace {

void AtomicAcquireAddr(ThreadState *thr, uptr addr) {
  if (SyncObject *s = ctx->syncs.Get(addr)) {
    SpinMutexLock l(&s->mu);
    AcquireClock(thr, s->atomic_clock());
  }
}

void AtomicReleaseAddr(ThreadState *thr, uptr addr) {
  JoinIntoAtomicClock(addr, thr->vc);
  NewSegment(thr);
}

} // namespace hrace

#define HRACE_ATOMIC_ENTRIES(bytes, type)                                      \
  extern "C" uint64_t __hrace_atomic_load##bytes(const void *a, int order) {   \
    return AtomicLoad(static_cast<const volatile type *>(a), order,            \
                      CALLER_PC());                                            \
  }                                                                            \
  extern "C" void __hrace_atomic_store##bytes(void *a, uint64_t v,             \
                                              int order) {                     \
    AtomicStore(static_cast<volatile type *>(a), static_cast<type>(v), order,  \
                CALLER_PC());                                                  \
  }                                                                            \
  extern "C" uint64_t __hrace_atomic_rmw##bytes(void *a, uint64_t v, int op,   \
                                                int order) {                   \
    return AtomicRmw(static_cast<volatile type *>(a), static_cast<type>(v),    \
                     type(0), op, order, order, CALLER_PC());                  \
  }                                                                            \
  extern "C" uint64_t __hrace_atomic_cas##bytes(void *a, uint64_t cmp,         \
                                                uint64_t v, int success_order, \
                                                int failure_order) {           \
    return AtomicRmw(static_cast<volatile type *>(a), static_cast<type>(v),    \
                     static_cast<type>(cmp), -1, success_order, failure_order, \
                     CALLER_PC());                                             \
  }

HRACE_ATOMIC_ENTRIES(1, u8)
HRACE_ATOMIC_ENTRIES(2, u16)
HRACE_ATOMIC_ENTRIES(4, u32)
HRACE_ATOMIC_ENTRIES(8, u64)

extern "C" void __hrace_atomic_load(void *addr, uintptr_t size, int order) {
  HookAccess(addr, size, order, false, /*before=*/false, CALLER_PC());
}

extern "C" void __hrace_atomic_store(void *addr, uintptr_t size, int order) {
  HookAccess(addr, size, order, true, /*before=*/true, CALLER_PC());
}

extern "C" void __hrace_atomic_rmw_begin(void *addr, uintptr_t size,
                                         int order) {
  HookAccess(addr, size, order, true, /*before=*/true, CALLER_PC());
}

extern "C" void __hrace_atomic_rmw_end(void *addr, uintptr_t, int order) {
  HookAccess(addr, 0, order, true, /*before=*/false, CALLER_PC());
}

// An acquire fence acquires what the thread's relaxed reads read; a release
// fence keeps the thread's clock for its later relaxed writes, and starts a
// segment as any release does.
extern "C" void __hrace_atomic_fence(int order) {
  ThreadState *thr = AtomicThread();
  if (!thr)
    return;
  ScopedInRuntime in_rtl;
  if (HasAcquire(order) && thr->fence_acquire.size())
    AcquireClock(thr, thr->fence_acquire);
  if (HasRelease(order)) {
    thr->fence_release.CopyFrom(thr->vc);
    NewSegment(thr);
  }
}
