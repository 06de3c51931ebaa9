// A recursive custom mutex that a condition-variable-like wait releases
// completely (__tsan_mutex_recursive_unlock, which returns the depth) and
// takes back as deep (__tsan_mutex_recursive_lock): while released, the
// thread holds no lock, so its unprotected write races with another
// thread's write under the mutex, in every machine; the depth comes back.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Write of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T2 (locks held: {M1}):
// CHECK:        Previous write of size 4 at [[ADDR]] by thread T1 (locks held: none):
// CHECK:      full unlock released 2 levels

#include "hrace_test_sync.h"
#include <pthread.h>
#include <sanitizer/tsan_interface.h>
#include <stdio.h>

// A recursive test-and-set lock (its word and depth are never seen by the
// runtime: atomics and the owner's own counter).
static int Word, Owner, Levels;
static int Depth, Released, WriterDone;
int Shared;

static void Lock(int Me) {
  __tsan_mutex_pre_lock(&Word, 0);
  if (__atomic_load_n(&Owner, __ATOMIC_RELAXED) != Me) {
    while (__atomic_exchange_n(&Word, 1, __ATOMIC_ACQUIRE))
      sched_yield();
    __atomic_store_n(&Owner, Me, __ATOMIC_RELAXED);
  }
  Levels++;
  __tsan_mutex_post_lock(&Word, 0, 0);
}

static void Unlock(void) {
  __tsan_mutex_pre_unlock(&Word, 0);
  if (--Levels == 0) {
    __atomic_store_n(&Owner, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&Word, 0, __ATOMIC_RELEASE);
  }
  __tsan_mutex_post_unlock(&Word, 0);
}

static void *Waiter(void *Arg) {
  (void)Arg;
  Lock(1);
  Lock(1);
  // A wait that drops every level of the mutex, as a condition variable
  // built on it would, and takes them all back afterwards.
  Depth = __tsan_mutex_pre_unlock(&Word, __tsan_mutex_recursive_unlock);
  int Saved = Levels;
  Levels = 0;
  __atomic_store_n(&Owner, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&Word, 0, __ATOMIC_RELEASE);
  __tsan_mutex_post_unlock(&Word, __tsan_mutex_recursive_unlock);
  Shared = 1;
  invisible_signal(&Released);
  // Ordering only: the other thread takes the mutex while it is released.
  invisible_wait(&WriterDone);
  while (__atomic_exchange_n(&Word, 1, __ATOMIC_ACQUIRE))
    sched_yield();
  __atomic_store_n(&Owner, 1, __ATOMIC_RELAXED);
  Levels = Saved;
  __tsan_mutex_post_lock(&Word, __tsan_mutex_recursive_lock, Depth);
  Unlock();
  Unlock();
  return 0;
}

static void *Writer(void *Arg) {
  (void)Arg;
  // Ordering only: the unprotected write comes first.
  invisible_wait(&Released);
  Lock(2);
  Shared = 2;
  Unlock();
  invisible_signal(&WriterDone);
  return 0;
}

int main(void) {
  pthread_t A, B;
  pthread_create(&A, 0, Waiter, 0);
  pthread_create(&B, 0, Writer, 0);
  pthread_join(A, 0);
  pthread_join(B, 0);
  printf("full unlock released %d levels\n", Depth);
  return 0;
}
