// T1 writes X without a lock, then again under M; T2, after T1 finished,
// writes X under M: a race only a hybrid machine finds, since the lock
// orders the two threads in this schedule (msm=hb is silent).
//
// "increment": T2's X++ reads X under M, a location T1 wrote under M (a
// hand-off), but the hand-off is created at T2's unlock and X is a global
// anyway: the increment inside the critical section is judged by lock sets,
// and T1's first write held no lock, so the race is reported. "write": T2
// writes X = 3 and reads nothing.
//
// RUN: %hrace_cc -O0 %s -o %t.O0 && %hrace_cc -O2 %s -o %t.O2
// RUN: not %t.O0 increment 2>&1 | FileCheck %s --check-prefixes=CHECK,INC
// RUN: not %t.O2 increment 2>&1 | FileCheck %s --check-prefixes=CHECK,INC
// RUN: not %t.O0 write 2>&1 | FileCheck %s --check-prefixes=CHECK,WRITE
// RUN: not %t.O2 write 2>&1 | FileCheck %s --check-prefixes=CHECK,WRITE
// RUN: env HRACE_OPTIONS=msm=hb %t.O0 increment 2>&1 | FileCheck %s --check-prefix=HB
// RUN: env HRACE_OPTIONS=msm=hb %t.O2 write 2>&1 | FileCheck %s --check-prefix=HB

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>

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

static void *Thread2Increments(void *Arg) {
  invisible_wait(&T1Done);
  pthread_mutex_lock(&M);
  X++;
  pthread_mutex_unlock(&M);
  return Arg;
}

static void *Thread2Writes(void *Arg) {
  invisible_wait(&T1Done);
  pthread_mutex_lock(&M);
  X = 3;
  pthread_mutex_unlock(&M);
  return Arg;
}
// CHECK:      WARNING: HybridRace: data race
// The read of the increment, or the write, against the write that held no
// lock:
// INC-NEXT:     Read of size 4 at {{.*}} by thread T2 (locks held: {M1}):
// INC-NEXT:       #0 Thread2Increments {{.*}}race_unprotected_write_before_locked_writes.c:40
// WRITE-NEXT:   Write of size 4 at {{.*}} by thread T2 (locks held: {M1}):
// WRITE-NEXT:     #0 Thread2Writes {{.*}}race_unprotected_write_before_locked_writes.c:48
// CHECK-NEXT:   Previous write of size 4 at {{.*}} by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Thread1 {{.*}}race_unprotected_write_before_locked_writes.c:29
// CHECK-NEXT:   Detected by msm=short: the previous access does not happen before this one and no lock protects both.
// CHECK-NEXT:   Location is global 'X'

int main(int Argc, char **Argv) {
  int Increment = Argc > 1 && !strcmp(Argv[1], "increment");
  pthread_t A, B;
  pthread_create(&A, NULL, Thread1, NULL);
  pthread_create(&B, NULL, Increment ? Thread2Increments : Thread2Writes,
                 NULL);
  pthread_join(A, NULL);
  pthread_join(B, NULL);
  printf("X=%d\n", X);
  return 0;
}
// HB-NOT: WARNING: HybridRace
// HB:     X=3
