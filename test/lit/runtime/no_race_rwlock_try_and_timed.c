// The try and timed forms of rwlock locking acquire like rdlock and wrlock
// when they succeed: a writer using trywrlock/timedwrlock and a reader using
// tryrdlock/timedrdlock are ordered by the lock. Silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     Value = 100
// CHECK-NOT: HybridRace

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>

static int Value;
static pthread_rwlock_t Lock = PTHREAD_RWLOCK_INITIALIZER;

static struct timespec Deadline(void) {
  struct timespec T;
  clock_gettime(CLOCK_REALTIME, &T);
  T.tv_sec += 60;
  return T;
}

static void *Writer(void *Arg) {
  for (int I = 0; I < 50; ++I) {
    while (pthread_rwlock_trywrlock(&Lock) != 0)
      sched_yield();
    Value = Value + 1;
    pthread_rwlock_unlock(&Lock);
    struct timespec T = Deadline();
    if (pthread_rwlock_timedwrlock(&Lock, &T) != 0)
      return Arg;
    Value = Value + 1;
    pthread_rwlock_unlock(&Lock);
  }
  return Arg;
}

static void *Reader(void *Arg) {
  long Sum = 0;
  for (int I = 0; I < 50; ++I) {
    while (pthread_rwlock_tryrdlock(&Lock) != 0)
      sched_yield();
    Sum += Value;
    pthread_rwlock_unlock(&Lock);
    struct timespec T = Deadline();
    if (pthread_rwlock_timedrdlock(&Lock, &T) != 0)
      return Arg;
    Sum += Value;
    pthread_rwlock_unlock(&Lock);
  }
  return (void *)Sum;
}

int main(void) {
  pthread_t W, R;
  pthread_create(&W, NULL, Writer, NULL);
  pthread_create(&R, NULL, Reader, NULL);
  pthread_join(W, NULL);
  pthread_join(R, NULL);
  printf("Value = %d\n", Value);
  return 0;
}
