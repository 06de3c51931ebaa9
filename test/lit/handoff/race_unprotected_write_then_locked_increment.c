// T1 writes X without a lock, then again under M; T2, after T1 finished,
// increments X under M. T2's read of X under M is a read of a location T1
// wrote under M (a hand-off), but the hand-off is created at T2's unlock and
// X is a global anyway: T2's increment inside the critical section is
// judged by lock sets, and T1's first write held no lock, so the race is
// reported. msm=hb orders T1's unlock before T2's lock: silent.
//
// RUN: %hrace_cc -O0 %s -o %t.O0 && %hrace_cc -O2 %s -o %t.O2
// RUN: not %t.O0 2>&1 | FileCheck %s
// RUN: not %t.O2 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t.O0 2>&1 | FileCheck %s --check-prefix=HB
// RUN: env HRACE_OPTIONS=msm=hb %t.O2 2>&1 | FileCheck %s --check-prefix=HB

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

int X;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static int T1Done;

static void *Thread1(void *Arg) {
  X = 1;
  pthread_mutex_lock(&M);
  X = 2;
  pthread_mutex_unlock(&M);
  invisible_signal(&T1Done);
  return Arg;
}

static void *Thread2(void *Arg) {
  invisible_wait(&T1Done);
  pthread_mutex_lock(&M);
  X++;
  pthread_mutex_unlock(&M);
  return Arg;
}
// CHECK:      WARNING: HybridRace: data race
// The read of the increment, against the write that held no lock:
// CHECK-NEXT:   Read of size 4 at {{.*}} by thread T2 (locks held: {M1}):
// CHECK-NEXT:     #0 Thread2 {{.*}}race_unprotected_write_then_locked_increment.c:34
// CHECK-NEXT:   Previous write of size 4 at {{.*}} by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Thread1 {{.*}}race_unprotected_write_then_locked_increment.c:23
// CHECK-NEXT:   Detected by msm=short: the previous access does not happen before this one and no lock protects both.
// CHECK-NEXT:   Location is global 'X'

int main(void) {
  pthread_t A, B;
  pthread_create(&A, NULL, Thread1, NULL);
  pthread_create(&B, NULL, Thread2, NULL);
  pthread_join(A, NULL);
  pthread_join(B, NULL);
  printf("X=%d\n", X);
  return 0;
}
// HB-NOT: WARNING: HybridRace
// HB:     X=3
