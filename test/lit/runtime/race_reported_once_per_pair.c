// Two loops race on every element of an array, many times over: one pair of
// source lines, so exactly one report. Reporting each pair once keeps a
// racy loop from flooding the output; later loops on the same bytes are not
// checked again either.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>

int Table[64];
static int ThreadDone;

static void *Filler(void *Arg) {
  for (int Round = 0; Round < 10; ++Round)
    for (int I = 0; I < 64; ++I)
      Table[I] = I + Round;
  invisible_signal(&ThreadDone);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Filler, NULL);
  invisible_wait(&ThreadDone);
  for (int Round = 0; Round < 10; ++Round)
    for (int I = 0; I < 64; ++I)
      Table[I] = -I - Round;
  // CHECK:      WARNING: HybridRace: data race
  // CHECK-NEXT:   Write of size 4 at {{.*}} by thread T0 (locks held: none):
  // CHECK-NEXT:     #0 main {{.*}}race_reported_once_per_pair.c:[[@LINE-3]]
  // CHECK-NEXT:   Previous write of size 4 at {{.*}} by thread T1 (locks held: none):
  // CHECK-NEXT:     #0 Filler {{.*}}race_reported_once_per_pair.c:[[@LINE-16]]
  // CHECK-NOT:  WARNING: HybridRace
  // CHECK:      HybridRace: reported 1 warning
  pthread_join(T, NULL);
  return 0;
}
