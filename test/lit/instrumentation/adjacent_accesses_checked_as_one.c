// Two adjacent accesses of one line that the pass pairs are checked as one
// access where one cell holds both (a granule re-stamped in a new segment
// by one read of 8 bytes) or where they take one value in fresh memory (a
// write of 4 bytes), and half by half otherwise: where a half races, and
// where the pair's address turns out not to be a multiple of its size.
// Detection stays byte-exact: a write to either half by a thread nothing
// orders races with the pair, reported at the pair's line; a write beside
// it races with nothing; a pair whose first half another thread wrote
// races on that half alone, reported as an access of its own size; a pair
// read while the thread ignores its reads is not recorded.
//
// The pass pairs accesses where their checks are inline: x86-64.
// UNSUPPORTED: aarch64
// RUN: %hrace_cc -O1 -g %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include "hrace_test_two_threads.h"
#include <hrace/annotations.h>
#include <pthread.h>
#include <stdio.h>

// Not static, so that the optimiser keeps them whole arrays.
float Aligned[4] __attribute__((aligned(8)));
float OutOfLine[4] __attribute__((aligned(8)));
short Written[4] __attribute__((aligned(8)));
float Ignored[2] __attribute__((aligned(8)));
static pthread_mutex_t Unrelated = PTHREAD_MUTEX_INITIALIZER;
static int Done, SecondDone;
static float Sum;
short Seen;

__attribute__((noinline)) static float ReadPair(const float *P) {
  return P[0] + P[1];
}
__attribute__((noinline)) static void WritePair(short *P) {
  P[0] = 1; P[1] = 2;
}
__attribute__((noinline)) static void WriteAligned1(void) { Aligned[1] = 1; }
__attribute__((noinline)) static void WriteAligned2(void) { Aligned[2] = 2; }
__attribute__((noinline)) static void WriteOutOfLine2(void) {
  OutOfLine[2] = 3;
}
__attribute__((noinline)) static void WriteOutOfLine3(void) {
  OutOfLine[3] = 4;
}
__attribute__((noinline)) static short ReadWritten0(void) { return Written[0]; }
__attribute__((noinline)) static void WriteIgnored1(void) { Ignored[1] = 5; }

static void *First(void *Arg) {
  // Fresh memory: the pair's 8 bytes take one value as part of their
  // granule, T1's read.
  Sum = ReadPair(Aligned);
  // A new segment (nothing T2 acquires): the pair re-stamps that cell as
  // one read of 8 bytes.
  pthread_mutex_lock(&Unrelated);
  pthread_mutex_unlock(&Unrelated);
  Sum += ReadPair(Aligned);
  // OutOfLine[0..1] as one read, then OutOfLine[1..2]: that pair straddles
  // two granules. The first granule's cell holds all 8 bytes in a state
  // that passes, so only the pair's address fails its whole test; the
  // second half is checked in the second granule.
  Sum += ReadPair(OutOfLine);
  Sum += ReadPair(OutOfLine + 1);
  WritePair(Written);
  ANNOTATE_IGNORE_READS_BEGIN();
  Sum += ReadPair(Ignored);
  ANNOTATE_IGNORE_READS_END();
  invisible_signal(&Done);
  // Aligned[2..3] after T2 wrote Aligned[2]: the pair's first half races.
  invisible_wait(&SecondDone);
  Sum += ReadPair(Aligned + 2);
  return Arg;
}

static void *Second(void *Arg) {
  invisible_wait(&Done);
  WriteAligned1();
  WriteAligned2();
  WriteOutOfLine2();
  WriteOutOfLine3();
  Seen = ReadWritten0();
  WriteIgnored1();
  invisible_signal(&SecondDone);
  return Arg;
}

// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Write of size 4 at {{0x[0-9a-f]+}} by thread T2
// CHECK-NEXT:     #0 WriteAligned1
// CHECK:        Previous read of size 8 at {{0x[0-9a-f]+}} by thread T1
// CHECK-NEXT:     #0 ReadPair {{.*}}adjacent_accesses_checked_as_one.c:36
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Write of size 4 at {{0x[0-9a-f]+}} by thread T2
// CHECK-NEXT:     #0 WriteOutOfLine2
// CHECK:        Previous read of size 4 at {{0x[0-9a-f]+}} by thread T1
// CHECK-NEXT:     #0 ReadPair {{.*}}adjacent_accesses_checked_as_one.c:36
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 2 at {{0x[0-9a-f]+}} by thread T2
// CHECK-NEXT:     #0 ReadWritten0
// CHECK:        Previous write of size 4 at {{0x[0-9a-f]+}} by thread T1
// CHECK-NEXT:     #0 WritePair {{.*}}adjacent_accesses_checked_as_one.c:39
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 4 at [[ALIGNED2:0x[0-9a-f]+]] by thread T1
// CHECK-NEXT:     #0 ReadPair {{.*}}adjacent_accesses_checked_as_one.c:36
// CHECK:        Previous write of size 4 at [[ALIGNED2]] by thread T2
// CHECK-NEXT:     #0 WriteAligned2
// CHECK-NOT:  WARNING: HybridRace
// CHECK:      sum 2

int main(void) {
  run_two_threads(First, Second);
  printf("sum %g\n", Sum);
  return 0;
}
