// A thread ends with pthread_exit called from a nested function instead of
// returning: its writes are still ordered before the join, and the value
// passed to pthread_exit is what pthread_join returns. Silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     Result = 5, exit value 11
// CHECK-NOT: HybridRace

#include <pthread.h>
#include <stdio.h>

static int Result;

__attribute__((noinline)) static void Finish(int Value) {
  Result = Value;
  pthread_exit((void *)11);
}

static void *Worker(void *Arg) {
  Finish(5);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Worker, NULL);
  void *Ret;
  pthread_join(T, &Ret);
  printf("Result = %d, exit value %ld\n", Result, (long)Ret);
  Result = 0;
  return 0;
}
