// main passes the address of its local variable to a thread, which writes
// it while main reads it: the location is "stack of thread T0", telling the
// user whose frame the racy object lives in.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

static int ThreadWrote;

static void *Thread1(void *Arg) {
  *(int *)Arg = 42;
  invisible_signal(&ThreadWrote);
  return NULL;
}

int main(void) {
  int Local = 0;
  pthread_t T;
  pthread_create(&T, NULL, Thread1, &Local);
  invisible_wait(&ThreadWrote);
  printf("Local = %d\n", Local);
  // CHECK:      WARNING: HybridRace: data race
  // CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T0 (locks held: none):
  // CHECK-NEXT:     #0 main {{.*}}race_on_stack_variable_passed_to_thread.c:[[@LINE-3]]
  // CHECK-NEXT:   Previous write of size 4 at [[ADDR]] by thread T1 (locks held: none):
  // CHECK-NEXT:     #0 Thread1 {{.*}}race_on_stack_variable_passed_to_thread.c:[[@LINE-15]]
  // CHECK-NEXT:   Detected by msm=hb: neither access happens before the other.
  // CHECK-NEXT:   Location is stack of thread T0
  // CHECK-NEXT:   Thread T0 (tid={{[0-9]+}}, running) is the main thread
  // CHECK-NEXT:   Thread T1 (tid={{[0-9]+}}, {{running|finished}}) created by T0 at:
  pthread_join(T, NULL);
  return 0;
}
