// A semaphore hands items from a producer to a consumer: each item is
// written before sem_post and read after the matching sem_wait, sem_trywait
// (retried) or sem_timedwait. A successful wait is ordered after the post.
// Silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     items: 10 20 30
// CHECK-NOT: HybridRace

#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <time.h>

static int Items[3];
static sem_t Available;

static void *Producer(void *Arg) {
  for (int I = 0; I < 3; ++I) {
    Items[I] = 10 * (I + 1);
    sem_post(&Available);
  }
  return Arg;
}

int main(void) {
  sem_init(&Available, 0, 0);
  pthread_t T;
  pthread_create(&T, NULL, Producer, NULL);
  sem_wait(&Available);
  int First = Items[0];
  while (sem_trywait(&Available) != 0)
    sched_yield();
  int Second = Items[1];
  struct timespec Deadline;
  clock_gettime(CLOCK_REALTIME, &Deadline);
  Deadline.tv_sec += 60;
  sem_timedwait(&Available, &Deadline);
  int Third = Items[2];
  printf("items: %d %d %d\n", First, Second, Third);
  pthread_join(T, NULL);
  sem_destroy(&Available);
  return 0;
}
