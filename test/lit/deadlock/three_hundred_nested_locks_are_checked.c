// Four threads in turn each hold 300 locks at once, taken in one order: the
// graph gets an edge from every held lock to each new one (44,850 edges,
// searched once each; the later threads find them all in the graph). Then
// one thread takes the last lock before the first: a single report, of the
// shortest cycle (two locks). It finishes (no time limit here: the
// benchmarks measure time; a search per acquisition would take minutes).
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
//
// CHECK:      WARNING: HybridRace: lock-order inversion (potential deadlock)
// CHECK-NEXT:   Cycle of 2 locks
// CHECK-NOT:  WARNING
// CHECK:      HybridRace: reported 1 warning

#include <pthread.h>

#define N 300
static pthread_mutex_t L[N];

static void *NestAll(void *Arg) {
  for (int I = 0; I < N; I++)
    pthread_mutex_lock(&L[I]);
  for (int I = N; I-- > 0;)
    pthread_mutex_unlock(&L[I]);
  return Arg;
}

int main(void) {
  for (int I = 0; I < N; I++)
    pthread_mutex_init(&L[I], 0);
  for (int R = 0; R < 4; R++) {
    pthread_t T;
    pthread_create(&T, 0, NestAll, 0);
    pthread_join(T, 0);
  }
  pthread_mutex_lock(&L[N - 1]);
  pthread_mutex_lock(&L[0]);
  pthread_mutex_unlock(&L[0]);
  pthread_mutex_unlock(&L[N - 1]);
  return 0;
}
