//===-- hrace_test_polled_rounds.h - Rounds ordered by a polled flag ------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Rounds of four threads, for the stress tests of what a plain store of the
// shadow may forget. Each round the main thread runs Write(R); then,
// ordered after it by a barrier, two threads run Concurrent[0](R) and
// Concurrent[1](R) at the same moment, and the second then sets the
// round's flag under a mutex; a poller waits for the flag, polling it under
// the mutex, and runs Polled(R). Under the hybrid machines with precise=0
// (no write/read relation) the poller learns nothing else of the round: a
// common lock orders nothing. All four meet at the round's end.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_TEST_POLLED_ROUNDS_H
#define HRACE_TEST_POLLED_ROUNDS_H

#include <pthread.h>
#include <sched.h>

struct PolledRounds {
  long Rounds;
  void (*Write)(long R);
  void (*Concurrent[2])(long R);
  void (*Polled)(long R);
};

static const struct PolledRounds *PolledRun;
static long PolledFlag;
static pthread_mutex_t PolledFlagLock = PTHREAD_MUTEX_INITIALIZER;
// The writer and the two concurrent threads; all four at a round's end.
static pthread_barrier_t PolledWritten, PolledRoundDone;

static void *polled_concurrent(void *Arg) {
  long Which = (long)Arg;
  for (long R = 0; R < PolledRun->Rounds; R++) {
    pthread_barrier_wait(&PolledWritten);
    PolledRun->Concurrent[Which](R);
    if (Which == 1) {
      pthread_mutex_lock(&PolledFlagLock);
      PolledFlag = R + 1;
      pthread_mutex_unlock(&PolledFlagLock);
    }
    pthread_barrier_wait(&PolledRoundDone);
  }
  return 0;
}

static void *polled_poller(void *Arg) {
  for (long R = 0; R < PolledRun->Rounds; R++) {
    for (;;) {
      pthread_mutex_lock(&PolledFlagLock);
      long Seen = PolledFlag;
      pthread_mutex_unlock(&PolledFlagLock);
      if (Seen == R + 1)
        break;
      sched_yield();
    }
    PolledRun->Polled(R);
    pthread_barrier_wait(&PolledRoundDone);
  }
  return Arg;
}

static void run_polled_rounds(const struct PolledRounds *Run) {
  PolledRun = Run;
  pthread_barrier_init(&PolledWritten, 0, 3);
  pthread_barrier_init(&PolledRoundDone, 0, 4);
  pthread_t T[3];
  pthread_create(&T[0], 0, polled_concurrent, (void *)0L);
  pthread_create(&T[1], 0, polled_concurrent, (void *)1L);
  pthread_create(&T[2], 0, polled_poller, 0);
  for (long R = 0; R < Run->Rounds; R++) {
    Run->Write(R);
    pthread_barrier_wait(&PolledWritten);
    pthread_barrier_wait(&PolledRoundDone);
  }
  for (int I = 0; I < 3; I++)
    pthread_join(T[I], 0);
}

#endif // HRACE_TEST_POLLED_ROUNDS_H
