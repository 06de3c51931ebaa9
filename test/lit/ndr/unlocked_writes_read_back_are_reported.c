// Table II of seeds/002, W&W (race): two threads each write X and read it
// back, with no lock. A read has two write dependencies: its own thread's
// write just before it, and the other thread's write, parallel to it (and
// neither write happens before the other, so directness keeps both).
//
// Both threads run Worker, so both reads are one source location and the
// first-listed write of each (the other thread's, parallel) is one source
// location too: the report is printed once, for whichever read is found
// first. Hence T[[#READER]] below: the reader is T1 or T2, and the parallel
// write is the other thread's (T[[#3-READER]]).
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=exitcode=0 %t 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: non-deterministic read
// OFF:     done
// OFF-NOT: non-deterministic read

#include <pthread.h>
#include <stdio.h>

// Volatile, so that -O1 reads X back instead of reusing the value stored.
volatile int X;

static void *Worker(void *Arg) {
  X = (int)(long)Arg;
  int Seen = X;
  return (void *)(long)Seen;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T[[#READER:]] (locks held: none):
// CHECK-NEXT:     #0 Worker {{.*}}unlocked_writes_read_back_are_reported.c:[[@LINE-5]]
// CHECK-NEXT:   has 2 write dependencies:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T[[#3-READER]] (locks held: none), parallel to the read:
// CHECK-NEXT:       #0 Worker {{.*}}unlocked_writes_read_back_are_reported.c:[[@LINE-9]]
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T[[#READER]] (locks held: none):
// CHECK-NEXT:       #0 Worker {{.*}}unlocked_writes_read_back_are_reported.c:[[@LINE-11]]
// CHECK:      Location is global 'X' of size 4
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}unlocked_writes_read_back_are_reported.c:[[@LINE-12]] in Worker
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Worker, (void *)1);
  pthread_create(&T2, NULL, Worker, (void *)2);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("done\n");
  return 0;
}
