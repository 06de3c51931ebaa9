// pthread_timedjoin_np and pthread_tryjoin_np order the joined thread like
// pthread_join when they join it: main reads what the thread wrote with no
// report, in every machine. A try-join that finds the thread still running
// (EBUSY) orders nothing: "busy" reads while the thread may still write.
//
// RUN: %hrace_cc %s -o %t
// RUN: %t timed 2>&1 | FileCheck %s
// RUN: %t try 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t timed 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t try 2>&1 | FileCheck %s
// RUN: not %t busy 2>&1 | FileCheck %s --check-prefix=BUSY
// CHECK-NOT: WARNING: HybridRace
// CHECK:     joined: 42
// BUSY:      WARNING: HybridRace: data race
// BUSY:      joined: 42

#define _GNU_SOURCE
#include "hrace_test_sync.h"
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int Written;
static int WrittenFlag, MainRead;

static void *Write(void *Arg) {
  Written = 42;
  if (Arg) {
    // "busy": stays alive until main has read, so the try-join fails.
    invisible_signal(&WrittenFlag);
    invisible_wait(&MainRead);
  }
  return 0;
}

int main(int Argc, char **Argv) {
  const char *Mode = Argc > 1 ? Argv[1] : "timed";
  int Busy = !strcmp(Mode, "busy");
  pthread_t T;
  pthread_create(&T, 0, Write, Busy ? &T : 0);
  int Value;
  if (!strcmp(Mode, "timed")) {
    struct timespec Deadline;
    clock_gettime(CLOCK_REALTIME, &Deadline);
    Deadline.tv_sec += 600;
    if (pthread_timedjoin_np(T, 0, &Deadline))
      return 1;
    Value = Written;
  } else if (Busy) {
    invisible_wait(&WrittenFlag);
    if (pthread_tryjoin_np(T, 0) != EBUSY)
      return 1;
    Value = Written;
    invisible_signal(&MainRead);
    pthread_join(T, 0);
  } else {
    while (pthread_tryjoin_np(T, 0) == EBUSY)
      sched_yield();
    Value = Written;
  }
  printf("joined: %d\n", Value);
  return 0;
}
