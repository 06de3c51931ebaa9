// Table II of seeds/002, I&I (race): two threads increment X with no lock.
// The read of each increment has one write dependency: the other thread's
// increment, parallel to it (its own write comes after it: relevance). An
// update can be lost, and the report says so.
//
// Both threads run Incrementer, so both reads are one source location and
// the write each depends on is one source location too: one report, for
// whichever read is found first (T1 or T2, T[[#READER]] below; the write is
// the other thread's, T[[#3-READER]]).
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=exitcode=0 %t 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: non-deterministic read
// OFF:     done
// OFF-NOT: non-deterministic read

#include <pthread.h>
#include <stdio.h>

int X;

static void *Incrementer(void *Arg) {
  X++;
  return Arg;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T[[#READER:]] (locks held: none):
// CHECK-NEXT:     #0 Incrementer {{.*}}unlocked_increments_are_reported.c:[[@LINE-5]]
// CHECK-NEXT:   has 1 write dependency:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T[[#3-READER]] (locks held: none), parallel to the read:
// CHECK-NEXT:       #0 Incrementer {{.*}}unlocked_increments_are_reported.c:[[@LINE-8]]
// CHECK:      Location is global 'X' of size 4
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}unlocked_increments_are_reported.c:[[@LINE-10]] in Incrementer
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Incrementer, NULL);
  pthread_create(&T2, NULL, Incrementer, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("done\n");
  return 0;
}
