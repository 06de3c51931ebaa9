// Destroying a mutex another thread holds, and destroying a mutex twice.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
//
// CHECK:      WARNING: HybridRace: destroy of a locked mutex
// CHECK-NEXT:   Thread T0 destroys mutex [[M:M[0-9]+]] at 0x{{[0-9a-f]+}}, which is held:
// CHECK-NEXT:     #0 main {{.*}}.c:[[@LINE+28]]
// CHECK-NEXT:   Mutex [[M]] at 0x{{[0-9a-f]+}} is held by thread T1
// CHECK:      SUMMARY: HybridRace: destroy-of-locked-mutex
// CHECK-NOT:  returned an error
// CHECK:      WARNING: HybridRace: destroy of an invalid mutex
// CHECK-NEXT:   Thread T0 destroys mutex at 0x{{[0-9a-f]+}}, which was destroyed before:
// CHECK-NEXT:     #0 main {{.*}}.c:[[@LINE+26]]
// CHECK:      HybridRace: reported 2 warnings

#include "hrace_test_sync.h"
#include <pthread.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static int Locked, Release;

static void *Holder(void *Arg) {
  pthread_mutex_lock(&M);
  invisible_signal(&Locked);
  invisible_wait(&Release);
  pthread_mutex_unlock(&M);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, 0, Holder, 0);
  invisible_wait(&Locked);
  // glibc refuses (EBUSY); the misuse is reported, not the error as well.
  pthread_mutex_destroy(&M); // @locked
  invisible_signal(&Release);
  pthread_join(T, 0);
  pthread_mutex_destroy(&M);
  pthread_mutex_destroy(&M); // @twice
  return 0;
}
