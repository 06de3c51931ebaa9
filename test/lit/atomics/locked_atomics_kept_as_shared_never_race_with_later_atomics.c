// An atomic access made under a lock keeps a hybrid machine's location
// shared under that lock (the lock protects the plain accesses around it).
// A later unlocked atomic access that runs the candidate lock set empty
// must then not be reported against the atomic accesses the shared state
// keeps: atomics never race with each other. Nor may main's plain read
// under its lock afterwards be reported (double-checked locking's slow
// path): the lock orders the other thread's locked access before it. Each
// scenario is race-free in every machine; the invisible ordering only makes
// T's access come first, and orders no pair that would race without it.
//
//   locked-write  main writes X plainly under M; T loads X atomically under
//                 M; main stores X atomically, unlocked.
//   locked-read   main reads X plainly under M; T loads X atomically under
//                 M; main stores X atomically, unlocked.
//   other-locks   main writes X before creating T, then reads it plainly
//                 under A; T loads X atomically under B; main stores X
//                 atomically, unlocked (the single-writer pattern).
//   locked-store  main writes X plainly under M; T stores X atomically
//                 under M; main stores X atomically, unlocked.
//   checked-load  main reads X plainly under M; T stores X atomically
//                 under M; main loads X atomically, unlocked.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=short %t locked-write 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t locked-write 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t locked-write 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=short %t locked-read 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t locked-read 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t locked-read 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=short %t other-locks 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t other-locks 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t other-locks 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=short %t locked-store 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t locked-store 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t locked-store 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=short %t checked-load 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t checked-load 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t checked-load 2>&1 | FileCheck %s
// CHECK-NOT: WARNING
// CHECK:     atomic access done
// CHECK-NOT: WARNING

#include "../Inputs/hrace_test_sync.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t A = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t B = PTHREAD_MUTEX_INITIALIZER;
long X;
int MainDone, OtherDone;
const char *Scenario;

static void *Other(void *Arg) {
  invisible_wait(&MainDone);
  pthread_mutex_t *Lock = strcmp(Scenario, "other-locks") == 0 ? &B : &M;
  pthread_mutex_lock(Lock);
  if (strcmp(Scenario, "locked-store") == 0 ||
      strcmp(Scenario, "checked-load") == 0)
    __atomic_store_n(&X, 2, __ATOMIC_RELAXED);
  else
    (void)__atomic_load_n(&X, __ATOMIC_RELAXED);
  pthread_mutex_unlock(Lock);
  invisible_signal(&OtherDone);
  return 0;
}

int main(int argc, char **argv) {
  Scenario = argv[1];
  pthread_t T;
  if (strcmp(Scenario, "other-locks") == 0)
    X = 1;
  pthread_create(&T, 0, Other, 0);
  pthread_mutex_t *Lock = strcmp(Scenario, "other-locks") == 0 ? &A : &M;
  pthread_mutex_lock(Lock);
  if (strcmp(Scenario, "locked-write") == 0 ||
      strcmp(Scenario, "locked-store") == 0)
    X = 1;
  else
    (void)*(volatile long *)&X;
  pthread_mutex_unlock(Lock);
  invisible_signal(&MainDone);
  invisible_wait(&OtherDone);
  long V = 0;
  if (strcmp(Scenario, "checked-load") == 0)
    V = __atomic_load_n(&X, __ATOMIC_RELAXED);
  else
    __atomic_store_n(&X, 3, __ATOMIC_RELAXED);
  fprintf(stderr, "atomic access done\n");
  pthread_mutex_lock(Lock);
  V += *(volatile long *)&X;
  pthread_mutex_unlock(Lock);
  pthread_join(T, 0);
  return (int)(V & 0);
}
