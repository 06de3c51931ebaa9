// A pair of adjacent float reads that the pass checks as one, reached at
// run time through a pointer two bytes into a byte buffer (a cast the
// language leaves undefined, common on x86-64): the halves are checked as
// the two accesses they are, [2, 6) and [6, 10) of the buffer, never as
// granules. T1 first writes bytes 2 to 7 alone, so that a cell holds
// exactly the pair's bytes of the first granule. A write of byte 10 by a
// thread nothing orders races with nothing; a write of byte 9 races with
// the pair's second half.
//
// The pass pairs accesses where their checks are inline: x86-64.
// UNSUPPORTED: aarch64
// RUN: %hrace_cc -O1 -g %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include "hrace_test_two_threads.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>

char Buffer[16] __attribute__((aligned(8)));
static pthread_mutex_t Unrelated = PTHREAD_MUTEX_INITIALIZER;
static int Done;
float Sum;

// Not static: the optimiser must not see which pointer it is given.
__attribute__((noinline)) float ReadPair(const float *P) {
  return P[0] + P[1];
}
__attribute__((noinline)) static void WriteByte10(void) { Buffer[10] = 1; }
__attribute__((noinline)) static void WriteByte9(void) { Buffer[9] = 1; }

static void *First(void *Arg) {
  static const char Six[6];
  memcpy(Buffer + 2, Six, 6);
  // A new segment (nothing T2 acquires), so the pair changes that cell.
  pthread_mutex_lock(&Unrelated);
  pthread_mutex_unlock(&Unrelated);
  Sum = ReadPair((const float *)(Buffer + 2));
  invisible_signal(&Done);
  return Arg;
}

static void *Second(void *Arg) {
  invisible_wait(&Done);
  WriteByte10();
  WriteByte9();
  return Arg;
}

// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Write of size 1 at {{0x[0-9a-f]+}} by thread T2
// CHECK-NEXT:     #0 WriteByte9
// CHECK:        Previous read of size 4 at {{0x[0-9a-f]+}} by thread T1
// CHECK-NEXT:     #0 ReadPair {{.*}}adjacent_accesses_out_of_line_stay_two.c:29
// CHECK-NOT:  WARNING: HybridRace
// CHECK:      sum 0

int main(void) {
  run_two_threads(First, Second);
  printf("sum %g\n", Sum);
  return 0;
}
