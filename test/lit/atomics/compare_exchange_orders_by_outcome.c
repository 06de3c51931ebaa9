// A compare-exchange synchronises with its success order when it exchanges
// and with its failure order when it does not. T1 writes Data and
// release-stores Lock = 1; main then tries to exchange Lock:
//   - expecting 1 with acquire on success: exchanged, Data is ordered;
//   - expecting 0 with relaxed on failure: failed, no edge, Data races.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t success 2>&1 | FileCheck %s --check-prefix=SUCCESS
// RUN: env HRACE_OPTIONS=msm=short %t success 2>&1 | FileCheck %s --check-prefix=SUCCESS
// RUN: env HRACE_OPTIONS=msm=hb not %t failure 2>&1 | FileCheck %s --check-prefix=FAILURE
// RUN: env HRACE_OPTIONS=msm=short not %t failure 2>&1 | FileCheck %s --check-prefix=FAILURE
// SUCCESS-NOT: HybridRace
// SUCCESS:     exchanged = 1, Data = 42
// SUCCESS-NOT: HybridRace
// FAILURE:     WARNING: HybridRace: data race
// FAILURE:       #0 main {{.*}}compare_exchange_orders_by_outcome.c:[[@LINE+30]]
// FAILURE:     Previous write of size 4 at {{.*}} by thread T1
// FAILURE:     exchanged = 0, Data = 42

#include "../Inputs/hrace_test_sync.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

int Data;
atomic_int Lock;
int Released;

static void *Releaser(void *Arg) {
  Data = 42; // @write
  atomic_store_explicit(&Lock, 1, memory_order_release);
  invisible_signal(&Released);
  return Arg;
}

int main(int Argc, char **Argv) {
  int Succeed = Argc > 1 && !strcmp(Argv[1], "success");
  pthread_t T;
  pthread_create(&T, NULL, Releaser, NULL);
  invisible_wait(&Released);
  int Expected = Succeed ? 1 : 0;
  int Exchanged = atomic_compare_exchange_strong_explicit(
      &Lock, &Expected, 2, memory_order_acquire, memory_order_relaxed);
  int Seen = Data; // @read
  printf("exchanged = %d, Data = %d\n", Exchanged, Seen);
  pthread_join(T, NULL);
  return 0;
}
