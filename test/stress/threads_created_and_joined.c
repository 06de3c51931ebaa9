// 10,000 threads (short: 1,000) created and joined one batch of 8 at a time,
// each taking a shared mutex and writing its own slot: the runtime recycles
// every slot and reports nothing; main then reads every slot.
//
// RUN: %hrace_cc %s -o %t
// RUN: %t %scale 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     all threads joined, total ok
// CHECK-NOT: WARNING: HybridRace

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static long Total;
static int *Slots;

static void *Work(void *Arg) {
  long I = (long)Arg;
  Slots[I] = (int)I;
  pthread_mutex_lock(&M);
  Total += I;
  pthread_mutex_unlock(&M);
  return 0;
}

int main(int Argc, char **Argv) {
  long N = Argc > 1 && !strcmp(Argv[1], "full") ? 10000 : 1000;
  Slots = calloc(N, sizeof(int));
  for (long I = 0; I < N; I += 8) {
    pthread_t T[8];
    for (int J = 0; J < 8; J++)
      pthread_create(&T[J], 0, Work, (void *)(I + J));
    for (int J = 0; J < 8; J++)
      pthread_join(T[J], 0);
  }
  long Sum = 0;
  for (long I = 0; I < N; I++)
    Sum += Slots[I];
  printf("all threads joined, total %s\n",
         Sum == Total && Total == N * (N - 1) / 2 ? "ok" : "WRONG");
  return 0;
}
