// The racing access is reported with its whole call stack (from the shadow
// stack the instrumented functions keep), innermost first, so a race in a
// helper called from many places can be traced to its caller.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>

int Counter;
static int MainWrote;

__attribute__((noinline)) static void Bump(void) { Counter = Counter + 1; }
__attribute__((noinline)) static void Work(void) { Bump(); }

static void *Worker(void *Arg) {
  invisible_wait(&MainWrote);
  Work();
  return Arg;
}
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 4 at {{.*}} by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Bump {{.*}}race_report_shows_call_stack.c:[[@LINE-10]]
// CHECK-NEXT:     #1 Work {{.*}}race_report_shows_call_stack.c:[[@LINE-10]]
// CHECK-NEXT:     #2 Worker {{.*}}race_report_shows_call_stack.c:[[@LINE-7]]
// CHECK-NEXT:   Previous write of size 4 at {{.*}} by thread T0 (locks held: none):

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Worker, NULL);
  Counter = 10;
  // CHECK-NEXT:     #0 main {{.*}}race_report_shows_call_stack.c:[[@LINE-1]]
  invisible_signal(&MainWrote);
  pthread_join(T, NULL);
  return 0;
}
