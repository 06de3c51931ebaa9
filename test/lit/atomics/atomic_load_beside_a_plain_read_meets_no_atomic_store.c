// main reads X plainly, T1 then loads it atomically with no order between
// them (two reads), and main then stores it atomically: the store meets an
// atomic load, and atomics never race with each other. msm=short used to
// keep the atomic load as a plain reader of Shared-Read (with no lock set
// to protect it) and reported it against the store, as a read by another
// thread after main's own read. The load is still kept: main's plain
// write after the store races with it, and is reported in every machine.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=short not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s
// CHECK-NOT: WARNING
// CHECK:     atomic store done
// CHECK-NEXT: ==================
// CHECK-NEXT: WARNING: HybridRace: data race
// CHECK-NEXT:   Write of size 8 at {{.*}} by thread T0
// CHECK:      Previous atomic read of size 8 at {{.*}} by thread T1
// CHECK-NEXT:   #0 Loader {{.*}}atomic_load_beside_a_plain_read_meets_no_atomic_store.c:[[@LINE+13]]
// CHECK-NOT: WARNING

#include "../Inputs/hrace_test_sync.h"

#include <pthread.h>
#include <stdio.h>

long X;
int Read, Loaded;

static void *Loader(void *Arg) {
  invisible_wait(&Read);
  long V = __atomic_load_n(&X, __ATOMIC_RELAXED);
  invisible_signal(&Loaded);
  return (void *)V;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, 0, Loader, 0);
  long V = X;
  invisible_signal(&Read);
  invisible_wait(&Loaded);
  __atomic_store_n(&X, V + 1, __ATOMIC_RELAXED);
  fprintf(stderr, "atomic store done\n");
  X = V + 2;
  pthread_join(T, 0);
  return 0;
}
