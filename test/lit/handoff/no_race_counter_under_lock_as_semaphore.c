// A counting semaphore built from a mutex and a counter: Post increments
// Count under M; Wait polls (lock; take one if Count > 0; unlock; yield).
// The producer writes Data[i] without a lock, then posts, three times; the
// consumer waits three times and reads Data[i] after the i-th wait. Data is
// a global, outside any hand-off's scope: the consumer is ordered after the
// producer by the polling loop in Wait (marked by the compiler; its exit
// orders the waiter after the writers of the Count it read under M), and
// Count is a read-modify-write counter, so after the writer of every
// increment, not only the last.
// "producer-first": all three posts come before the first wait (Count=3);
// "consumer-first": the consumer is polling before the first post.
//
// RUN: %hrace_cc -O0 %s -o %t.O0 && %hrace_cc -O2 %s -o %t.O2
// RUN: %t.O0 producer-first 2>&1 | FileCheck %s
// RUN: %t.O2 producer-first 2>&1 | FileCheck %s
// RUN: %t.O0 consumer-first 2>&1 | FileCheck %s
// RUN: %t.O2 consumer-first 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t.O0 producer-first 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t.O2 consumer-first 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t.O0 consumer-first 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t.O2 producer-first 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     sum=60

#include "hrace_test_sync.h"
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int Data[3], Count;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static int ProducerFirst, ProducerDone;

static void Post(void) {
  pthread_mutex_lock(&M);
  Count++;
  pthread_mutex_unlock(&M);
}

static void Wait(void) {
  for (;;) {
    pthread_mutex_lock(&M);
    if (Count > 0) {
      Count--;
      pthread_mutex_unlock(&M);
      return;
    }
    pthread_mutex_unlock(&M);
    sched_yield();
  }
}

static void *Producer(void *Arg) {
  for (int I = 0; I < 3; I++) {
    Data[I] = 10 * (I + 1);
    Post();
  }
  invisible_signal(&ProducerDone);
  return Arg;
}

static void *Consumer(void *Arg) {
  // Ordering only: in "producer-first" Count is 3 before the first Wait;
  // the polling loop in Wait then orders the consumer after the producer.
  if (ProducerFirst)
    invisible_wait(&ProducerDone);
  int Sum = 0;
  for (int I = 0; I < 3; I++) {
    Wait();
    Sum += Data[I];
  }
  printf("sum=%d\n", Sum);
  return Arg;
}

int main(int Argc, char **Argv) {
  ProducerFirst = Argc > 1 && !strcmp(Argv[1], "producer-first");
  pthread_t P, C;
  pthread_create(&C, NULL, Consumer, NULL);
  if (!ProducerFirst) {
    // Ordering only: let the consumer start polling before the first post.
    struct timespec Ts = {0, 100 * 1000 * 1000};
    nanosleep(&Ts, NULL);
  }
  pthread_create(&P, NULL, Producer, NULL);
  pthread_join(P, NULL);
  pthread_join(C, NULL);
  return 0;
}
