// Three threads pass one pthread barrier several times: in each phase every
// thread writes its own slot, and after the barrier reads its neighbours'
// slots, which they overwrite in the next phase. A barrier orders everything
// before it in every thread before everything after it, phase after phase.
// Silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     total = 60
// CHECK-NOT: HybridRace

#include <pthread.h>
#include <stdio.h>

enum { kThreads = 3, kPhases = 5 };
static int Slot[kThreads];
static long Seen[kThreads];
static pthread_barrier_t Barrier;

static void *Worker(void *Arg) {
  long Me = (long)Arg;
  for (int Phase = 0; Phase < kPhases; ++Phase) {
    Slot[Me] = Phase;
    pthread_barrier_wait(&Barrier);
    for (int I = 0; I < kThreads; ++I)
      if (I != Me)
        Seen[Me] += Slot[I];
    pthread_barrier_wait(&Barrier);
  }
  return NULL;
}

int main(void) {
  pthread_barrier_init(&Barrier, NULL, kThreads);
  pthread_t T[kThreads];
  for (long I = 0; I < kThreads; ++I)
    pthread_create(&T[I], NULL, Worker, (void *)I);
  long Total = 0;
  for (int I = 0; I < kThreads; ++I) {
    pthread_join(T[I], NULL);
    Total += Seen[I];
  }
  printf("total = %ld\n", Total);
  pthread_barrier_destroy(&Barrier);
  return 0;
}
