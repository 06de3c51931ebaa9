// The classic case that separates the hybrid machines from pure
// happens-before: T1 writes X, then both threads pass through an unrelated
// critical section (T1 first), then main writes X. Under msm=hb the unlock ->
// lock edge orders the two writes, so the race is hidden by the schedule;
// msm=short and msm=long check lock sets, see that no lock protects X, and
// report it whatever the schedule.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=short not %t 2>&1 | FileCheck %s --check-prefixes=CHECK,SHORT
// RUN: env HRACE_OPTIONS=msm=long not %t 2>&1 | FileCheck %s --check-prefixes=CHECK,LONG
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s --check-prefix=HB

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

int X;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static int T1Done;

static void *Thread1(void *Arg) {
  X = 1;
  pthread_mutex_lock(&M);
  pthread_mutex_unlock(&M);
  invisible_signal(&T1Done);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Thread1, NULL);
  invisible_wait(&T1Done);
  pthread_mutex_lock(&M);
  pthread_mutex_unlock(&M);
  X = 2;
  // CHECK:      WARNING: HybridRace: data race
  // CHECK-NEXT:   Write of size 4 at {{.*}} by thread T0 (locks held: none):
  // CHECK-NEXT:     #0 main {{.*}}race_hidden_by_unrelated_critical_section.c:[[@LINE-3]]
  // CHECK-NEXT:   Previous write of size 4 at {{.*}} by thread T1 (locks held: none):
  // CHECK-NEXT:     #0 Thread1 {{.*}}race_hidden_by_unrelated_critical_section.c:22
  // SHORT-NEXT:   Detected by msm=short: the previous access does not happen before this one and no lock protects both.
  // LONG-NEXT:    Detected by msm=long: the previous access does not happen before this one and no lock protects both.
  // CHECK-NEXT:   Location is global 'X'
  pthread_join(T, NULL);
  printf("X=%d\n", X);
  // HB-NOT: WARNING: HybridRace
  // HB: X=2
  return 0;
}
