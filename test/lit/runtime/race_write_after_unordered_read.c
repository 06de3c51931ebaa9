// main reads a global, then a thread writes it with nothing in between:
// the report is the write against a "Previous read", so the user sees the
// racing access was a read, not a write.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

int Config = 1;
static int MainRead;

static void *Updater(void *Arg) {
  invisible_wait(&MainRead);
  Config = 2;
  return Arg;
}
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Write of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Updater {{.*}}race_write_after_unordered_read.c:[[@LINE-5]]
// CHECK-NEXT:   Previous read of size 4 at [[ADDR]] by thread T0 (locks held: none):

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Updater, NULL);
  printf("Config = %d\n", Config);
  // CHECK-NEXT:     #0 main {{.*}}race_write_after_unordered_read.c:[[@LINE-1]]
  // CHECK-NEXT:   Detected by msm=hb: neither access happens before the other.
  // CHECK-NEXT:   Location is global 'Config' of size 4 at [[ADDR]]
  invisible_signal(&MainRead);
  pthread_join(T, NULL);
  return 0;
}
