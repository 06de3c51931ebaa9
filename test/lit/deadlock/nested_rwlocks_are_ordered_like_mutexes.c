// Reader-writer locks are nodes of the lock-order graph whatever the mode of
// the hold (as in Helgrind): T1 read-locks R1 and then write-locks R2, main
// read-locks R2 and then R1. A writer waiting for R2 behind main's read
// hold, and main waiting for R1 behind a writer queued there, deadlock.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
//
// CHECK:      WARNING: HybridRace: lock-order inversion (potential deadlock)
// CHECK-NEXT:   Cycle of 2 locks
// CHECK:        Mutex {{M[0-9]+}} acquired here while holding mutex {{M[0-9]+}} by thread T0:
// CHECK-NEXT:     #0 main {{.*}}.c:[[@LINE+22]]
// CHECK:        acquired here while holding mutex {{M[0-9]+}} by thread T1:
// CHECK-NEXT:     #0 Writer {{.*}}.c:[[@LINE+9]]

#include <pthread.h>

static pthread_rwlock_t R1 = PTHREAD_RWLOCK_INITIALIZER;
static pthread_rwlock_t R2 = PTHREAD_RWLOCK_INITIALIZER;

static void *Writer(void *Arg) {
  pthread_rwlock_rdlock(&R1);
  pthread_rwlock_wrlock(&R2); // @t1_r2
  pthread_rwlock_unlock(&R2);
  pthread_rwlock_unlock(&R1);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, 0, Writer, 0);
  pthread_join(T, 0);
  pthread_rwlock_rdlock(&R2);
  pthread_rwlock_rdlock(&R1); // @main_r1
  pthread_rwlock_unlock(&R1);
  pthread_rwlock_unlock(&R2);
  return 0;
}
