// A read is checked again when a later write of its bytes ends, also a
// read of bytes its own epoch had written. T1 writes X and reads it back;
// its epoch ends (a private lock) and is checked while no other write of X
// exists: deterministic so far. Only then does T2 write X, with no order
// between the two threads the detector can see (invisible_signal only
// makes the interleaving fixed). T2's write is parallel to T1's read, which
// could have returned it: when T2's epoch ends, the read has two write
// dependencies and is reported. The ordinary race checker reports the race
// of the two writes too.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=exitcode=0 %t 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: non-deterministic read
// OFF:     done
// OFF-NOT: non-deterministic read

#include "../Inputs/hrace_test_sync.h"

#include <pthread.h>
#include <stdio.h>

// Volatile, so that the compiler reads X back instead of reusing the value
// stored.
volatile int X;
static int ReadChecked;

static void *Reader(void *Arg) {
  static pthread_mutex_t Private = PTHREAD_MUTEX_INITIALIZER;
  X = 1;
  int Seen = X;
  // Ends the epoch; its checks run at the next lock event.
  pthread_mutex_lock(&Private);
  pthread_mutex_unlock(&Private);
  invisible_signal(&ReadChecked);
  return (void *)(long)Seen;
}

static void *Writer(void *Arg) {
  invisible_wait(&ReadChecked);
  X = 2;
  return Arg;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Reader {{.*}}a_later_parallel_write_reaches_a_read_after_own_write.c:[[@LINE-15]]
// CHECK-NEXT:   has 2 write dependencies:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T2 (locks held: none), parallel to the read:
// CHECK-NEXT:       #0 Writer {{.*}}a_later_parallel_write_reaches_a_read_after_own_write.c:[[@LINE-8]]
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T1 (locks held: none):
// CHECK-NEXT:       #0 Reader {{.*}}a_later_parallel_write_reaches_a_read_after_own_write.c:[[@LINE-21]]
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}a_later_parallel_write_reaches_a_read_after_own_write.c:[[@LINE-21]] in Reader
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Reader, NULL);
  pthread_create(&T2, NULL, Writer, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("done\n");
  return 0;
}
