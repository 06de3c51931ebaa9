// main reads X plainly under M; T1 stores X atomically under M, which keeps
// the location shared under {M}; main then loads X atomically holding no
// lock (no race: the store and the load are both atomic), and reads X
// plainly: that read is not ordered after T1's store, a race. Dropping the
// atomic pair's report must not drop the store with it.
// msm=long defers a lock set run empty (a suspicion) and forgets the store
// there; it is not run here.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=short not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s
// CHECK-NOT: WARNING
// CHECK:      atomic load done
// CHECK-NEXT: ==================
// CHECK-NEXT: WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 8 at {{.*}} by thread T0 (locks held: none):
// CHECK-NEXT:     #0 main {{.*}}atomic_store_kept_shared_races_a_later_plain_read.c:[[@LINE+33]]
// CHECK-NEXT:   Previous atomic write of size 8 at {{.*}} by thread T1 (locks held: {M1}):
// CHECK-NEXT:     #0 Storer {{.*}}atomic_store_kept_shared_races_a_later_plain_read.c:[[@LINE+15]]
// CHECK-NOT: WARNING

#include "../Inputs/hrace_test_sync.h"

#include <pthread.h>
#include <stdio.h>

pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
long X;
int Read, Stored;

static void *Storer(void *Arg) {
  invisible_wait(&Read);
  pthread_mutex_lock(&M);
  __atomic_store_n(&X, 1, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&M);
  invisible_signal(&Stored);
  return 0;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, 0, Storer, 0);
  pthread_mutex_lock(&M);
  long V = *(volatile long *)&X;
  pthread_mutex_unlock(&M);
  invisible_signal(&Read);
  invisible_wait(&Stored);
  V += __atomic_load_n(&X, __ATOMIC_RELAXED);
  fprintf(stderr, "atomic load done\n");
  V += *(volatile long *)&X;
  pthread_join(T, 0);
  return (int)V & 0;
}
