// A range handed out anew leaves the thread's own cache too: line by line
// for a small range, by a scan of the whole cache for one with more lines
// than the cache has entries (1024: the second RUN's 64 KiB buffer).
// T1 reads the last word of the buffer, marks the buffer new memory
// (AnnotateNewMemory: its histories go), and reads the word again in the
// same epoch. Only the second read is of the new memory. T2 then writes
// the word with nothing ordering it with T1, so that read has a parallel
// write dependency: non-deterministic. Had T1's cache kept the line, it
// would have answered the second read as one already recorded, while the
// reset had cleared the recorded bytes: no check, no report. The report
// shows the first read's stack: a record of the word's bytes was made
// before the reset and claims them (`#0 Thread1` without a line).
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr -DWORDS=16384 %s -o %t.big
// RUN: env HRACE_OPTIONS=ndr=1 not %t.big 2>&1 | FileCheck %s
// CHECK:     WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:  Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: none):
// CHECK-NEXT:    #0 Thread1
// CHECK-NEXT:  has 1 write dependency:
// CHECK-NEXT:    Write of size 4 at [[ADDR]] by thread T2 (locks held: none), parallel to the read:
// CHECK-NEXT:      #0 Thread2
// CHECK:     done

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

// The prototype of dynamic_annotations.h.
void AnnotateNewMemory(const char *, int, const volatile void *, long);

#ifndef WORDS
#define WORDS 64
#endif

static _Alignas(64) int Buffer[WORDS];
static int Renewed;

static void *Thread1(void *Arg) {
  volatile int *Last = &Buffer[WORDS - 1];
  int Before = *Last;
  AnnotateNewMemory(__FILE__, __LINE__, Buffer, sizeof(Buffer));
  int After = *Last;
  invisible_signal(&Renewed);
  return (void *)(long)(Before + After);
}

static void *Thread2(void *Arg) {
  invisible_wait(&Renewed);
  Buffer[WORDS - 1] = 2;
  return Arg;
}

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Thread1, NULL);
  pthread_create(&T2, NULL, Thread2, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("done\n");
  return 0;
}
