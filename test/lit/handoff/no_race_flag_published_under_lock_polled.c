// T1 writes Data without a lock, then sets Flag under M. T2 polls Flag under
// M until it is set, then uses Data. No condition variable: the hybrid
// machines see only lock sets, and Data is a global (outside any hand-off's
// scope). What orders T2 after T1 is the polling loop, which the compiler
// marks like a wait loop: at its exit T2 is ordered after the writer of the
// Flag its condition read under M. Three forms of polling:
//   "sleep":  lock; f = Flag; unlock; if (f) break; usleep(100);
//   "yield":  lock; while (!Flag) { unlock; sched_yield(); lock; } unlock;
//   "helper": while (!FlagIsSet()) usleep(100); with FlagIsSet() noinline.
// "t1-first": T2 starts polling after T1 finished, so its first read sees
// the flag set; "t2-first": T2 is polling when T1 sets the flag.
// precise=0 has no marked loops: the paper's false positive, pinned.
//
// RUN: %hrace_cc -O0 %s -o %t.O0 && %hrace_cc -O2 %s -o %t.O2
// RUN: %t.O0 sleep t1-first 2>&1 | FileCheck %s
// RUN: %t.O2 sleep t1-first 2>&1 | FileCheck %s
// RUN: %t.O0 sleep t2-first 2>&1 | FileCheck %s
// RUN: %t.O2 sleep t2-first 2>&1 | FileCheck %s
// RUN: %t.O0 yield t1-first 2>&1 | FileCheck %s
// RUN: %t.O2 yield t1-first 2>&1 | FileCheck %s
// RUN: %t.O0 yield t2-first 2>&1 | FileCheck %s
// RUN: %t.O2 yield t2-first 2>&1 | FileCheck %s
// RUN: %t.O0 helper t1-first 2>&1 | FileCheck %s
// RUN: %t.O2 helper t1-first 2>&1 | FileCheck %s
// RUN: %t.O0 helper t2-first 2>&1 | FileCheck %s
// RUN: %t.O2 helper t2-first 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t.O2 sleep t1-first 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t.O2 yield t2-first 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t.O2 helper t1-first 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t.O2 sleep t2-first 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t.O0 helper t1-first 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=precise=0 not %t.O0 sleep t1-first 2>&1 | FileCheck %s --check-prefix=IMPRECISE
// RUN: env HRACE_OPTIONS=precise=0 not %t.O2 sleep t1-first 2>&1 | FileCheck %s --check-prefix=IMPRECISE
// CHECK-NOT: WARNING: HybridRace
// CHECK:     Data=43
// IMPRECISE: WARNING: HybridRace: data race
// IMPRECISE:   Location is global 'Data'

#include "hrace_test_sync.h"
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int Data, Flag;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static const char *Form;
static int T1First, T1Done;

__attribute__((noinline)) static int FlagIsSet(void) {
  pthread_mutex_lock(&M);
  int F = Flag;
  pthread_mutex_unlock(&M);
  return F;
}

static void *Thread1(void *Arg) {
  Data = 42;
  pthread_mutex_lock(&M);
  Flag = 1;
  pthread_mutex_unlock(&M);
  invisible_signal(&T1Done);
  return Arg;
}

static void *Thread2(void *Arg) {
  // Ordering only: in "t1-first" the flag is set before T2 first looks; the
  // polling loop then orders T2 after T1.
  if (T1First)
    invisible_wait(&T1Done);
  if (!strcmp(Form, "sleep")) {
    for (;;) {
      pthread_mutex_lock(&M);
      int F = Flag;
      pthread_mutex_unlock(&M);
      if (F)
        break;
      usleep(100);
    }
  } else if (!strcmp(Form, "yield")) {
    pthread_mutex_lock(&M);
    while (!Flag) {
      pthread_mutex_unlock(&M);
      sched_yield();
      pthread_mutex_lock(&M);
    }
    pthread_mutex_unlock(&M);
  } else {
    while (!FlagIsSet())
      usleep(100);
  }
  Data++;
  printf("Data=%d\n", Data);
  return Arg;
}

int main(int Argc, char **Argv) {
  Form = Argc > 1 ? Argv[1] : "sleep";
  T1First = Argc > 2 && !strcmp(Argv[2], "t1-first");
  pthread_t A, B;
  pthread_create(&B, NULL, Thread2, NULL);
  if (!T1First) {
    // Ordering only: let T2 start polling before T1 sets the flag.
    struct timespec Ts = {0, 100 * 1000 * 1000};
    nanosleep(&Ts, NULL);
  }
  pthread_create(&A, NULL, Thread1, NULL);
  pthread_join(A, NULL);
  pthread_join(B, NULL);
  return 0;
}
