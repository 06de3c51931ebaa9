// Phase 1: both threads update X under M (Shared-Modified, C = {M1}).
// Phase 2, after a barrier: T2 reads X without a lock, then T1 writes it
// without a lock, unordered with that read. Every machine reports the write
// against T2's read: msm=short from Exclusive-Read, msm=hb from the read it
// keeps, msm=long from the suspicion T2's read made (Exclusive-Read-Write
// remembers that a read made it, so the report names a read).
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>

int X;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t B;
static int T2Read;
static int Seen;

static void *Worker(void *Arg) {
  long Id = (long)Arg;
  for (int I = 0; I < 10; I++) {
    pthread_mutex_lock(&M);
    X++;
    pthread_mutex_unlock(&M);
  }
  pthread_barrier_wait(&B);
  if (Id == 2) {
    Seen = X;
    invisible_signal(&T2Read);
  } else {
    invisible_wait(&T2Read);
    X = 0;
  }
  return NULL;
}

int main(void) {
  pthread_t T1, T2;
  pthread_barrier_init(&B, NULL, 2);
  pthread_create(&T1, NULL, Worker, (void *)1);
  pthread_create(&T2, NULL, Worker, (void *)2);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  return Seen == 20 ? 0 : 1;
}
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Write of size 4 at {{.*}} by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Worker {{.*}}race_write_after_unprotected_read_names_the_read.c:35
// CHECK:        Previous read of size 4 at {{.*}} by thread T2 (locks held: none):
// CHECK-NEXT:     #0 Worker {{.*}}race_write_after_unprotected_read_names_the_read.c:31
// CHECK:      HybridRace: reported 1 warning
