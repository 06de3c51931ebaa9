//===-- hrace_test_rounds.h - Two threads in rounds of reads and writes ---===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Stress tests that run two threads, the main one (Me = 0) and one it
// creates (Me = 1), in rounds: in each round both run the read phase at
// once, wait at a barrier, run the write phase and wait again. Whatever a
// write phase does is ordered after both read phases of its round and
// before those of the next, so a report there is false.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_TEST_ROUNDS_H
#define HRACE_TEST_ROUNDS_H

#include <pthread.h>

typedef void (*round_phase)(long Me, long Round);

static struct {
  long Rounds;
  round_phase Read, Write;
  pthread_barrier_t B;
} TwoThreadRounds;

static void *two_thread_rounds_worker(void *Arg) {
  long Me = (long)Arg;
  for (long R = 0; R < TwoThreadRounds.Rounds; R++) {
    TwoThreadRounds.Read(Me, R);
    pthread_barrier_wait(&TwoThreadRounds.B);
    TwoThreadRounds.Write(Me, R);
    pthread_barrier_wait(&TwoThreadRounds.B);
  }
  return 0;
}

static __attribute__((unused)) void
run_two_thread_rounds(long Rounds, round_phase Read, round_phase Write) {
  TwoThreadRounds.Rounds = Rounds;
  TwoThreadRounds.Read = Read;
  TwoThreadRounds.Write = Write;
  pthread_barrier_init(&TwoThreadRounds.B, 0, 2);
  pthread_t T;
  pthread_create(&T, 0, two_thread_rounds_worker, (void *)1);
  two_thread_rounds_worker((void *)0);
  pthread_join(T, 0);
}

// A new segment of the calling thread that orders nothing between the
// threads: it takes and releases a mutex of its own.
static __attribute__((unused)) void new_own_segment(void) {
  static __thread pthread_mutex_t Own = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&Own);
  pthread_mutex_unlock(&Own);
}

#endif // HRACE_TEST_ROUNDS_H
