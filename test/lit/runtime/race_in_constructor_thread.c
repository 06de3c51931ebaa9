// The runtime starts before the program's constructors: a constructor that
// starts a thread and races with it is reported like any other race, with
// the constructor's frames, and main still runs afterwards.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

int Setting;
static int ThreadWrote;
static pthread_t Early;

static void *EarlyThread(void *Arg) {
  Setting = 1;
  invisible_signal(&ThreadWrote);
  return Arg;
}

__attribute__((constructor)) static void StartEarly(void) {
  pthread_create(&Early, NULL, EarlyThread, NULL);
  invisible_wait(&ThreadWrote);
  Setting = 2;
  // CHECK:      WARNING: HybridRace: data race
  // CHECK-NEXT:   Write of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T0 (locks held: none):
  // CHECK-NEXT:     #0 StartEarly {{.*}}race_in_constructor_thread.c:[[@LINE-3]]
  // CHECK:        Previous write of size 4 at [[ADDR]] by thread T1 (locks held: none):
  // CHECK-NEXT:     #0 EarlyThread {{.*}}race_in_constructor_thread.c:[[@LINE-13]]
  // CHECK-NEXT:   Detected by msm=hb: neither access happens before the other.
  // CHECK-NEXT:   Location is global 'Setting' of size 4 at [[ADDR]]
  // CHECK-NEXT:   Thread T0 (tid={{[0-9]+}}, running) is the main thread
  // CHECK-NEXT:   Thread T1 (tid={{[0-9]+}}, {{running|finished}}) created by T0 at:
  // CHECK-NEXT:     #0 StartEarly {{.*}}race_in_constructor_thread.c:[[@LINE-12]]
}

int main(void) {
  pthread_join(Early, NULL);
  printf("main runs, Setting = %d\n", Setting);
  return 0;
}
// CHECK: main runs, Setting = 2
