// A handler registered with atexit runs in the thread that exits, after
// everything the registering thread did before registering it: a detached
// thread writes a global, registers a handler that reads it, and main
// returns (ordered to run after it only by synchronisation the detector
// cannot see). No report, in every machine. A write the thread makes after
// registering is not ordered before the handler: "late" is reported.
//
// RUN: %hrace_cc %s -o %t
// RUN: %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t 2>&1 | FileCheck %s
// RUN: not %t late 2>&1 | FileCheck %s --check-prefix=LATE
// CHECK-NOT: WARNING: HybridRace
// CHECK:     handler read 42
// LATE:      WARNING: HybridRace: data race
// LATE:      handler read 43

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

int Value;
static int Late, Registered;

static void ReadAtExit(void) { printf("handler read %d\n", Value); }

static void *RegisterThenFinish(void *Arg) {
  (void)Arg;
  Value = 42;
  atexit(ReadAtExit);
  if (Late)
    Value = 43;
  invisible_signal(&Registered);
  return 0;
}

int main(int Argc, char **Argv) {
  Late = Argc > 1;
  pthread_t T;
  pthread_attr_t Attr;
  pthread_attr_init(&Attr);
  pthread_attr_setdetachstate(&Attr, PTHREAD_CREATE_DETACHED);
  pthread_create(&T, &Attr, RegisterThenFinish, 0);
  // Ordering only: main exits after the registration.
  invisible_wait(&Registered);
  return 0;
}
