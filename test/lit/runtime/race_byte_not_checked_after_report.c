// After a race is reported on a byte, that byte is no longer checked: a
// third thread writing it later, from another line, adds no report. One
// report per racy variable, as the first race is the one to fix.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>

int Mode;
static int FirstWrote, Reported;

static void *First(void *Arg) {
  Mode = 1;
  invisible_signal(&FirstWrote);
  return Arg;
}

static void *Late(void *Arg) {
  invisible_wait(&Reported);
  Mode = 3;
  return Arg;
}

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, First, NULL);
  pthread_create(&T2, NULL, Late, NULL);
  invisible_wait(&FirstWrote);
  Mode = 2;
  // CHECK:      WARNING: HybridRace: data race
  // CHECK-NEXT:   Write of size 4 at {{.*}} by thread T0 (locks held: none):
  // CHECK-NEXT:     #0 main {{.*}}race_byte_not_checked_after_report.c:[[@LINE-3]]
  // CHECK-NEXT:   Previous write of size 4 at {{.*}} by thread T1 (locks held: none):
  // CHECK-NOT:  WARNING: HybridRace
  // CHECK:      HybridRace: reported 1 warning
  invisible_signal(&Reported);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  return 0;
}
