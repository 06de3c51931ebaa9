// Two floats of one granule, each written again in a new segment, leave
// both of the granule's cells holding that segment's value. In a third
// segment the thread rewrites bytes 1 and 2 of the first float one at a
// time: byte 1 leaves its cell's other bytes with the value the other cell
// holds (the two join into one cell), byte 2 takes the value byte 1 already
// has (it joins byte 1's cell). T2, not ordered after T1, then reads bytes
// 2, 6 and 0: each races with the write that last wrote that byte, and
// only with it, in every machine.
//
// RUN: %hrace_cc -O1 %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

static union {
  float Floats[2];
  unsigned char Bytes[8];
} Shared __attribute__((aligned(8)));
static int Written;
static unsigned Sum;

__attribute__((noinline)) static void WriteFirst(void) { Shared.Floats[0] = 1; }
__attribute__((noinline)) static void WriteSecond(void) {
  Shared.Floats[1] = 2;
}
__attribute__((noinline)) static void WriteByte1(void) { Shared.Bytes[1] = 3; }
__attribute__((noinline)) static void WriteByte2(void) { Shared.Bytes[2] = 4; }
__attribute__((noinline)) static void ReadByte(int I) { Sum += Shared.Bytes[I]; }

// A new segment of this thread only: it orders nothing for T2.
static void NewSegment(void) {
  static pthread_mutex_t Own = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&Own);
  pthread_mutex_unlock(&Own);
}

static void *Writer(void *Arg) {
  WriteFirst();
  WriteSecond();
  NewSegment();
  WriteFirst();
  WriteSecond();
  NewSegment();
  WriteByte1();
  WriteByte2();
  invisible_signal(&Written);
  return Arg;
}

static void *Reader(void *Arg) {
  invisible_wait(&Written);
  ReadByte(2);
  ReadByte(6);
  ReadByte(0);
  return Arg;
}

// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 1 at {{.*}} by thread T2 (locks held: none):
// CHECK-NEXT:     #0 ReadByte
// CHECK:        Previous write of size 1 at {{.*}} by thread T1 (locks held: none):
// CHECK-NEXT:     #0 WriteByte2
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 1 at {{.*}} by thread T2 (locks held: none):
// CHECK-NEXT:     #0 ReadByte
// CHECK:        Previous write of size 4 at {{.*}} by thread T1 (locks held: none):
// CHECK-NEXT:     #0 WriteSecond
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 1 at {{.*}} by thread T2 (locks held: none):
// CHECK-NEXT:     #0 ReadByte
// CHECK:        Previous write of size 4 at {{.*}} by thread T1 (locks held: none):
// CHECK-NEXT:     #0 WriteFirst
// CHECK-NOT:  WARNING: HybridRace
// CHECK:      sum

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Writer, NULL);
  pthread_create(&T2, NULL, Reader, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("sum %u\n", Sum);
  return 0;
}
