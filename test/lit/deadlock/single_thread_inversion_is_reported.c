// One thread alone takes A then B, and later B then A: no deadlock in this
// run, but the two code paths run by two threads would. Reported, as
// Helgrind does.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// CHECK:      WARNING: HybridRace: lock-order inversion (potential deadlock)
// CHECK-NEXT:   Cycle of 2 locks
// CHECK:        by thread T0:
// CHECK:        by thread T0:
// CHECK:      SUMMARY: HybridRace: lock-order-inversion (potential deadlock) {{.*}}.c:[[@LINE+13]] in main

#include <pthread.h>

int main(void) {
  pthread_mutex_t A, B;
  pthread_mutex_init(&A, 0);
  pthread_mutex_init(&B, 0);
  pthread_mutex_lock(&A);
  pthread_mutex_lock(&B);
  pthread_mutex_unlock(&B);
  pthread_mutex_unlock(&A);
  pthread_mutex_lock(&B);
  pthread_mutex_lock(&A); // @second
  pthread_mutex_unlock(&A);
  pthread_mutex_unlock(&B);
  return 0;
}
