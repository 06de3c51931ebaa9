// A buffer read a byte at a time takes one transition per granule and
// replays it for the granule's other bytes while they hold the same value
// (runtime/hrace_noop_memo.h, FindChange). A byte another thread wrote
// holds another value, so it is judged on its own: T2 reads the 16 bytes
// main wrote before creating it, one at a time, and races exactly with
// T1's writes of bytes 5 and 12, which nothing orders before the reads.
//
// RUN: %hrace_cc -O1 %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

static unsigned char Buffer[16] __attribute__((aligned(8)));
static int Written;
static unsigned Sum;

__attribute__((noinline)) static void WriteAll(void) {
  for (int I = 0; I < 16; I++)
    ((volatile unsigned char *)Buffer)[I] = (unsigned char)I;
}
__attribute__((noinline)) static void WriteByte5(void) { Buffer[5] = 50; }
__attribute__((noinline)) static void WriteByte12(void) { Buffer[12] = 120; }
__attribute__((noinline)) static void ReadAll(void) {
  for (int I = 0; I < 16; I++)
    Sum += ((volatile unsigned char *)Buffer)[I];
}

static void *Writer(void *Arg) {
  WriteByte5();
  WriteByte12();
  invisible_signal(&Written);
  return Arg;
}

static void *Reader(void *Arg) {
  invisible_wait(&Written);
  ReadAll();
  return Arg;
}

// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 1 at [[BYTE5:0x[0-9a-f]+]] by thread T2 (locks held: none):
// CHECK-NEXT:     #0 ReadAll
// CHECK:        Previous write of size 1 at [[BYTE5]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 WriteByte5
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 1 at [[BYTE12:0x[0-9a-f]+]] by thread T2 (locks held: none):
// CHECK-NEXT:     #0 ReadAll
// CHECK:        Previous write of size 1 at [[BYTE12]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 WriteByte12
// CHECK-NOT:  WARNING: HybridRace
// CHECK:      sum 273

int main(void) {
  WriteAll();
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Writer, NULL);
  pthread_create(&T2, NULL, Reader, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("sum %u\n", Sum);
  return 0;
}
