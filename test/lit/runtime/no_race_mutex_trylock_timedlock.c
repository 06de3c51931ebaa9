// Mutexes taken with pthread_mutex_trylock (retried until it succeeds) and
// pthread_mutex_timedlock (with a distant deadline): a successful trylock or
// timedlock acquires like lock, so the increments are ordered. Silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     Counter = 200
// CHECK-NOT: HybridRace

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>

static int Counter;
static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;

static void *WithTrylock(void *Arg) {
  for (int I = 0; I < 100; ++I) {
    while (pthread_mutex_trylock(&Lock) != 0)
      sched_yield();
    Counter = Counter + 1;
    pthread_mutex_unlock(&Lock);
  }
  return Arg;
}

static void *WithTimedlock(void *Arg) {
  for (int I = 0; I < 100; ++I) {
    struct timespec Deadline;
    clock_gettime(CLOCK_REALTIME, &Deadline);
    Deadline.tv_sec += 60;
    if (pthread_mutex_timedlock(&Lock, &Deadline) != 0)
      return Arg;
    Counter = Counter + 1;
    pthread_mutex_unlock(&Lock);
  }
  return Arg;
}

int main(void) {
  pthread_t A, B;
  pthread_create(&A, NULL, WithTrylock, NULL);
  pthread_create(&B, NULL, WithTimedlock, NULL);
  pthread_join(A, NULL);
  pthread_join(B, NULL);
  printf("Counter = %d\n", Counter);
  return 0;
}
