// Producer/consumer with a condition variable and a predicate loop: the
// producer writes the data (outside the lock), sets the flag and signals
// under the mutex; the consumer waits until the flag is set and then reads
// the data. The wait's unlock/relock of the mutex and the signal -> wait
// return edge order the read after the write. Silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     Data = 42
// CHECK-NOT: HybridRace

#include <pthread.h>
#include <stdio.h>

static int Data;
static int Ready;
static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t Cond = PTHREAD_COND_INITIALIZER;

static void *Producer(void *Arg) {
  Data = 42;
  pthread_mutex_lock(&Lock);
  Ready = 1;
  pthread_cond_signal(&Cond);
  pthread_mutex_unlock(&Lock);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Producer, NULL);
  pthread_mutex_lock(&Lock);
  while (!Ready)
    pthread_cond_wait(&Cond, &Lock);
  pthread_mutex_unlock(&Lock);
  printf("Data = %d\n", Data);
  pthread_join(T, NULL);
  return 0;
}
