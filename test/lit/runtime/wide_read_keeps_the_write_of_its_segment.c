// A 16-byte read over a word the thread wrote in the same segment and a
// word nobody touched yet still leaves the write in the first word's cell:
// the reader's own read changes nothing there, whichever path decides the
// other word. T2, not ordered after T1, then reads the first word and
// races with T1's write, in every machine. (An inline decision of such
// reads once re-stamped the written word as T1's read, and msm=long and
// msm=short then missed this race.)
//
// RUN: %hrace_cc -O1 %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 8 at {{.*}} by thread T2 (locks held: none):
// CHECK:        Previous write of size 8 at {{.*}} by thread T1 (locks held: none):
// CHECK:      SUMMARY: HybridRace: data race {{.*}}wide_read_keeps_the_write_of_its_segment.c

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

struct Pair {
  long First;
  long Second;
} __attribute__((aligned(16)));

static struct Pair Shared;
static __int128 Seen;
static long Read;
static int Written;

static void *Writer(void *Arg) {
  Shared.First = 1;
  // One 16-byte load: the first word written by this thread in this
  // segment, the second New.
  Seen = *(volatile __int128 *)&Shared;
  invisible_signal(&Written);
  return Arg;
}

static void *Reader(void *Arg) {
  invisible_wait(&Written);
  Read = Shared.First;
  return Arg;
}

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Writer, NULL);
  pthread_create(&T2, NULL, Reader, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("read %ld\n", Read);
  return 0;
}
