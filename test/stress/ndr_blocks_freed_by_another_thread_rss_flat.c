// Under ndr=1, a block that one thread frees after another read it, again
// and again (short: 100 rounds of 64 KiB; full: 2,000): the resident set
// after all rounds stays within twice the one after the first tenth (read
// from /proc/self/status; no timing is involved).
//
// Each round, main writes a fresh block, the worker reads it and then locks
// and unlocks a mutex (its checks run there), and main frees the block.
// The free recycles the worker's epoch variables on main's side; the
// worker needs as many again the next round and must get them back
// (bodytrack's weighing: 1.5 GB of epoch variables before they could).
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 %t %scale 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     RSS flat
// CHECK-NOT: WARNING: HybridRace

#include "hrace_test_rss.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kWords = 8192 };

static pthread_barrier_t Turn;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static long *Block;
static long Rounds;
static long Sum;

static void *Worker(void *Arg) {
  for (long R = 0; R < Rounds; R++) {
    pthread_barrier_wait(&Turn);
    long S = 0;
    for (int I = 0; I < kWords; I++)
      S += Block[I];
    pthread_mutex_lock(&M);
    Sum += S;
    pthread_mutex_unlock(&M);
    pthread_barrier_wait(&Turn);
  }
  return Arg;
}

static void Round(long R) {
  Block = malloc(kWords * sizeof(long));
  for (int I = 0; I < kWords; I++)
    Block[I] = R + I;
  pthread_barrier_wait(&Turn);
  pthread_barrier_wait(&Turn);
  free(Block);
}

int main(int Argc, char **Argv) {
  Rounds = Argc > 1 && !strcmp(Argv[1], "full") ? 2000 : 100;
  pthread_barrier_init(&Turn, NULL, 2);
  pthread_t T;
  pthread_create(&T, NULL, Worker, NULL);
  long R = 0;
  for (; R < Rounds / 10; R++)
    Round(R);
  long Early = resident_kb();
  for (; R < Rounds; R++)
    Round(R);
  long Late = resident_kb();
  pthread_join(T, NULL);
  printf("RSS after a tenth: %ld kB, after all: %ld kB\n", Early, Late);
  printf("%s\n", Late <= 2 * Early ? "RSS flat" : "RSS grew");
  return 0;
}
