//===-- hrace_test_two_threads.h - T1 and T2, created and joined ---------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The commonest shape of a racy test: main creates T1 running First and T2
// running Second, in that order (so reports name them T1 and T2), and joins
// both; the two order themselves with hrace_test_sync.h.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_TEST_TWO_THREADS_H
#define HRACE_TEST_TWO_THREADS_H

#include <pthread.h>

static __attribute__((unused)) void run_two_threads(void *(*First)(void *),
                                                    void *(*Second)(void *)) {
  pthread_t T1, T2;
  pthread_create(&T1, 0, First, 0);
  pthread_create(&T2, 0, Second, 0);
  pthread_join(T1, 0);
  pthread_join(T2, 0);
}

#endif // HRACE_TEST_TWO_THREADS_H
