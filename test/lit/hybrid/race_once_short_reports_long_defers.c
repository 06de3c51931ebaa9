// A race that happens once: T1 and T2 read X concurrently (Shared-Read),
// then T2 writes it without a lock. msm=short reports at once; msm=long only
// notes a suspicion (Exclusive-Read-Write) and waits for the pattern to
// repeat, which it never does here.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: env HRACE_OPTIONS=msm=long %t 2>&1 | FileCheck %s --check-prefix=LONG

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

int X;
static int T1Read, T2Wrote;

static void *Thread1(void *Arg) {
  int V = X;
  invisible_signal(&T1Read);
  invisible_wait(&T2Wrote);
  return (void *)(long)V;
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
  printf("X=%d\n", X);
  return 0;
}
// SHORT:      WARNING: HybridRace: data race
// SHORT-NEXT:   Write of size 4 at {{.*}} by thread T2 (locks held: none):
// SHORT-NEXT:     #0 Thread2 {{.*}}race_once_short_reports_long_defers.c:27
// SHORT-NEXT:   Previous {{read|access}} of size 4 at {{.*}} by thread T1 (locks held: none):
// SHORT-NEXT:     #0 Thread1 {{.*}}race_once_short_reports_long_defers.c:18
// SHORT-NEXT:   Detected by msm=short: the candidate lock set none of this shared location ran empty
// SHORT:      X=1
// LONG-NOT:   WARNING: HybridRace
// LONG:       X=1
