//===-- counter_race.c - Example: an unprotected shared counter -----------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Two threads increment a global counter with no lock: a data race. Built
// with -fsanitize-hybrid-race it is reported and the program exits non-zero,
// whatever the interleaving and whether or not an increment got lost.
//
//===----------------------------------------------------------------------===//

#include <pthread.h>
#include <stdio.h>

enum { kThreads = 2, kIncrements = 1000 };

static long Counter;

static void *increment(void *Arg) {
  (void)Arg;
  for (int I = 0; I < kIncrements; ++I)
    ++Counter;
  return NULL;
}

int main(void) {
  pthread_t Threads[kThreads];
  for (int I = 0; I < kThreads; ++I)
    pthread_create(&Threads[I], NULL, increment, NULL);
  for (int I = 0; I < kThreads; ++I)
    pthread_join(Threads[I], NULL);
  printf("counter_race: counter = %ld (%d expected)\n", Counter,
         kThreads * kIncrements);
  return 0;
}
