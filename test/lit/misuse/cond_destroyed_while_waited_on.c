// Destroying a condition variable a thread waits on. (glibc's destroy then
// waits for the waiter forever: halt_on_error ends the run at the report.)
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=halt_on_error=1 not %t 2>&1 | FileCheck %s
//
// CHECK:      WARNING: HybridRace: destroy of a condition variable with waiting threads
// CHECK-NEXT:   Thread T0 destroys condition variable at 0x{{[0-9a-f]+}} while 1 thread waits on it:
// CHECK-NEXT:     #0 main {{.*}}.c:[[@LINE+26]]
// CHECK:      SUMMARY: HybridRace: destroy-of-waited-cond

#include "hrace_test_sync.h"
#include <pthread.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t C;
static int Ready;

static void *Waiter(void *Arg) {
  pthread_mutex_lock(&M);
  invisible_signal(&Ready);
  for (;;)
    pthread_cond_wait(&C, &M);
  return Arg;
}

int main(void) {
  pthread_cond_init(&C, 0);
  pthread_t T;
  pthread_create(&T, 0, Waiter, 0);
  invisible_wait(&Ready);
  // Locks only once the waiter's wait has released it.
  pthread_mutex_lock(&M);
  pthread_mutex_unlock(&M);
  pthread_cond_destroy(&C); // @destroy
  return 0;
}
