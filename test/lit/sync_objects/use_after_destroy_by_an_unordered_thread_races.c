// A use of a synchronisation object (here a lock) by a thread not ordered
// after the object's destroy is a data race with the destroy, in every
// machine (besides the misuse report of a lock of a destroyed mutex, turned
// off here).
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb:report_misuse=0 not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=short:report_misuse=0 not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long:report_misuse=0 not %t 2>&1 | FileCheck %s

#include "../Inputs/hrace_test_sync.h"

#include <pthread.h>
#include <stdio.h>

pthread_mutex_t M;
int Destroyed;

static void *User(void *Arg) {
  invisible_wait(&Destroyed);
  pthread_mutex_lock(&M); // @lock
  pthread_mutex_unlock(&M);
  return Arg;
}

int main(void) {
  pthread_mutex_init(&M, NULL);
  pthread_t T;
  pthread_create(&T, NULL, User, NULL);
  pthread_mutex_destroy(&M); // @destroy
  invisible_signal(&Destroyed);
  pthread_join(T, NULL);
  return 0;
}

// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Atomic read of size 1 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: {{.*}}):
// CHECK-NEXT:     #0 pthread_mutex_lock
// CHECK-NEXT:     #1 User {{.*}}use_after_destroy_by_an_unordered_thread_races.c:[[@LINE-18]]
// CHECK-NEXT:   Previous write of size 1 at [[ADDR]] by thread T0 (locks held: none):
// CHECK-NEXT:     #0 pthread_mutex_destroy
// CHECK:      HybridRace: reported 1 warning
