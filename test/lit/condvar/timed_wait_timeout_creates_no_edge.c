// A timed wait that times out, and a wait loop that exits without any
// signaller having written what its condition read, create no ordering: a
// real race on DATA behind them is still reported.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// CHECK: WARNING: HybridRace: data race
// CHECK: #0 main {{.*}}timed_wait_timeout_creates_no_edge.c:44

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <time.h>

int DATA, FLAG;
static pthread_mutex_t L = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t CV = PTHREAD_COND_INITIALIZER;
static int Wrote;

static void *Writer(void *Arg) {
  DATA = 1;
  pthread_mutex_lock(&L);
  pthread_cond_signal(&CV);
  pthread_mutex_unlock(&L);
  invisible_signal(&Wrote);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Writer, NULL);
  invisible_wait(&Wrote);
  struct timespec Deadline;
  clock_gettime(CLOCK_REALTIME, &Deadline);
  Deadline.tv_nsec += 1000 * 1000;
  if (Deadline.tv_nsec >= 1000000000) {
    Deadline.tv_sec++;
    Deadline.tv_nsec -= 1000000000;
  }
  pthread_mutex_lock(&L);
  while (!FLAG && pthread_cond_timedwait(&CV, &L, &Deadline) == 0) {
  }
  pthread_mutex_unlock(&L);
  DATA = 2;
  pthread_join(T, NULL);
  printf("DATA=%d\n", DATA);
  return 0;
}
