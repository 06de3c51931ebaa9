// ANNOTATE_BENIGN_RACE marks a variable whose races the program tolerates
// (a statistics counter): two threads update it without a lock and nothing
// is reported; the variable next to it is still checked (here it is only
// written by one thread).
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     done
// CHECK-NOT: HybridRace

#include <hrace/annotations.h>
#include <pthread.h>
#include <stdio.h>

struct Stats {
  int Hits;
  int OwnedByMain;
} Stats;

static void *Counter(void *Arg) {
  for (int I = 0; I < 100; ++I)
    Stats.Hits = Stats.Hits + 1;
  return Arg;
}

int main(void) {
  ANNOTATE_BENIGN_RACE(&Stats.Hits, "approximate statistics counter");
  pthread_t T;
  pthread_create(&T, NULL, Counter, NULL);
  for (int I = 0; I < 100; ++I) {
    Stats.Hits = Stats.Hits + 1;
    Stats.OwnedByMain = I;
  }
  pthread_join(T, NULL);
  printf("done\n");
  return 0;
}
