// Two threads increment a counter under one normal mutex and main reads it
// after joining: unlock -> lock orders every increment, so msm=hb is silent
// and the program's own exit status (0) is kept.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     Counter = 400
// CHECK-NOT: HybridRace

#include <pthread.h>
#include <stdio.h>

static int Counter;
static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;

static void *Worker(void *Arg) {
  for (int I = 0; I < 200; ++I) {
    pthread_mutex_lock(&Lock);
    Counter = Counter + 1;
    pthread_mutex_unlock(&Lock);
  }
  return Arg;
}

int main(void) {
  pthread_t T[2];
  for (int I = 0; I < 2; ++I)
    pthread_create(&T[I], NULL, Worker, NULL);
  for (int I = 0; I < 2; ++I)
    pthread_join(T[I], NULL);
  printf("Counter = %d\n", Counter);
  return 0;
}
