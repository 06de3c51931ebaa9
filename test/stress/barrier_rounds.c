// 1,000,000 rounds (short: 50,000) of a two-thread barrier, each thread
// writing the other's cell between rounds: every round orders the writes,
// nothing is reported, and the process finishes.
//
// RUN: %hrace_cc %s -o %t
// RUN: %t %scale 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     barrier rounds done
// CHECK-NOT: WARNING: HybridRace

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_barrier_t B;
static long Rounds;
int Cell[2];

static void *Work(void *Arg) {
  long Me = (long)Arg;
  for (long R = 0; R < Rounds; R++) {
    // Phase one writes the thread's own cell, phase two the other's.
    Cell[(Me + (R & 1)) & 1] = (int)R;
    pthread_barrier_wait(&B);
  }
  return 0;
}

int main(int Argc, char **Argv) {
  Rounds = Argc > 1 && !strcmp(Argv[1], "full") ? 1000000 : 50000;
  pthread_barrier_init(&B, 0, 2);
  pthread_t T;
  pthread_create(&T, 0, Work, (void *)1);
  Work((void *)0);
  pthread_join(T, 0);
  printf("barrier rounds done\n");
  return 0;
}
