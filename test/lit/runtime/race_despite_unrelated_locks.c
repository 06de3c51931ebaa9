// Each thread holds a lock while writing, but not the same lock: nothing
// orders the writes. The report shows which locks each access held, named
// M1, M2 in order of first use, so the user sees the inconsistent locking.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>

int Balance;
static pthread_mutex_t MainLock = PTHREAD_MUTEX_INITIALIZER;   // M1
static pthread_mutex_t ThreadLock = PTHREAD_MUTEX_INITIALIZER; // M2
static int MainWrote;

static void *Thread1(void *Arg) {
  invisible_wait(&MainWrote);
  pthread_mutex_lock(&ThreadLock);
  Balance = 2;
  pthread_mutex_unlock(&ThreadLock);
  return Arg;
}
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Write of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: {M2}):
// CHECK-NEXT:     #0 Thread1 {{.*}}race_despite_unrelated_locks.c:[[@LINE-6]]
// CHECK-NEXT:   Previous write of size 4 at [[ADDR]] by thread T0 (locks held: {M1}):

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Thread1, NULL);
  pthread_mutex_lock(&MainLock);
  Balance = 1;
  // CHECK-NEXT:     #0 main {{.*}}race_despite_unrelated_locks.c:[[@LINE-1]]
  pthread_mutex_unlock(&MainLock);
  invisible_signal(&MainWrote);
  pthread_join(T, NULL);
  return 0;
}
