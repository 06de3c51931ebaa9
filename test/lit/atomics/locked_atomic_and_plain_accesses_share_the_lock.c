// A variable written plainly and read atomically, always under the same
// mutex: the lock protects the atomic reads as it protects the plain
// accesses, in every machine (in the hybrid machines the location stays
// shared under {M1}; in msm=hb the lock orders). Three rounds by unordered
// threads, each taking the lock once. Silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=short %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t 2>&1 | FileCheck %s
// CHECK-NOT: WARNING
// CHECK:     Value = 3
// CHECK-NOT: WARNING

#include "../Inputs/hrace_test_sync.h"

#include <pthread.h>
#include <stdio.h>

pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
int Value;
int Turn;

static void *Round(void *Arg) {
  int Me = (int)(long)Arg;
  // Ordering only: the rounds run one after the other.
  while (invisible_load(&Turn) != Me)
    invisible_pause(0);
  pthread_mutex_lock(&M);
  int Seen = __atomic_load_n(&Value, __ATOMIC_RELAXED);
  Value = Seen + 1;
  (void)__atomic_load_n(&Value, __ATOMIC_ACQUIRE);
  pthread_mutex_unlock(&M);
  __atomic_store_n(&Turn, Me + 1, __ATOMIC_RELAXED);
  return 0;
}

int main(void) {
  pthread_t T[3];
  for (long I = 0; I < 3; I++)
    pthread_create(&T[I], NULL, Round, (void *)I);
  for (int I = 0; I < 3; I++)
    pthread_join(T[I], NULL);
  printf("Value = %d\n", Value);
  return 0;
}
