// A thread locking a normal mutex it already holds deadlocks on itself: the
// report comes before the call blocks (halt_on_error ends the run there,
// so the test does not hang). An error-checking mutex returns EDEADLK
// instead; the relock is still reported. A recursive mutex, also one made
// by the static initialiser (no init call to see), is silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=halt_on_error=1 not %t normal 2>&1 | FileCheck %s
// RUN: not %t errorcheck 2>&1 | FileCheck %s
// RUN: %t recursive 2>&1 | FileCheck %s --check-prefix=RECURSIVE
// RUN: env HRACE_OPTIONS=halt_on_error=1 not %t rwlock 2>&1 | FileCheck %s --check-prefix=RWLOCK
//
// CHECK:      WARNING: HybridRace: relock of a non-recursive mutex (self-deadlock)
// CHECK-NEXT:   Thread T0 locks mutex [[M:M[0-9]+]] at 0x{{[0-9a-f]+}}, which it already holds:
// CHECK-NEXT:     #0 Relock {{.*}}.c:[[@LINE+22]]
// CHECK:      SUMMARY: HybridRace: double-lock-of-mutex {{.*}}.c:[[@LINE+21]] in Relock
//
// RWLOCK:      WARNING: HybridRace: relock of a non-recursive mutex (self-deadlock)
// RWLOCK-NEXT:   Thread T0 locks reader-writer lock {{M[0-9]+}} at 0x{{[0-9a-f]+}}, which it already holds:
//
// A write lock of a reader-writer lock the thread holds for reading waits
// for itself too.
//
// RECURSIVE-NOT: HybridRace
// RECURSIVE: recursive: 0
// RECURSIVE-NOT: HybridRace

#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t Static = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

static __attribute__((noinline)) int Relock(pthread_mutex_t *M) {
  pthread_mutex_lock(M);
  int Res = pthread_mutex_lock(M); // @relock
  pthread_mutex_unlock(M);
  if (!Res)
    pthread_mutex_unlock(M);
  return Res;
}

int main(int Argc, char **Argv) {
  pthread_mutex_t M;
  pthread_mutexattr_t Attr;
  pthread_mutexattr_init(&Attr);
  if (!strcmp(Argv[1], "rwlock")) {
    static pthread_rwlock_t R = PTHREAD_RWLOCK_INITIALIZER;
    pthread_rwlock_rdlock(&R);
    return pthread_rwlock_wrlock(&R);
  }
  if (!strcmp(Argv[1], "recursive")) {
    pthread_mutexattr_settype(&Attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&M, &Attr);
    fprintf(stderr, "recursive: %d\n", Relock(&M) + Relock(&Static));
    return 0;
  }
  pthread_mutexattr_settype(&Attr, !strcmp(Argv[1], "normal")
                                       ? PTHREAD_MUTEX_NORMAL
                                       : PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&M, &Attr);
  return Relock(&M) == 0;
}
