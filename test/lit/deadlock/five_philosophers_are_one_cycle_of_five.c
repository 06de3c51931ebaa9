// Five philosophers each take their left fork, then their right one. They
// eat in turn (each joined before the next starts), so the run never
// deadlocks; the five orders together could. The report is one cycle of all
// five locks, with an edge per philosopher, not a pair of two.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=verbosity=1 not %t 2>&1 | FileCheck %s --check-prefix=GRAPH
//
// The forks are destroyed before the exit: they left the graph, with their
// five edges.
// GRAPH: HybridRace: lock-order graph: 0 locks, 0 edges
//
// CHECK:      WARNING: HybridRace: lock-order inversion (potential deadlock)
// CHECK-NEXT:   Cycle of 5 locks in the lock-order graph: [[F4:M[0-9]+]] => [[F0:M[0-9]+]] => [[F1:M[0-9]+]] => [[F2:M[0-9]+]] => [[F3:M[0-9]+]] => [[F4]]
// CHECK-EMPTY:
// CHECK-NEXT:   Mutex [[F0]] acquired here while holding mutex [[F4]] by thread T5:
// CHECK-NEXT:     #0 Dine {{.*}}.c:[[@LINE+23]]
// CHECK-NEXT:   Mutex [[F4]] previously acquired by the same thread here:
// CHECK-NEXT:     #0 Dine {{.*}}.c:[[@LINE+20]]
// CHECK:        Mutex [[F1]] acquired here while holding mutex [[F0]] by thread T1:
// CHECK:        Mutex [[F2]] acquired here while holding mutex [[F1]] by thread T2:
// CHECK:        Mutex [[F3]] acquired here while holding mutex [[F2]] by thread T3:
// CHECK:        Mutex [[F4]] acquired here while holding mutex [[F3]] by thread T4:
// CHECK:        Mutex [[F4]] at 0x{{[0-9a-f]+}} was first observed
// CHECK:        Mutex [[F0]] at 0x{{[0-9a-f]+}} was first observed
// CHECK:        Mutex [[F1]] at 0x{{[0-9a-f]+}} was first observed
// CHECK:        Mutex [[F2]] at 0x{{[0-9a-f]+}} was first observed
// CHECK:        Mutex [[F3]] at 0x{{[0-9a-f]+}} was first observed
// CHECK:      SUMMARY: HybridRace: lock-order-inversion (potential deadlock) {{.*}}.c:[[@LINE+11]] in Dine
// CHECK:      HybridRace: reported 1 warning

#include <pthread.h>

#define N 5
static pthread_mutex_t Fork[N];

static void *Dine(void *Arg) {
  long I = (long)Arg;
  pthread_mutex_lock(&Fork[I]); // @left
  pthread_mutex_lock(&Fork[(I + 1) % N]); // @right
  pthread_mutex_unlock(&Fork[(I + 1) % N]);
  pthread_mutex_unlock(&Fork[I]);
  return 0;
}

int main(void) {
  for (int I = 0; I < N; I++)
    pthread_mutex_init(&Fork[I], 0);
  for (long I = 0; I < N; I++) {
    pthread_t T;
    pthread_create(&T, 0, Dine, (void *)I);
    pthread_join(T, 0);
  }
  for (int I = 0; I < N; I++)
    pthread_mutex_destroy(&Fork[I]);
  return 0;
}
