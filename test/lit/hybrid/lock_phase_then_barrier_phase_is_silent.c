// Helgrind+'s precondition 2 (seeds/000, section 4): one variable protected
// by a lock in one phase and by a barrier in the next. Phase 1: both threads
// update X under M (Shared-Modified, C = {M1}). Phase 2: after a barrier, T1
// alone writes X without a lock; after another barrier T2 reads it without a
// lock. The candidate set runs empty, but every access is ordered by the
// barriers, so no machine reports.
//
// RUN: %hrace_cc %s -o %t
// RUN: %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK: X=112

#include <pthread.h>
#include <stdio.h>

int X;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t B;
static int Seen;

static void *Worker(void *Arg) {
  long Id = (long)Arg;
  for (int I = 0; I < 50; I++) {
    pthread_mutex_lock(&M);
    X++;
    pthread_mutex_unlock(&M);
  }
  pthread_barrier_wait(&B);
  if (Id == 1)
    X += 10;
  pthread_barrier_wait(&B);
  if (Id == 2)
    Seen = X + 2;
  return NULL;
}

int main(void) {
  pthread_t T1, T2;
  pthread_barrier_init(&B, NULL, 2);
  pthread_create(&T1, NULL, Worker, (void *)1);
  pthread_create(&T2, NULL, Worker, (void *)2);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("X=%d\n", Seen);
  return 0;
}
