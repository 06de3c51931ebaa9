// Table II of seeds/002, I&R (race): T1 increments X with no lock while T2
// reads it. T2's read has one write dependency, T1's increment, parallel to
// it: non-deterministic. T1's read has none (T2 writes nothing, and T1's
// own write comes after its read), so there is one report. The ordinary
// race checker reports the race too.
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

static void *Reader(void *Arg) {
  int Seen = X;
  return (void *)(long)Seen;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T2 (locks held: none):
// CHECK-NEXT:     #0 Reader {{.*}}unlocked_increment_and_read_is_reported.c:[[@LINE-5]]
// CHECK-NEXT:   has 1 write dependency:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T1 (locks held: none), parallel to the read:
// CHECK-NEXT:       #0 Incrementer {{.*}}unlocked_increment_and_read_is_reported.c:[[@LINE-13]]
// CHECK:      Location is global 'X' of size 4
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}unlocked_increment_and_read_is_reported.c:[[@LINE-10]] in Reader
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
