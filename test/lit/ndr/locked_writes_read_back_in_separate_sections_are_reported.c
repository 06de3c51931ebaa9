// Table II of seeds/002, W&W Locked (race): two threads each write X in one
// critical section of M and read it back in a later one. The ordinary race
// checker sees X consistently locked, but the value read back is the own
// write or the other thread's, depending on the order of the sections. The
// read has two write dependencies: the other thread's write, parallel (locks
// order nothing), and its own thread's earlier write. Freedom does not apply,
// since the reading section did not write X itself.
//
// Both threads run Worker, so both reads are one source location and the
// first-listed write of each (the other thread's, parallel) is one source
// location too: one report, for whichever read is found first (T1 or T2,
// T[[#READER]] below; the parallel write is the other's, T[[#3-READER]]).
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

static void *Worker(void *Arg) {
  pthread_mutex_lock(&M);
  X = (int)(long)Arg;
  pthread_mutex_unlock(&M);
  pthread_mutex_lock(&M);
  int Seen = X;
  pthread_mutex_unlock(&M);
  return (void *)(long)Seen;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T[[#READER:]] (locks held: {M1}):
// CHECK-NEXT:     #0 Worker {{.*}}locked_writes_read_back_in_separate_sections_are_reported.c:[[@LINE-6]]
// CHECK-NEXT:   has 2 write dependencies:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T[[#3-READER]] (locks held: {M1}), parallel to the read:
// CHECK-NEXT:       #0 Worker {{.*}}locked_writes_read_back_in_separate_sections_are_reported.c:[[@LINE-12]]
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T[[#READER]] (locks held: {M1}):
// CHECK-NEXT:       #0 Worker {{.*}}locked_writes_read_back_in_separate_sections_are_reported.c:[[@LINE-14]]
// CHECK:      Location is global 'X' of size 4
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}locked_writes_read_back_in_separate_sections_are_reported.c:[[@LINE-13]] in Worker
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
