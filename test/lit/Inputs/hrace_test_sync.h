//===-- hrace_test_sync.h - Synchronisation the detector cannot see -------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Racy tests use these to force one interleaving (so a report always says
// the same thing) without creating any happens-before edge: the functions
// are not instrumented (disable_sanitizer_instrumentation), their atomics
// never reach the runtime, and sched_yield/nanosleep are not intercepted.
//
// Never use them in a race-free test: the ordering they create is invisible
// to the detector, so it would report the very race they prevent.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_TEST_SYNC_H
#define HRACE_TEST_SYNC_H

#include <sched.h>
#include <time.h>

#define HRACE_INVISIBLE                                                        \
  __attribute__((disable_sanitizer_instrumentation, noinline, unused))

// Lets the other thread run; nanosleep once in a while so that a waiter on a
// busy 2-core machine does not starve the thread it waits for.
static HRACE_INVISIBLE void invisible_pause(unsigned Spins) {
  if (Spins % 64 == 63) {
    struct timespec Ts = {0, 100000};
    nanosleep(&Ts, 0);
  } else {
    sched_yield();
  }
}

// A one-shot event: invisible_signal(&F) lets invisible_wait(&F) return.
// The flag must not be touched in any other way.
static HRACE_INVISIBLE void invisible_signal(int *Flag) {
  __atomic_store_n(Flag, 1, __ATOMIC_RELEASE);
}

// The current value of a flag or counter kept with invisible_signal or by
// hand: a stop request polled in a loop, a count of events.
static HRACE_INVISIBLE int invisible_load(int *Flag) {
  return __atomic_load_n(Flag, __ATOMIC_ACQUIRE);
}

static HRACE_INVISIBLE void invisible_wait(int *Flag) {
  for (unsigned Spins = 0; !__atomic_load_n(Flag, __ATOMIC_ACQUIRE); ++Spins)
    invisible_pause(Spins);
}

// A pointer passed between threads where the detector cannot see it: what
// it points to reaches the other thread with no order the detector knows.
static HRACE_INVISIBLE void invisible_put(void **Slot, void *P) {
  __atomic_store_n(Slot, P, __ATOMIC_RELAXED);
}
static HRACE_INVISIBLE void *invisible_get(void **Slot) {
  return __atomic_load_n(Slot, __ATOMIC_RELAXED);
}

// A reusable barrier for a fixed number of threads (one per test program).
static int InvisibleBarrierCount;
static int InvisibleBarrierArrived;
static int InvisibleBarrierPhase;

static HRACE_INVISIBLE void invisible_barrier_init(int Count) {
  __atomic_store_n(&InvisibleBarrierCount, Count, __ATOMIC_RELAXED);
  __atomic_store_n(&InvisibleBarrierArrived, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&InvisibleBarrierPhase, 0, __ATOMIC_RELEASE);
}

static HRACE_INVISIBLE void invisible_barrier_wait(void) {
  int Phase = __atomic_load_n(&InvisibleBarrierPhase, __ATOMIC_ACQUIRE);
  int Count = __atomic_load_n(&InvisibleBarrierCount, __ATOMIC_RELAXED);
  if (__atomic_add_fetch(&InvisibleBarrierArrived, 1, __ATOMIC_ACQ_REL) ==
      Count) {
    __atomic_store_n(&InvisibleBarrierArrived, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&InvisibleBarrierPhase, Phase + 1, __ATOMIC_RELEASE);
    return;
  }
  for (unsigned Spins = 0;
       __atomic_load_n(&InvisibleBarrierPhase, __ATOMIC_ACQUIRE) == Phase;
       ++Spins)
    invisible_pause(Spins);
}

#endif // HRACE_TEST_SYNC_H
