// The race Helgrind+ misses (seeds/000, 4.2.5): T1 initialises X without a
// lock; T2, not ordered after it, writes X under an unrelated lock. The
// paper's MSM-short enters Shared-Modified with C = {M1} and stays silent.
// Ours keeps the owner's lock set with the exclusive state, so C = {} & {M1}
// is empty and the race is reported. msm=long follows the paper and misses
// it (it is the deferring machine).
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: env HRACE_OPTIONS=msm=long %t 2>&1 | FileCheck %s --check-prefix=LONG

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

int X;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static int Initialised;

static void *Init(void *Arg) {
  X = 42;
  invisible_signal(&Initialised);
  return Arg;
}

static void *Update(void *Arg) {
  invisible_wait(&Initialised);
  pthread_mutex_lock(&M);
  X = 43;
  pthread_mutex_unlock(&M);
  return Arg;
}

int main(void) {
  pthread_t A, B;
  pthread_create(&A, NULL, Init, NULL);
  pthread_create(&B, NULL, Update, NULL);
  pthread_join(A, NULL);
  pthread_join(B, NULL);
  printf("X=%d\n", X);
  return 0;
}
// SHORT:      WARNING: HybridRace: data race
// SHORT-NEXT:   Write of size 4 at {{.*}} by thread T2 (locks held: {M1}):
// SHORT-NEXT:     #0 Update {{.*}}unprotected_init_then_locked_write_is_reported.c:29
// SHORT-NEXT:   Previous write of size 4 at {{.*}} by thread T1 (locks held: none):
// SHORT-NEXT:     #0 Init {{.*}}unprotected_init_then_locked_write_is_reported.c:21
// SHORT-NEXT:   Detected by msm=short: the previous access does not happen before this one and no lock protects both.
// LONG-NOT:   WARNING: HybridRace
// LONG:       X=43
