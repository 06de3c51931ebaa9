// An atomic load, then a plain write by another thread not ordered after it:
// a race in every machine. A plain read there would not be one (two reads).
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=short not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long not %t 2>&1 | FileCheck %s

#include "../Inputs/hrace_test_sync.h"

#include <pthread.h>
#include <stdio.h>

short Value;
int Loaded;

static void *Reader(void *Arg) {
  printf("Value = %d\n", __atomic_load_n(&Value, __ATOMIC_RELAXED)); // @load
  invisible_signal(&Loaded);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Reader, NULL);
  invisible_wait(&Loaded);
  short Plain = Value;
  Value = Plain + 1; // @write
  pthread_join(T, NULL);
  return 0;
}

// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Write of size 2 at [[ADDR:0x[0-9a-f]+]] by thread T0 (locks held: none):
// CHECK-NEXT:     #0 main {{.*}}atomic_read_then_plain_write_races.c:[[@LINE-7]]
// CHECK-NEXT:   Previous atomic read of size 2 at [[ADDR]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Reader {{.*}}atomic_read_then_plain_write_races.c:[[@LINE-19]]
// CHECK:      HybridRace: reported 1 warning
