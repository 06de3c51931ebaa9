// Table II of seeds/002, I&W (race): T1 increments X with no lock while T2
// writes it. The read of T1's increment has one write dependency, T2's
// write, parallel to it: non-deterministic (T2's write may be lost or not).
// T2 reads nothing, so there is one report. The ordinary race checker
// reports the race too.
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

static void *Writer(void *Arg) {
  X = 5;
  return Arg;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Incrementer {{.*}}unlocked_increment_and_write_is_reported.c:[[@LINE-10]]
// CHECK-NEXT:   has 1 write dependency:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T2 (locks held: none), parallel to the read:
// CHECK-NEXT:       #0 Writer {{.*}}unlocked_increment_and_write_is_reported.c:[[@LINE-8]]
// CHECK:      Location is global 'X' of size 4
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}unlocked_increment_and_write_is_reported.c:[[@LINE-15]] in Incrementer
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Incrementer, NULL);
  pthread_create(&T2, NULL, Writer, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("done\n");
  return 0;
}
