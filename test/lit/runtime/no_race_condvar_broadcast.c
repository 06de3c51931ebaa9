// A broadcast wakes several waiters: each waits in a predicate loop for the
// "go" flag and then reads the configuration main wrote before setting the
// flag. Every waiter is ordered after the broadcaster. Silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     sum = 21
// CHECK-NOT: HybridRace

#include <pthread.h>
#include <stdio.h>

static int Config[3];
static int Go;
static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t Cond = PTHREAD_COND_INITIALIZER;

static void *Waiter(void *Arg) {
  pthread_mutex_lock(&Lock);
  while (!Go)
    pthread_cond_wait(&Cond, &Lock);
  pthread_mutex_unlock(&Lock);
  return (void *)(long)(Config[0] + Config[1] + Config[2]);
}

int main(void) {
  pthread_t T[3];
  for (int I = 0; I < 3; ++I)
    pthread_create(&T[I], NULL, Waiter, NULL);
  Config[0] = 1;
  Config[1] = 2;
  Config[2] = 4;
  pthread_mutex_lock(&Lock);
  Go = 1;
  pthread_cond_broadcast(&Cond);
  pthread_mutex_unlock(&Lock);
  long Sum = 0;
  for (int I = 0; I < 3; ++I) {
    void *R;
    pthread_join(T[I], &R);
    Sum += (long)R;
  }
  printf("sum = %ld\n", Sum);
  return 0;
}
