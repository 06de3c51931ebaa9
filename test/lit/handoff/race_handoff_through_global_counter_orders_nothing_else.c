// T1 writes X without a lock, then increments Count under M; T2, after T1
// has finished, increments Count under M and writes X. T2's read of Count
// (written by T1 under M) is a hand-off, but its scope is heap memory only
// (the block holding Count, the block its value points to): Count is a
// global, so the hand-off orders nothing, and X, protected by no lock, is
// reported by the hybrid machines. msm=hb orders the two through the lock
// (unlock -> lock) and stays silent.
//
// RUN: %hrace_cc -O0 %s -o %t.O0 && %hrace_cc -O2 %s -o %t.O2
// RUN: not %t.O0 2>&1 | FileCheck %s --check-prefixes=CHECK,SHORT
// RUN: not %t.O2 2>&1 | FileCheck %s --check-prefixes=CHECK,SHORT
// RUN: env HRACE_OPTIONS=msm=long not %t.O0 2>&1 | FileCheck %s --check-prefixes=CHECK,LONG
// RUN: env HRACE_OPTIONS=msm=long not %t.O2 2>&1 | FileCheck %s --check-prefixes=CHECK,LONG
// RUN: env HRACE_OPTIONS=msm=hb %t.O0 2>&1 | FileCheck %s --check-prefix=HB
// RUN: env HRACE_OPTIONS=msm=hb %t.O2 2>&1 | FileCheck %s --check-prefix=HB

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

int X, Count;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static int T1Done;

static void *Thread1(void *Arg) {
  X = 1;
  pthread_mutex_lock(&M);
  Count++;
  pthread_mutex_unlock(&M);
  invisible_signal(&T1Done);
  return Arg;
}

static void *Thread2(void *Arg) {
  invisible_wait(&T1Done);
  pthread_mutex_lock(&M);
  Count++;
  pthread_mutex_unlock(&M);
  X = 2;
  return Arg;
}
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Write of size 4 at {{.*}} by thread T2 (locks held: none):
// CHECK-NEXT:     #0 Thread2 {{.*}}race_handoff_through_global_counter_orders_nothing_else.c:39
// CHECK-NEXT:   Previous write of size 4 at {{.*}} by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Thread1 {{.*}}race_handoff_through_global_counter_orders_nothing_else.c:26
// SHORT-NEXT:   Detected by msm=short: the previous access does not happen before this one and no lock protects both.
// LONG-NEXT:    Detected by msm=long: the previous access does not happen before this one and no lock protects both.
// CHECK-NEXT:   Location is global 'X'
// CHECK:      HybridRace: reported 1 warning
// CHECK-NOT:  WARNING: HybridRace

int main(void) {
  pthread_t A, B;
  pthread_create(&A, NULL, Thread1, NULL);
  pthread_create(&B, NULL, Thread2, NULL);
  pthread_join(A, NULL);
  pthread_join(B, NULL);
  printf("X=%d Count=%d\n", X, Count);
  return 0;
}
// HB-NOT: WARNING: HybridRace
// HB:     X=2 Count=2
