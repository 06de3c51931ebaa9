// C11 atomics that synchronise: data published with a release store and
// read after an acquire load that saw it; a spin lock made of an acquire
// compare-exchange and a release store; an arrival counter bumped with
// seq_cst fetch_add by both threads and polled by main (each
// read-modify-write releases what its thread wrote before); and a release
// store / acquire load pair written with the __atomic builtins. The plain
// data is always ordered; the atomics themselves never race. Silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     Message = 42, Guarded = 200, Tally = 2
// CHECK-NOT: HybridRace

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

static int Message;
static atomic_int Ready;

static int Guarded;
static atomic_bool Busy;

static int Tally[2];
static atomic_int Arrived;

static int Plain;
static int PlainReady;

static void SpinLock(void) {
  bool Expected = false;
  while (!atomic_compare_exchange_weak_explicit(
      &Busy, &Expected, true, memory_order_acquire, memory_order_relaxed)) {
    Expected = false;
    sched_yield();
  }
}

static void SpinUnlock(void) {
  atomic_store_explicit(&Busy, false, memory_order_release);
}

static void *Worker(void *Arg) {
  long Me = (long)Arg;
  if (Me == 0) {
    Message = 42;
    atomic_store_explicit(&Ready, 1, memory_order_release);
    Plain = 7;
    __atomic_store_n(&PlainReady, 1, __ATOMIC_RELEASE);
  }
  for (int I = 0; I < 100; ++I) {
    SpinLock();
    Guarded = Guarded + 1;
    SpinUnlock();
  }
  Tally[Me] = 1;
  atomic_fetch_add(&Arrived, 1);
  return NULL;
}

int main(void) {
  pthread_t T[2];
  for (long I = 0; I < 2; ++I)
    pthread_create(&T[I], NULL, Worker, (void *)I);
  while (!atomic_load_explicit(&Ready, memory_order_acquire))
    sched_yield();
  int Seen = Message;
  while (!__atomic_load_n(&PlainReady, __ATOMIC_ACQUIRE))
    sched_yield();
  Seen += Plain - 7;
  while (atomic_load(&Arrived) != 2)
    sched_yield();
  int Sum = Tally[0] + Tally[1];
  int Count = Guarded;
  for (int I = 0; I < 2; ++I)
    pthread_join(T[I], NULL);
  printf("Message = %d, Guarded = %d, Tally = %d\n", Seen, Count, Sum);
  return 0;
}
