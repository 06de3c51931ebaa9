// A pthreads call that fails for a reason no other check explains is
// reported with its error when the program ignores the result: a timed wait
// with an invalid time (EINVAL). The same failure where the program tests
// the result is the program's to handle: not reported. A timed wait that
// times out is its normal use and is not reported either.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
//
// CHECK-NOT:  HybridRace
// CHECK:      handled EINVAL
// CHECK-NOT:  HybridRace
// CHECK:      WARNING: HybridRace: pthreads function returned an error
// CHECK-NEXT:   Thread T0 calls pthread_cond_timedwait, which fails with EINVAL (22):
// CHECK-NEXT:     #0 main {{.*}}.c:[[@LINE+19]]
// CHECK:      SUMMARY: HybridRace: pthread-call-failed {{.*}}.c:[[@LINE+18]] in main
// CHECK:      HybridRace: reported 1 warning

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t C = PTHREAD_COND_INITIALIZER;

int main(void) {
  struct timespec Past = {0, 0};
  struct timespec Invalid = {0, 2000000000};
  pthread_mutex_lock(&M);
  pthread_cond_timedwait(&C, &M, &Past);
  if (pthread_cond_timedwait(&C, &M, &Invalid) == EINVAL)
    fprintf(stderr, "handled EINVAL\n");
  pthread_cond_timedwait(&C, &M, &Invalid); // @invalid
  pthread_mutex_unlock(&M);
  return 0;
}
