// Options in HRACE_OPTIONS may be separated by ':' or by spaces (or both):
// each spelling below sets msm, exitcode and halt_on_error, so the program
// stops after the first of its two races with status 5.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb:exitcode=5:halt_on_error=1 sh -c '%t; echo "exit=$?"' 2>&1 | FileCheck %s
// RUN: env "HRACE_OPTIONS=msm=hb exitcode=5 halt_on_error=1" sh -c '%t; echo "exit=$?"' 2>&1 | FileCheck %s
// RUN: env "HRACE_OPTIONS= msm=hb: exitcode=5  :halt_on_error=1 " sh -c '%t; echo "exit=$?"' 2>&1 | FileCheck %s

// CHECK:      WARNING: HybridRace: data race
// CHECK:        Location is global 'First'
// CHECK-NOT:  WARNING: HybridRace
// CHECK-NOT:  reported
// CHECK:      exit=5

#include "hrace_test_sync.h"
#include <pthread.h>

int First, Second;
static int ThreadWrote;

static void *Thread1(void *Arg) {
  First = 1;
  Second = 1;
  invisible_signal(&ThreadWrote);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Thread1, NULL);
  invisible_wait(&ThreadWrote);
  First = 2;
  Second = 2;
  pthread_join(T, NULL);
  return 0;
}
