// seeds/002 figure 7: T1 reads X twice with no synchronisation in between
// while T2 writes it. Both reads have the same synchronisation state, so
// they share one epoch variable and have the same write dependency: T2's
// write, parallel to them. The paper computes it once for both.
//
// Both reads are one load in a loop (its trip count comes from the thread's
// argument, so -O1 does not unroll it): one read source location. The
// report is printed once per read location and first-listed write, so
// there is exactly one, with one write dependency. (Two reads on two lines
// would leave open which of them the epoch variable names; this pins the
// epoch, not that.) The ordinary race checker reports the race too.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=exitcode=0 %t 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: non-deterministic read
// OFF:     done
// OFF-NOT: non-deterministic read

#include <pthread.h>
#include <stdio.h>

// Volatile, so that -O1 loads X in every iteration.
volatile int X;

static void *Reader(void *Arg) {
  long Sum = 0;
  for (long I = 0; I < (long)Arg; ++I)
    Sum += X;
  return (void *)Sum;
}

static void *Writer(void *Arg) {
  X = 5;
  return Arg;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Reader {{.*}}figure7_reads_in_one_epoch_are_reported_once.c:[[@LINE-10]]
// CHECK-NEXT:   has 1 write dependency:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T2 (locks held: none), parallel to the read:
// CHECK-NEXT:       #0 Writer {{.*}}figure7_reads_in_one_epoch_are_reported_once.c:[[@LINE-8]]
// CHECK:      Location is global 'X' of size 4
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}figure7_reads_in_one_epoch_are_reported_once.c:[[@LINE-15]] in Reader
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Reader, (void *)2);
  pthread_create(&T2, NULL, Writer, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("done\n");
  return 0;
}
