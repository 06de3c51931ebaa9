// Table II of seeds/002, R&W (race): T1 reads X while T2 writes it, with no
// lock and nothing ordering the two. Main also wrote X, before creating the
// threads; that write happens before T2's, so directness drops it and T2's
// write is the read's only write dependency -- "has 1 write dependency" --
// and it is parallel to the read: non-deterministic, whichever thread runs
// first. The ordinary race checker reports the race too (hence `not`).
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

static void *Reader(void *Arg) {
  int Seen = X;
  return (void *)(long)Seen;
}

static void *Writer(void *Arg) {
  X = 2;
  return Arg;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Reader {{.*}}unlocked_read_and_write_is_reported.c:[[@LINE-10]]
// CHECK-NEXT:   has 1 write dependency:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T2 (locks held: none), parallel to the read:
// CHECK-NEXT:       #0 Writer {{.*}}unlocked_read_and_write_is_reported.c:[[@LINE-8]]
// CHECK:      Location is global 'X' of size 4
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}unlocked_read_and_write_is_reported.c:[[@LINE-15]] in Reader
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(void) {
  X = 1;
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Reader, NULL);
  pthread_create(&T2, NULL, Writer, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("done\n");
  return 0;
}
