// main writes X plainly under M; T1 loads it atomically under M, which keeps
// the location shared under {M}; T2 then loads it atomically holding no
// lock, with nothing ordering it after main's write: a race between T2's
// load and main's write. The location's state keeps T1's load as its
// segment; the report names main's plain write, not the atomic load (two
// atomics never race). msm=long defers a lock set run empty to a second
// unprotected access and is not run here.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=short not %t 2>&1 | FileCheck %s --check-prefixes=CHECK,SHORT
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s --check-prefixes=CHECK,HB
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Atomic read of size 8 at {{.*}} by thread T2 (locks held: none):
// CHECK-NEXT:     #0 UnlockedLoader {{.*}}unlocked_atomic_load_races_a_locked_write_kept_shared_by_a_locked_load.c:[[@LINE+27]]
// CHECK-NEXT:   Previous write of size 8 at {{.*}} by thread T0 (locks held: {M1}):
// CHECK-NEXT:     #0 main {{.*}}unlocked_atomic_load_races_a_locked_write_kept_shared_by_a_locked_load.c:[[@LINE+33]]
// SHORT-NEXT:   Detected by msm=short: the candidate lock set {M1} of this shared location ran empty: this atomic access holds none, and T0, a thread that shared the location, accessed it plainly.
// HB-NEXT:      Detected by msm=hb: one access is atomic, the other is not, and neither happens before the other.
// CHECK-NOT: WARNING

#include "../Inputs/hrace_test_sync.h"

#include <pthread.h>
#include <stdio.h>

pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
long X;
int Written, LockedLoad;

static void *LockedLoader(void *Arg) {
  invisible_wait(&Written);
  pthread_mutex_lock(&M);
  long V = __atomic_load_n(&X, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&M);
  invisible_signal(&LockedLoad);
  return (void *)V;
}

static void *UnlockedLoader(void *Arg) {
  invisible_wait(&LockedLoad);
  return (void *)__atomic_load_n(&X, __ATOMIC_RELAXED);
}

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, 0, LockedLoader, 0);
  pthread_create(&T2, 0, UnlockedLoader, 0);
  pthread_mutex_lock(&M);
  X = 1;
  pthread_mutex_unlock(&M);
  invisible_signal(&Written);
  pthread_join(T1, 0);
  pthread_join(T2, 0);
  return 0;
}
