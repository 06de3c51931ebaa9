// 100,000,000 lock/unlock pairs (short: 10,000,000), each guarding a write:
// the resident set after all of them stays within twice the one after the
// first 1% (read from /proc/self/status; no timing is involved).
//
// RUN: %hrace_cc %s -o %t
// RUN: %t %scale 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     RSS flat
// CHECK-NOT: WARNING: HybridRace

#include "hrace_test_rss.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
long Counter;

static void Pairs(long N) {
  for (long I = 0; I < N; I++) {
    pthread_mutex_lock(&M);
    Counter++;
    pthread_mutex_unlock(&M);
  }
}

int main(int Argc, char **Argv) {
  long N = Argc > 1 && !strcmp(Argv[1], "full") ? 100000000 : 10000000;
  Pairs(N / 100);
  long Early = resident_kb();
  Pairs(N - N / 100);
  long Late = resident_kb();
  printf("RSS after 1%%: %ld kB, after all: %ld kB\n", Early, Late);
  printf("%s\n", Late <= 2 * Early ? "RSS flat" : "RSS grew");
  return 0;
}
