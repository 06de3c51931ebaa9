// pthread_cond_timedwait and pthread_cond_clockwait (distant deadlines, in
// predicate loops) behave like pthread_cond_wait: the mutex is released and
// re-acquired around the wait, and a signalled wait is ordered after the
// signal. Two rounds of hand-over, each through one of the two waits.
// Silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     Data = 3
// CHECK-NOT: HybridRace

#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static int Data;
static int Round;
static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t Cond = PTHREAD_COND_INITIALIZER;

static struct timespec In60s(clockid_t Clock) {
  struct timespec T;
  clock_gettime(Clock, &T);
  T.tv_sec += 60;
  return T;
}

static void Publish(int NewRound) {
  pthread_mutex_lock(&Lock);
  Round = NewRound;
  pthread_cond_signal(&Cond);
  pthread_mutex_unlock(&Lock);
}

static void *Producer(void *Arg) {
  Data = 1;
  Publish(1);
  pthread_mutex_lock(&Lock);
  struct timespec T = In60s(CLOCK_MONOTONIC);
  while (Round != 2)
    pthread_cond_clockwait(&Cond, &Lock, CLOCK_MONOTONIC, &T);
  pthread_mutex_unlock(&Lock);
  Data = Data + 1;
  Publish(3);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Producer, NULL);
  pthread_mutex_lock(&Lock);
  struct timespec Deadline = In60s(CLOCK_REALTIME);
  while (Round != 1)
    pthread_cond_timedwait(&Cond, &Lock, &Deadline);
  pthread_mutex_unlock(&Lock);
  Data = Data + 1;
  Publish(2);
  pthread_mutex_lock(&Lock);
  while (Round != 3)
    pthread_cond_timedwait(&Cond, &Lock, &Deadline);
  pthread_mutex_unlock(&Lock);
  printf("Data = %d\n", Data);
  pthread_join(T, NULL);
  return 0;
}
