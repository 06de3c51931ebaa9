// A read ordered after two writes that are not ordered with each other is
// non-deterministic: which value it reads depends on which write came
// last. T1 and T2 each write X with no lock (invisible_signal only fixes
// their order), main joins both and reads X: two write dependencies,
// neither parallel to the read. A read after writes that do form one chain
// of happens-before is deterministic and is not even walked; here the
// check of T2's write finds that the history's writes are not one chain,
// and the read must still be checked. The ordinary race checker reports
// the race of the two writes too.
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

int X;
static int FirstWrote;

static void *First(void *Arg) {
  X = 1;
  invisible_signal(&FirstWrote);
  return Arg;
}

static void *Second(void *Arg) {
  invisible_wait(&FirstWrote);
  X = 2;
  return Arg;
}

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, First, NULL);
  pthread_create(&T2, NULL, Second, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("X is %d\n", X);
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T0 (locks held: none):
// CHECK-NEXT:     #0 main {{.*}}a_read_after_two_unordered_writes_is_reported.c:[[@LINE-3]]
// CHECK-NEXT:   has 2 write dependencies:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T1 (locks held: none):
// CHECK-NEXT:       #0 First {{.*}}a_read_after_two_unordered_writes_is_reported.c:[[@LINE-23]]
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T2 (locks held: none):
// CHECK-NEXT:       #0 Second {{.*}}a_read_after_two_unordered_writes_is_reported.c:[[@LINE-18]]
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}a_read_after_two_unordered_writes_is_reported.c:[[@LINE-9]] in main
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read
  printf("done\n");
  return 0;
}
