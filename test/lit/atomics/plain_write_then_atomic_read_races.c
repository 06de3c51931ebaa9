// A plain write and a later atomic load of the same int by a thread that is
// not ordered after it race, in every machine: the atomic read is judged
// against the plain state as a read would be (it used to be ignored).
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=short not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long not %t 2>&1 | FileCheck %s

#include "../Inputs/hrace_test_sync.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

long Value;
int Written;

static void *Writer(void *Arg) {
  Value = 7; // @write
  invisible_signal(&Written);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Writer, NULL);
  invisible_wait(&Written);
  long Seen = __atomic_load_n(&Value, __ATOMIC_ACQUIRE); // @load
  printf("Value = %ld\n", Seen);
  pthread_join(T, NULL);
  return 0;
}

// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Atomic read of size 8 at [[ADDR:0x[0-9a-f]+]] by thread T0 (locks held: none):
// CHECK-NEXT:     #0 main {{.*}}plain_write_then_atomic_read_races.c:[[@LINE-8]]
// CHECK-NEXT:   Previous write of size 8 at [[ADDR]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Writer {{.*}}plain_write_then_atomic_read_races.c:[[@LINE-19]]
// CHECK:        Location is global 'Value' of size 8 at [[ADDR]]
// CHECK:      HybridRace: reported 1 warning
