// A detached thread cannot be joined; it reports its result through a
// semaphore instead. What it wrote before sem_post is ordered before main's
// read after sem_wait. Silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     Result = 99
// CHECK-NOT: HybridRace

#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

static int Result;
static sem_t Done;

static void *Worker(void *Arg) {
  Result = 99;
  sem_post(&Done);
  return Arg;
}

int main(void) {
  sem_init(&Done, 0, 0);
  pthread_t T;
  pthread_create(&T, NULL, Worker, NULL);
  pthread_detach(T);
  sem_wait(&Done);
  printf("Result = %d\n", Result);
  Result = 0;
  return 0;
}
