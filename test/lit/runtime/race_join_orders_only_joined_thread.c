// pthread_join orders only the joined thread: main joins T1, which (by
// synchronisation the detector cannot see) ends after T2 wrote a global,
// and then reads that global. T2 was not joined, so the read races with
// T2's write.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

int Result;
static int Written;

static void *Waiter(void *Arg) {
  invisible_wait(&Written);
  return Arg;
}

static void *Writer(void *Arg) {
  Result = 2;
  invisible_signal(&Written);
  return Arg;
}

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Waiter, NULL);
  pthread_create(&T2, NULL, Writer, NULL);
  pthread_join(T1, NULL);
  printf("Result = %d\n", Result);
  // CHECK:      WARNING: HybridRace: data race
  // CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T0 (locks held: none):
  // CHECK-NEXT:     #0 main {{.*}}race_join_orders_only_joined_thread.c:[[@LINE-3]]
  // CHECK-NEXT:   Previous write of size 4 at [[ADDR]] by thread T2 (locks held: none):
  // CHECK-NEXT:     #0 Writer {{.*}}race_join_orders_only_joined_thread.c:[[@LINE-15]]
  pthread_join(T2, NULL);
  return 0;
}
