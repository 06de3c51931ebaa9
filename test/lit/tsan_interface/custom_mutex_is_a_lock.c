// A custom mutex annotated with ThreadSanitizer's __tsan_mutex_* calls links
// and is a lock like a pthread mutex: T1's write under it is reported with
// the mutex in its lock set when T2 then writes the same variable with no
// lock; two threads that both take it never race (in every machine); and a
// failed try-lock takes nothing.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t race 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: env HRACE_OPTIONS=msm=hb not %t race 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: %t locked 2>&1 | FileCheck %s --check-prefix=LOCKED
// RUN: env HRACE_OPTIONS=msm=hb %t locked 2>&1 | FileCheck %s --check-prefix=LOCKED
// RUN: env HRACE_OPTIONS=msm=long %t locked 2>&1 | FileCheck %s --check-prefix=LOCKED
// RACE:        WARNING: HybridRace: data race
// RACE-NEXT:     Write of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T2 (locks held: none):
// RACE:          Previous write of size 4 at [[ADDR]] by thread T1 (locks held: {M1}):
// LOCKED-NOT:  WARNING: HybridRace
// LOCKED:      counter 2000, try-lock while held failed
// LOCKED-NOT:  WARNING: HybridRace

#include "hrace_test_sync.h"
#include <pthread.h>
#include <sanitizer/tsan_interface.h>
#include <stdio.h>
#include <string.h>

// A test-and-set lock, annotated the way ThreadSanitizer asks.
typedef struct {
  int Word;
} SpinLock;

static void Lock(SpinLock *L) {
  __tsan_mutex_pre_lock(L, 0);
  while (__atomic_exchange_n(&L->Word, 1, __ATOMIC_RELAXED))
    sched_yield();
  __tsan_mutex_post_lock(L, 0, 0);
}

static int TryLock(SpinLock *L) {
  __tsan_mutex_pre_lock(L, __tsan_mutex_try_lock);
  int Got = !__atomic_exchange_n(&L->Word, 1, __ATOMIC_RELAXED);
  __tsan_mutex_post_lock(
      L, Got ? __tsan_mutex_try_lock : __tsan_mutex_try_lock_failed, 0);
  return Got;
}

static void Unlock(SpinLock *L) {
  __tsan_mutex_pre_unlock(L, 0);
  __atomic_store_n(&L->Word, 0, __ATOMIC_RELAXED);
  __tsan_mutex_post_unlock(L, 0);
}

static SpinLock L;
int Racy;
int Counter, T1Wrote, TryFailed;

static void *WriteLocked(void *Arg) {
  (void)Arg;
  Lock(&L);
  Racy = 1;
  Unlock(&L);
  invisible_signal(&T1Wrote);
  return 0;
}

static void *WriteUnlocked(void *Arg) {
  (void)Arg;
  // Ordering only: the locked write comes first.
  invisible_wait(&T1Wrote);
  Racy = 2;
  return 0;
}

static void *Count(void *Arg) {
  (void)Arg;
  for (int I = 0; I < 1000; I++) {
    Lock(&L);
    Counter++;
    Unlock(&L);
  }
  return 0;
}

int main(int Argc, char **Argv) {
  __tsan_mutex_create(&L, 0);
  pthread_t A, B;
  if (Argc > 1 && !strcmp(Argv[1], "race")) {
    pthread_create(&A, 0, WriteLocked, 0);
    pthread_create(&B, 0, WriteUnlocked, 0);
  } else {
    pthread_create(&A, 0, Count, 0);
    pthread_create(&B, 0, Count, 0);
  }
  pthread_join(A, 0);
  pthread_join(B, 0);
  Lock(&L);
  TryFailed = !TryLock(&L);
  Unlock(&L);
  __tsan_mutex_destroy(&L, 0);
  printf("counter %d, try-lock while held %s\n", Counter,
         TryFailed ? "failed" : "succeeded");
  return 0;
}
