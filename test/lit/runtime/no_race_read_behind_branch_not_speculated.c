// Only the thread that arrives second reads both slots, behind a branch on
// the result of a fetch_add; the first thread never reads the other's slot.
// The program is race-free, but at -O1 the optimiser may turn the branch
// into a select and load the slots in both threads. Instrumented code must
// not be given loads the program does not make (ThreadSanitizer's functions
// carry sanitize_thread, which forbids this speculation): silent.
//
// The invisible signal makes the first thread finish before the second
// writes its slot, the schedule in which a speculated load would race.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     sum = 2
// CHECK-NOT: HybridRace

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

int Slot[2];
static atomic_int Arrived;
static int FirstDone;

static void *Worker(void *Arg) {
  long Me = (long)Arg;
  if (Me == 1)
    invisible_wait(&FirstDone);
  Slot[Me] = 1;
  void *Result = NULL;
  if (atomic_fetch_add(&Arrived, 1) == 1)
    Result = (void *)(long)(Slot[0] + Slot[1]);
  if (Me == 0)
    invisible_signal(&FirstDone);
  return Result;
}

int main(void) {
  pthread_t T[2];
  for (long I = 0; I < 2; ++I)
    pthread_create(&T[I], NULL, Worker, (void *)I);
  long Sum = 0;
  for (int I = 0; I < 2; ++I) {
    void *R;
    pthread_join(T[I], &R);
    Sum += (long)R;
  }
  printf("sum = %ld\n", Sum);
  return 0;
}
