// A thread returns while it still holds two locks: reported once, with each
// lock and where the thread took it.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
//
// CHECK:      WARNING: HybridRace: thread exit with locks held
// CHECK-NEXT:   Thread T1 exits while holding 2 locks:
// CHECK-NEXT:     #0 Leaky {{.*}}.c:[[@LINE+15]]
// CHECK-NEXT:   Mutex [[A:M[0-9]+]] at 0x{{[0-9a-f]+}}
// CHECK-NEXT:   Mutex [[A]] was acquired at:
// CHECK-NEXT:     #0 Leaky {{.*}}.c:[[@LINE+12]]
// CHECK:        Reader-writer lock [[B:M[0-9]+]] at 0x{{[0-9a-f]+}}
// CHECK-NEXT:   Reader-writer lock [[B]] was acquired at:
// CHECK-NEXT:     #0 Leaky {{.*}}.c:[[@LINE+10]]
// CHECK:      SUMMARY: HybridRace: thread-exit-holding-locks {{.*}}.c:[[@LINE+8]] in Leaky

#include <pthread.h>

static pthread_mutex_t A = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t B = PTHREAD_RWLOCK_INITIALIZER;

static void *Leaky(void *Arg) {
  pthread_mutex_lock(&A); // @first
  pthread_rwlock_rdlock(&B); // @second
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, 0, Leaky, 0);
  pthread_join(T, 0);
  return 0;
}
