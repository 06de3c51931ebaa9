// A thread copies a 64-byte record with memcpy. The main thread wrote all
// of it before creating the thread, and field 5 again after, unordered:
// the copy's read races with that write, and is reported once, against
// field 5. The copy's granules are decided one by one: the five before
// field 5 take the read; the racy one and those after it go to the general
// path, which reports. The read of field 1 is kept as well: main's later
// write of it, unordered with the copy, is a second race, whose previous
// access is the copy.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct Record {
  long Field[8];
};

struct Record Shared;
static int MainWrote, Copied;
static long Sum;

static void *Copier(void *Arg) {
  invisible_wait(&MainWrote);
  struct Record Copy;
  memcpy(&Copy, &Shared, sizeof(Copy));
  for (int I = 0; I < 8; I++)
    Sum += Copy.Field[I];
  invisible_signal(&Copied);
  return Arg;
}
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 64 at [[REC:0x[0-9a-f]+]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Copier {{.*}}race_in_a_struct_copy_keeps_the_granules_before_it.c:[[@LINE-8]]
// CHECK-NEXT:   Previous write of size 8 at 0x{{[0-9a-f]+}} by thread T0 (locks held: none):

int main(void) {
  for (int I = 0; I < 8; I++)
    Shared.Field[I] = I;
  pthread_t T;
  pthread_create(&T, NULL, Copier, NULL);
  Shared.Field[5] = 50;
  // CHECK-NEXT:     #0 main {{.*}}race_in_a_struct_copy_keeps_the_granules_before_it.c:[[@LINE-1]]
  // CHECK:        Location is global 'Shared' of size 64 at [[REC]]
  invisible_signal(&MainWrote);
  invisible_wait(&Copied);
  Shared.Field[1] = 10;
  // CHECK:      WARNING: HybridRace: data race
  // CHECK-NEXT:   Write of size 8 at 0x{{[0-9a-f]+}} by thread T0 (locks held: none):
  // CHECK-NEXT:     #0 main {{.*}}race_in_a_struct_copy_keeps_the_granules_before_it.c:[[@LINE-3]]
  // CHECK-NEXT:   Previous read of size 64 at [[REC]] by thread T1 (locks held: none):
  // CHECK-NEXT:     #0 Copier {{.*}}race_in_a_struct_copy_keeps_the_granules_before_it.c:31
  pthread_join(T, NULL);
  printf("sum=%ld\n", Sum);
  return 0;
}
// CHECK-NOT:  WARNING: HybridRace
// CHECK:      sum=73
// CHECK:      HybridRace: reported 2 warnings
