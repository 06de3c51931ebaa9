// The same pattern as race_once_short_reports_long_defers.c, repeated: after
// T2's unprotected write (msm=long's suspicion), T1 writes X again, still
// unordered and unprotected. Now msm=long reports too; msm=short reported the
// first write and checks X no more.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s --check-prefixes=CHECK,SHORT
// RUN: env HRACE_OPTIONS=msm=long not %t 2>&1 | FileCheck %s --check-prefixes=CHECK,LONG

#include "hrace_test_sync.h"
#include <pthread.h>

int X;
static int T1Read, T2Wrote;

static void *Thread1(void *Arg) {
  int V = X;
  invisible_signal(&T1Read);
  invisible_wait(&T2Wrote);
  X = V + 10;
  return Arg;
}

static void *Thread2(void *Arg) {
  invisible_wait(&T1Read);
  int V = X;
  X = V + 1;
  invisible_signal(&T2Wrote);
  return Arg;
}

int main(void) {
  pthread_t A, B;
  pthread_create(&A, NULL, Thread1, NULL);
  pthread_create(&B, NULL, Thread2, NULL);
  pthread_join(A, NULL);
  pthread_join(B, NULL);
  return 0;
}
// CHECK:      WARNING: HybridRace: data race
// SHORT-NEXT:   Write of size 4 at {{.*}} by thread T2 (locks held: none):
// SHORT-NEXT:     #0 Thread2 {{.*}}race_repeated_reported_by_long.c:27
// LONG-NEXT:    Write of size 4 at {{.*}} by thread T1 (locks held: none):
// LONG-NEXT:      #0 Thread1 {{.*}}race_repeated_reported_by_long.c:20
// LONG-NEXT:    Previous {{write|access}} of size 4 at {{.*}} by thread T2 (locks held: none):
// LONG-NEXT:      #0 Thread2 {{.*}}race_repeated_reported_by_long.c:27
// CHECK:      HybridRace: reported 1 warning
