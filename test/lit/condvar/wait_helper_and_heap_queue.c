// Wait loops the compiler finds through a helper function: the loop is in the
// caller and pthread_cond_wait in a helper that is not inlined (noinline) or
// is (-O2, static inline). The mutex and condition variable live in a
// heap-allocated struct. The signal comes first (lost), so only the marked
// loop exit orders the consumer after the producer.
//
// RUN: %hrace_cc -O0 %s -o %t.O0 && %hrace_cc -O2 %s -o %t.O2
// RUN: %t.O0 2>&1 | FileCheck %s
// RUN: %t.O2 2>&1 | FileCheck %s
// RUN: %t.O0 inline 2>&1 | FileCheck %s
// RUN: %t.O2 inline 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK: item=7 item=7

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct Queue {
  pthread_mutex_t Mu;
  pthread_cond_t Cv;
  int Ready;
  int Item;
};

static int Produced;

__attribute__((noinline)) static void WaitOnce(struct Queue *Q) {
  pthread_cond_wait(&Q->Cv, &Q->Mu);
}

static inline void WaitReady(struct Queue *Q) {
  while (!Q->Ready)
    pthread_cond_wait(&Q->Cv, &Q->Mu);
}

static void *Producer(void *Arg) {
  struct Queue *Q = Arg;
  Q->Item = 7;
  pthread_mutex_lock(&Q->Mu);
  Q->Ready = 1;
  pthread_cond_signal(&Q->Cv);
  pthread_mutex_unlock(&Q->Mu);
  invisible_signal(&Produced);
  return NULL;
}

int main(int Argc, char **Argv) {
  (void)Argv;
  struct Queue *Q = calloc(1, sizeof(*Q));
  pthread_mutex_init(&Q->Mu, NULL);
  pthread_cond_init(&Q->Cv, NULL);
  pthread_t T;
  pthread_create(&T, NULL, Producer, Q);
  invisible_wait(&Produced);
  pthread_mutex_lock(&Q->Mu);
  if (Argc > 1)
    WaitReady(Q);
  else
    while (!Q->Ready)
      WaitOnce(Q);
  pthread_mutex_unlock(&Q->Mu);
  int First = Q->Item;
  Q->Item = First;
  printf("item=%d item=%d\n", First, Q->Item);
  pthread_join(T, NULL);
  free(Q);
  return 0;
}
