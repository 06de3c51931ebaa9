// A buffer written a byte at a time into fresh memory (CellsOfOneAccess::
// PartOfGranule): the first byte takes an empty cell, the next ones join
// it, and bytes never written stay New. T1 writes bytes 0, 1 and 3 of a
// fresh granule one at a time. In a second granule, T1 wrote an int (bytes
// 4-7) in a first segment and byte 3 in a second, which took the empty
// cell; in a third it writes bytes 0 and 1, a third value: the granule
// splits, and byte 1 goes to its byte cells. T2, not ordered after T1,
// reads bytes 2 and 1 of each granule: only the written ones race, each
// with the write of that byte, in every machine.
//
// RUN: %hrace_cc -O1 %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

static union {
  unsigned char Bytes[16];
  unsigned Ints[4];
} Buf __attribute__((aligned(8)));
static int Written;
static unsigned Sum;

// One function per granule: a pair of source locations is reported once.
__attribute__((noinline)) static void WriteByte(int I) { Buf.Bytes[I] = 7; }
__attribute__((noinline)) static void WriteHigh(int I) { Buf.Bytes[I] = 7; }
__attribute__((noinline)) static void WriteInt3(void) { Buf.Ints[3] = 9; }
__attribute__((noinline)) static void ReadByte(int I) { Sum += Buf.Bytes[I]; }
__attribute__((noinline)) static void ReadHigh(int I) { Sum += Buf.Bytes[I]; }

// A new segment of this thread only: it orders nothing for T2.
static void NewSegment(void) {
  static pthread_mutex_t Own = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&Own);
  pthread_mutex_unlock(&Own);
}

static void *Writer(void *Arg) {
  WriteInt3();
  NewSegment();
  WriteHigh(11);
  NewSegment();
  WriteByte(0);
  WriteByte(1);
  WriteByte(3);
  WriteHigh(8);
  WriteHigh(9);
  invisible_signal(&Written);
  return Arg;
}

static void *Reader(void *Arg) {
  invisible_wait(&Written);
  ReadByte(2);
  ReadByte(1);
  ReadHigh(10);
  ReadHigh(9);
  return Arg;
}

int main(void) {
  // Before the reports, so that they can be checked byte by byte.
  fprintf(stderr, "buf %p\n", (void *)&Buf);
  pthread_t W, R;
  pthread_create(&W, NULL, Writer, NULL);
  pthread_create(&R, NULL, Reader, NULL);
  pthread_join(W, NULL);
  pthread_join(R, NULL);
  printf("sum %u\n", Sum);
  return 0;
}

// CHECK:      buf 0x[[#%x,BUF:]]
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 1 at 0x[[#%x,BUF+1]] by thread T2{{.*}}:
// CHECK-NEXT:     #0 ReadByte
// CHECK-NEXT:     #1 Reader {{.*}}.c:[[@LINE-22]]
// CHECK:        Previous write of size 1 at 0x[[#%x,BUF+1]] by thread T1{{.*}}:
// CHECK-NEXT:     #0 WriteByte
// CHECK-NEXT:     #1 Writer {{.*}}.c:[[@LINE-36]]
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 1 at 0x[[#%x,BUF+9]] by thread T2{{.*}}:
// CHECK-NEXT:     #0 ReadHigh
// CHECK-NEXT:     #1 Reader {{.*}}.c:[[@LINE-27]]
// CHECK:        Previous write of size 1 at 0x[[#%x,BUF+9]] by thread T1{{.*}}:
// CHECK-NEXT:     #0 WriteHigh
// CHECK-NEXT:     #1 Writer {{.*}}.c:[[@LINE-40]]
// CHECK-NOT:  WARNING: HybridRace
// CHECK:      sum 14
