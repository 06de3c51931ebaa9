// Thread T1 takes A then B; later main takes B then A. The runs never
// deadlock (the threads take turns), but the two orders could: the cycle is
// reported once, in every memory state machine, with both stacks of each
// edge and where each lock was first seen.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=verbosity=1 not %t 2>&1 | FileCheck %s --check-prefix=GRAPH
// RUN: env HRACE_OPTIONS=detect_deadlocks=0 %t 2>&1 | FileCheck %s --allow-empty --check-prefix=OFF
// GRAPH: HybridRace: lock-order graph: 2 locks, 2 edges
//
// CHECK:      WARNING: HybridRace: lock-order inversion (potential deadlock)
// CHECK-NEXT:   Cycle of 2 locks in the lock-order graph: [[B:M[0-9]+]] => [[A:M[0-9]+]] => [[B]]
// CHECK-EMPTY:
// CHECK-NEXT:   Mutex [[A]] acquired here while holding mutex [[B]] by thread T0:
// CHECK-NEXT:     #0 main {{.*}}.c:[[@LINE+39]]
// CHECK-NEXT:   Mutex [[B]] previously acquired by the same thread here:
// CHECK-NEXT:     #0 main {{.*}}.c:[[@LINE+36]]
// CHECK-EMPTY:
// CHECK-NEXT:   Mutex [[B]] acquired here while holding mutex [[A]] by thread T1:
// CHECK-NEXT:     #0 TakeAThenB {{.*}}.c:[[@LINE+21]]
// CHECK-NEXT:   Mutex [[A]] previously acquired by the same thread here:
// CHECK-NEXT:     #0 TakeAThenB {{.*}}.c:[[@LINE+18]]
// CHECK-EMPTY:
// CHECK-NEXT:   Mutex [[B]] at 0x{{[0-9a-f]+}} was first observed by thread T1 at:
// CHECK-NEXT:     #0 TakeAThenB {{.*}}.c:[[@LINE+16]]
// CHECK-NEXT:   Mutex [[A]] at 0x{{[0-9a-f]+}} was first observed by thread T1 at:
// CHECK-NEXT:     #0 TakeAThenB {{.*}}.c:[[@LINE+13]]
// CHECK:      SUMMARY: HybridRace: lock-order-inversion (potential deadlock) {{.*}}.c:[[@LINE+26]] in main
// CHECK-NOT:  lock-order inversion
// CHECK:      HybridRace: reported 1 warning
//
// OFF-NOT: HybridRace

#include <pthread.h>

static pthread_mutex_t A = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t B = PTHREAD_MUTEX_INITIALIZER;

static void *TakeAThenB(void *Arg) {
  pthread_mutex_lock(&A); // @t1_a
  pthread_mutex_lock(&B); // @t1_b
  pthread_mutex_unlock(&B);
  pthread_mutex_unlock(&A);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, 0, TakeAThenB, 0);
  pthread_join(T, 0);
  // Repeated: the cycle is reported once.
  for (int I = 0; I < 3; I++) {
    pthread_mutex_lock(&B); // @main_b
    pthread_mutex_lock(&A); // @main_a
    pthread_mutex_unlock(&A);
    pthread_mutex_unlock(&B);
  }
  return 0;
}
