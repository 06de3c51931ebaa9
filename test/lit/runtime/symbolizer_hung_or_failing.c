// A symbolizer that hangs, floods the socket with something that is not an
// answer, or dies at once never holds up the report: each query gets
// symbolizer_timeout seconds, a failed symbolizer is killed, reaped and
// started once more, and after the second failure the frames are printed
// unsymbolised behind one line naming the symbolizer. Both races are
// reported, each in full, and the program exits with the report's code.
// (timeout is only a guard: a hang leaves no report, and FileCheck fails.)
//
// RUN: %hrace_cc %s -o %t
// RUN: printf '#!/bin/sh\nexec sleep 1000\n' > %t.hang && chmod +x %t.hang
// RUN: printf '#!/bin/sh\nexec yes not-an-answer\n' > %t.garbage && chmod +x %t.garbage
// RUN: printf '#!/bin/sh\nexit 3\n' > %t.dies && chmod +x %t.dies
// RUN: env HRACE_OPTIONS=external_symbolizer_path=%t.hang:symbolizer_timeout=1 not timeout 60 %t > %t.out 2>&1
// RUN: FileCheck %s --check-prefixes=CHECK,HANG < %t.out
// RUN: env HRACE_OPTIONS=external_symbolizer_path=%t.garbage not timeout 60 %t > %t.out 2>&1
// RUN: FileCheck %s --check-prefixes=CHECK,GARBAGE < %t.out
// RUN: env HRACE_OPTIONS=external_symbolizer_path=%t.dies not timeout 60 %t > %t.out 2>&1
// RUN: FileCheck %s --check-prefixes=CHECK,DIES < %t.out
//
// HANG:         HybridRace: symbolizer {{.*}}.hang did not answer in symbolizer_timeout seconds, twice; frames are printed unsymbolised
// GARBAGE:      HybridRace: symbolizer {{.*}}.garbage failed twice (it exited or answered with something else than frames); frames are printed unsymbolised
// DIES:         HybridRace: symbolizer {{.*}}.dies failed twice
// CHECK:        WARNING: HybridRace: data race
// CHECK-NEXT:     Write of size 4
// CHECK-NEXT:       #0 0x{{[0-9a-f]+}} ({{.*}}symbolizer_hung_or_failing.c.tmp+0x{{[0-9a-f]+}})
// CHECK-NOT:    HybridRace: symbolizer
// CHECK:        WARNING: HybridRace: data race
// CHECK-NOT:    HybridRace: symbolizer
// CHECK:        HybridRace: reported 2 warnings

#include "hrace_test_sync.h"
#include <pthread.h>

int First, Second;
static int FirstWritten, SecondWritten;

static void *Thread1(void *Arg) {
  First = 1;
  invisible_signal(&FirstWritten);
  invisible_wait(&SecondWritten);
  Second = 1;
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Thread1, NULL);
  invisible_wait(&FirstWritten);
  First = 2;
  Second = 2;
  invisible_signal(&SecondWritten);
  pthread_join(T, NULL);
  return 0;
}
