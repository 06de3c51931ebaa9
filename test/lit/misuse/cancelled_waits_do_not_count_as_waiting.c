// A thread cancelled inside pthread_cond_wait or sem_wait no longer waits:
// once it is joined, destroying the condition variable and the semaphore
// is correct and nothing is reported.
//
// RUN: %hrace_cc %s -o %t
// RUN: %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK: done
// CHECK-NOT: HybridRace

#include "hrace_test_sync.h"
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t C;
static sem_t S;
static int Ready;

static void Unlock(void *Arg) { pthread_mutex_unlock(&M); }

static void *CondWaiter(void *Arg) {
  pthread_mutex_lock(&M);
  invisible_signal(&Ready);
  pthread_cleanup_push(Unlock, 0);
  for (;;)
    pthread_cond_wait(&C, &M);
  pthread_cleanup_pop(1);
  return Arg;
}

static void *SemWaiter(void *Arg) {
  for (;;)
    sem_wait(&S);
  return Arg;
}

int main(void) {
  pthread_cond_init(&C, 0);
  sem_init(&S, 0, 0);
  pthread_t T, U;
  pthread_create(&T, 0, CondWaiter, 0);
  invisible_wait(&Ready);
  // Locks only once the waiter's wait has released the mutex.
  pthread_mutex_lock(&M);
  pthread_mutex_unlock(&M);
  pthread_cancel(T);
  pthread_join(T, 0);
  pthread_create(&U, 0, SemWaiter, 0);
  pthread_cancel(U);
  pthread_join(U, 0);
  pthread_cond_destroy(&C);
  sem_destroy(&S);
  fprintf(stderr, "done\n");
  return 0;
}
