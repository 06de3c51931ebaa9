// An atomic store and a later plain read of the same int by a thread that
// is not ordered after it race, in every machine: the atomic write is in the
// shadow (it used to leave it alone, and the race was missed). The report
// names the previous access as atomic.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s --check-prefixes=CHECK,HB
// RUN: env HRACE_OPTIONS=msm=short not %t 2>&1 | FileCheck %s --check-prefixes=CHECK,HYBRID
// RUN: env HRACE_OPTIONS=msm=long not %t 2>&1 | FileCheck %s --check-prefixes=CHECK,HYBRID

#include "../Inputs/hrace_test_sync.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

int Value;
int Stored;

static void *Writer(void *Arg) {
  atomic_store_explicit((_Atomic int *)&Value, 7, memory_order_relaxed); // @store
  invisible_signal(&Stored);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Writer, NULL);
  invisible_wait(&Stored);
  printf("Value = %d\n", Value); // @read
  pthread_join(T, NULL);
  return 0;
}

// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T0 (locks held: none):
// CHECK-NEXT:     #0 main {{.*}}atomic_write_then_plain_read_races.c:[[@LINE-7]]
// CHECK-NEXT:   Previous atomic write of size 4 at [[ADDR]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Writer {{.*}}atomic_write_then_plain_read_races.c:[[@LINE-18]]
// HB-NEXT:      Detected by msm=hb: one access is atomic, the other is not, and neither happens before the other.
// HYBRID-NEXT:  Detected by msm={{short|long}}: one access is atomic, the other is not, and neither happens before the other.
// CHECK-NEXT:   Location is global 'Value' of size 4 at [[ADDR]]
// CHECK:      HybridRace: reported 1 warning
