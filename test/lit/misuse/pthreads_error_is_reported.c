// A pthreads call that fails for a reason no other check explains is
// reported with the error: a timed wait with an invalid time (EINVAL). A
// timed wait that times out is its normal use and is not reported.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
//
// CHECK-NOT:  HybridRace
// CHECK:      WARNING: HybridRace: pthreads function returned an error
// CHECK-NEXT:   Thread T0 calls pthread_cond_timedwait, which fails with EINVAL (22):
// CHECK-NEXT:     #0 main {{.*}}.c:[[@LINE+15]]
// CHECK:      SUMMARY: HybridRace: pthread-call-failed {{.*}}.c:[[@LINE+14]] in main
// CHECK:      HybridRace: reported 1 warning

#include <pthread.h>
#include <time.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t C = PTHREAD_COND_INITIALIZER;

int main(void) {
  struct timespec Past = {0, 0};
  struct timespec Invalid = {0, 2000000000};
  pthread_mutex_lock(&M);
  pthread_cond_timedwait(&C, &M, &Past);
  pthread_cond_timedwait(&C, &M, &Invalid); // @invalid
  pthread_mutex_unlock(&M);
  return 0;
}
