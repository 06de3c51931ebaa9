// A byte held in a cell of its own, beside a cell of another value for the
// granule's other bytes, takes its new value in that same cell
// (CellsOfOneAccess::PartOfGranule): T1 writes byte 0 of a granule main
// wrote whole, then again in a later segment (after an unlock), and T2,
// which nothing orders after either, writes bytes 0 and 1. Only byte 0
// races, and with T1's second write, the value the cell was changed to.
//
// RUN: %hrace_cc -O1 %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

static unsigned char Granule[8] __attribute__((aligned(8)));
static pthread_mutex_t Mu = PTHREAD_MUTEX_INITIALIZER;
static int Rewritten;

__attribute__((noinline)) static void WriteWhole(void) {
  for (int I = 0; I < 8; I++)
    ((volatile unsigned char *)Granule)[I] = (unsigned char)I;
}
__attribute__((noinline)) static void WriteByte0(void) { Granule[0] = 10; }
__attribute__((noinline)) static void WriteByte0Again(void) {
  Granule[0] = 20;
}
__attribute__((noinline)) static void WriteBytes0And1(void) {
  ((volatile unsigned char *)Granule)[0] = 30;
  ((volatile unsigned char *)Granule)[1] = 31;
}

static void *First(void *Arg) {
  WriteByte0();
  // A new segment: the next write changes the byte's cell.
  pthread_mutex_lock(&Mu);
  pthread_mutex_unlock(&Mu);
  WriteByte0Again();
  invisible_signal(&Rewritten);
  return Arg;
}

static void *Second(void *Arg) {
  invisible_wait(&Rewritten);
  WriteBytes0And1();
  return Arg;
}

// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Write of size 1 at [[BYTE0:0x[0-9a-f]+]] by thread T2
// CHECK-NEXT:     #0 WriteBytes0And1
// CHECK:        Previous write of size 1 at [[BYTE0]] by thread T1
// CHECK-NEXT:     #0 WriteByte0Again
// CHECK-NOT:  WARNING: HybridRace
// CHECK:      bytes 30 31

int main(void) {
  WriteWhole();
  pthread_t T1, T2;
  pthread_create(&T1, NULL, First, NULL);
  pthread_create(&T2, NULL, Second, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("bytes %u %u\n", Granule[0], Granule[1]);
  return 0;
}
