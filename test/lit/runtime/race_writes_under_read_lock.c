// Two threads write while each holds the same rwlock for reading. Read
// holds do not exclude each other, and a read unlock orders only a later
// write lock, not a later read lock: the writes race although both
// accesses list the lock as held.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>

int Hits;
static pthread_rwlock_t Lock = PTHREAD_RWLOCK_INITIALIZER;
static int MainWrote;

static void *Thread1(void *Arg) {
  invisible_wait(&MainWrote);
  pthread_rwlock_rdlock(&Lock);
  Hits = 2;
  pthread_rwlock_unlock(&Lock);
  return Arg;
}
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Write of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: {M1}):
// CHECK-NEXT:     #0 Thread1 {{.*}}race_writes_under_read_lock.c:[[@LINE-6]]
// CHECK-NEXT:   Previous write of size 4 at [[ADDR]] by thread T0 (locks held: {M1}):

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Thread1, NULL);
  pthread_rwlock_rdlock(&Lock);
  Hits = 1;
  // CHECK-NEXT:     #0 main {{.*}}race_writes_under_read_lock.c:[[@LINE-1]]
  pthread_rwlock_unlock(&Lock);
  invisible_signal(&MainWrote);
  pthread_join(T, NULL);
  return 0;
}
