// T1 updates Total from Inc under M, reading both fields on one line (one
// read of their 8 bytes: the pass's run of loads), and T2, under M too,
// writes Inc and increments Total in a section of its own. The two updates
// of Total are serialised by M: deterministic, as table II expects of
// locked increments. But T1's update of Total is no update of Inc: T2's
// write of Inc stays a dependency of T1's read of Inc, parallel to it
// (locks order nothing), and the read is reported, as the read of Inc
// alone would be. Which section runs first does not matter: the checks of
// whichever ends last find the other. The struct is aligned to a cache
// line, so both fields lie in one of the checker's 64-byte variables.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s

#include "../Inputs/hrace_test_two_threads.h"

#include <pthread.h>
#include <stdio.h>

struct Counter {
  int Total, Inc;
} C __attribute__((aligned(64))) = {0, 1};
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

static void *Updater(void *Arg) {
  pthread_mutex_lock(&M);
  C.Total = C.Total + C.Inc;
  pthread_mutex_unlock(&M);
  return Arg;
}

static void *Writer(void *Arg) {
  pthread_mutex_lock(&M);
  C.Inc = 5;
  C.Total += 1;
  pthread_mutex_unlock(&M);
  return Arg;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[INC:0x[0-9a-f]+]] by thread T1 (locks held: {M1}):
// CHECK-NEXT:     #0 Updater {{.*}}a_locked_update_read_with_another_field_keeps_its_write.c:[[@LINE-14]]
// CHECK-NEXT:   has 1 write dependency:
// CHECK-NEXT:     Write of size 4 at [[INC]] by thread T2 (locks held: {M1}), parallel to the read:
// CHECK-NEXT:       #0 Writer {{.*}}a_locked_update_read_with_another_field_keeps_its_write.c:[[@LINE-10]]
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}a_locked_update_read_with_another_field_keeps_its_write.c:[[@LINE-18]] in Updater
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(void) {
  run_two_threads(Updater, Writer);
  printf("done\n");
  return 0;
}
