// A thread that has found a Shared-Modified location unchanged by its reads
// under M remembers that (runtime/hrace_noop_memo.h), but only until its
// locks change. T1 and T2 write X under M (Shared-Modified, C = {M1}); T1
// then reads X under M again and again, which changes nothing. After
// unlocking, T1 reads X with no lock: C runs empty and T2's write is not
// ordered before the read, so msm=short reports it.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

int X;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static int T1Wrote, T2Wrote;

static void *Thread1(void *Arg) {
  pthread_mutex_lock(&M);
  X = 1;
  pthread_mutex_unlock(&M);
  invisible_signal(&T1Wrote);
  invisible_wait(&T2Wrote);
  int Sum = 0;
  pthread_mutex_lock(&M);
  for (int I = 0; I < 100; I++)
    Sum += *(volatile int *)&X;
  pthread_mutex_unlock(&M);
  // CHECK:      WARNING: HybridRace: data race
  // CHECK-NEXT:   Read of size 4 at {{.*}} by thread T1 (locks held: none):
  // CHECK-NEXT:     #0 Thread1 {{.*}}shared_location_checked_again_after_unlock.c:[[@LINE+1]]
  Sum += *(volatile int *)&X;
  return (void *)(long)Sum;
}

static void *Thread2(void *Arg) {
  invisible_wait(&T1Wrote);
  pthread_mutex_lock(&M);
  X = 2;
  pthread_mutex_unlock(&M);
  invisible_signal(&T2Wrote);
  return Arg;
}

int main(void) {
  pthread_t A, B;
  pthread_create(&A, NULL, Thread1, NULL);
  pthread_create(&B, NULL, Thread2, NULL);
  void *Sum;
  pthread_join(A, &Sum);
  pthread_join(B, NULL);
  printf("sum=%ld\n", (long)Sum);
  // CHECK: SUMMARY: HybridRace: data race {{.*}}shared_location_checked_again_after_unlock.c
  return 0;
}
