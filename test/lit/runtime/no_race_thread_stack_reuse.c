// glibc reuses the stack of a finished thread for the next one. Detached
// threads run one after another, each filling an array on its own stack;
// nothing orders them, and a new thread often gets the old one's stack at
// the same addresses. A new thread's stack carries no history: silent.
//
// The invisible signals only start each thread after the previous one is
// done with its array.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     8 threads done
// CHECK-NOT: HybridRace

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <time.h>

enum { kThreads = 8 };
static int Done[kThreads];

__attribute__((noinline)) static long Fill(volatile int *Array, int N) {
  long Sum = 0;
  for (int I = 0; I < N; ++I)
    Array[I] = I;
  for (int I = 0; I < N; ++I)
    Sum += Array[I];
  return Sum;
}

static void *Worker(void *Arg) {
  int Local[256];
  Fill(Local, 256);
  invisible_signal(&Done[(long)Arg]);
  return NULL;
}

int main(void) {
  for (long I = 0; I < kThreads; ++I) {
    pthread_t T;
    pthread_create(&T, NULL, Worker, (void *)I);
    pthread_detach(T);
    invisible_wait(&Done[I]);
    // Give the thread time to exit so that its stack is free again.
    struct timespec Pause = {0, 2 * 1000 * 1000};
    nanosleep(&Pause, NULL);
  }
  printf("%d threads done\n", kThreads);
  return 0;
}
