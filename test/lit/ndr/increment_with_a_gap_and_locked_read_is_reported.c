// Table II of seeds/002, I&R Gaps (race): T1 increments X in two critical
// sections of M, reading X in the first and writing the incremented value
// in the second; T2 reads X under M. Every access holds M, so the ordinary
// race checker is silent. T2's read has T1's write as its one write
// dependency, parallel to it (locks order nothing): non-deterministic. T1's
// read is no read-modify-write inside one section, and nobody else writes X,
// so it has no dependency: one report.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s
// RUN: %t 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: non-deterministic read
// OFF:     done
// OFF-NOT: non-deterministic read

#include <pthread.h>
#include <stdio.h>

int X;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

static void *Incrementer(void *Arg) {
  pthread_mutex_lock(&M);
  int Old = X;
  pthread_mutex_unlock(&M);
  pthread_mutex_lock(&M);
  X = Old + 1;
  pthread_mutex_unlock(&M);
  return Arg;
}

static void *Reader(void *Arg) {
  pthread_mutex_lock(&M);
  int Seen = X;
  pthread_mutex_unlock(&M);
  return (void *)(long)Seen;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T2 (locks held: {M1}):
// CHECK-NEXT:     #0 Reader {{.*}}increment_with_a_gap_and_locked_read_is_reported.c:[[@LINE-6]]
// CHECK-NEXT:   has 1 write dependency:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T1 (locks held: {M1}), parallel to the read:
// CHECK-NEXT:       #0 Incrementer {{.*}}increment_with_a_gap_and_locked_read_is_reported.c:[[@LINE-16]]
// CHECK:      Location is global 'X' of size 4
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}increment_with_a_gap_and_locked_read_is_reported.c:[[@LINE-11]] in Reader
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Incrementer, NULL);
  pthread_create(&T2, NULL, Reader, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("done\n");
  return 0;
}
