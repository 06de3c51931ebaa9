// Unlocking a mutex no thread holds, and one another thread holds, each
// reported once with the mutex's name, where it was first seen and who
// holds it. With report_misuse=0 nothing is reported.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=report_misuse=0 %t 2>&1 | FileCheck %s --check-prefix=OFF
//
// CHECK:      WARNING: HybridRace: unlock of an unlocked mutex (pid={{[0-9]+}})
// CHECK-NEXT:   Thread T0 unlocks mutex [[M:M[0-9]+]] at [[ADDR:0x[0-9a-f]+]], which no thread holds:
// CHECK-NEXT:     #0 main {{.*}}.c:[[@LINE+39]]
// CHECK-NEXT:   Mutex [[M]] at [[ADDR]] was first observed by thread T0 at:
// CHECK-NEXT:     #0 main {{.*}}.c:[[@LINE+36]]
// CHECK:      SUMMARY: HybridRace: unlock-of-unlocked-mutex {{.*}}.c:[[@LINE+36]] in main
//
// CHECK:      WARNING: HybridRace: unlock of a mutex held by another thread
// CHECK-NEXT:   Thread T0 unlocks mutex [[M]] at [[ADDR]], which it does not hold:
// CHECK-NEXT:     #0 main {{.*}}.c:[[@LINE+36]]
// CHECK-NEXT:   Mutex [[M]] at [[ADDR]] is held by thread T1
// CHECK-NEXT:   Mutex [[M]] was first observed by thread T0 at:
// CHECK:        Thread T1 {{.*}} created by T0 at:
// CHECK:      SUMMARY: HybridRace: unlock-of-mutex-held-by-another-thread {{.*}}.c:[[@LINE+32]] in main
// CHECK:      HybridRace: reported 2 warnings
//
// OFF-NOT: HybridRace
// OFF: done

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t M;
static int Locked, Unlocked;

static void *Holder(void *Arg) {
  pthread_mutex_lock(&M);
  invisible_signal(&Locked);
  invisible_wait(&Unlocked);
  pthread_mutex_unlock(&M);
  return Arg;
}

int main(void) {
  pthread_mutexattr_t Attr;
  pthread_mutexattr_init(&Attr);
  // An error-checking mutex refuses the bad unlocks (EPERM), so the program
  // goes on; a normal one would be corrupted.
  pthread_mutexattr_settype(&Attr, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&M, &Attr); // @init
  pthread_mutex_unlock(&M); // @unlocked
  pthread_t T;
  pthread_create(&T, 0, Holder, 0);
  invisible_wait(&Locked);
  pthread_mutex_unlock(&M); // @other
  invisible_signal(&Unlocked);
  pthread_join(T, 0);
  fprintf(stderr, "done\n");
  return 0;
}
