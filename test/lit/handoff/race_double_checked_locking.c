// Double-checked locking without atomics: Get() reads Instance without the
// lock and takes M only while it is NULL. T1 creates the object under M;
// T2, after T1 finished, sees Instance set, never takes M and reads the
// object. Nothing orders T2's unlocked read of Instance after T1's write
// under M, in any machine: the hybrid machines see lock sets {} and {M1};
// msm=hb sees no unlock -> lock edge as T2 never locks. Then the field a,
// read through that unordered pointer, is reported too.
//
// RUN: %hrace_cc -O0 %s -o %t.O0 && %hrace_cc -O2 %s -o %t.O2
// RUN: not %t.O0 2>&1 | FileCheck %s --check-prefixes=CHECK,SHORT
// RUN: not %t.O2 2>&1 | FileCheck %s --check-prefixes=CHECK,SHORT
// RUN: env HRACE_OPTIONS=msm=hb not %t.O0 2>&1 | FileCheck %s --check-prefixes=CHECK,HB
// RUN: env HRACE_OPTIONS=msm=hb not %t.O2 2>&1 | FileCheck %s --check-prefixes=CHECK,HB

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { int a; } Obj;

Obj *Instance;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static int T1Done;

__attribute__((noinline)) static Obj *Get(void) {
  if (!Instance) {
    pthread_mutex_lock(&M);
    if (!Instance) {
      Obj *O = malloc(sizeof(Obj));
      O->a = 42;
      Instance = O;
    }
    pthread_mutex_unlock(&M);
  }
  return Instance;
}

static void *Thread1(void *Arg) {
  int A = Get()->a;
  invisible_signal(&T1Done);
  return (void *)(long)A;
}

static void *Thread2(void *Arg) {
  // Forces the schedule in which T2 never takes the lock.
  invisible_wait(&T1Done);
  int A = Get()->a;
  return (void *)(long)A;
}

int main(void) {
  pthread_t A, B;
  pthread_create(&A, NULL, Thread1, NULL);
  pthread_create(&B, NULL, Thread2, NULL);
  pthread_join(A, NULL);
  pthread_join(B, NULL);
  printf("a=%d\n", Instance->a);
  free(Instance);
  return 0;
}
// The unlocked first check against the publishing write under M:
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 8 at {{.*}} by thread T2 (locks held: none):
// CHECK-NEXT:     #0 Get {{.*}}race_double_checked_locking.c:27
// CHECK-NEXT:     #1 Thread2 {{.*}}race_double_checked_locking.c:48
// CHECK-NEXT:   Previous write of size 8 at {{.*}} by thread T1 (locks held: {M1}):
// CHECK-NEXT:     #0 Get {{.*}}race_double_checked_locking.c:32
// CHECK-NEXT:     #1 Thread1 {{.*}}race_double_checked_locking.c:40
// SHORT-NEXT:   Detected by msm=short: the previous access does not happen before this one and no lock protects both.
// HB-NEXT:      Detected by msm=hb: neither access happens before the other.
// CHECK-NEXT:   Location is global 'Instance'
// Then the field read through the pointer:
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 4 at {{.*}} by thread T2 (locks held: none):
// CHECK-NEXT:     #0 Thread2 {{.*}}race_double_checked_locking.c:48
// CHECK-NEXT:   Previous write of size 4 at {{.*}} by thread T1 (locks held: {M1}):
// CHECK-NEXT:     #0 Get {{.*}}race_double_checked_locking.c:31
// CHECK:        Location is heap block of size 4 at {{.*}}, offset 0
// CHECK:      HybridRace: reported 2 warnings
