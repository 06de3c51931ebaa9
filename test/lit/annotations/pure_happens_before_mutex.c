// ANNOTATE_PURE_HAPPENS_BEFORE_MUTEX makes one mutex order like msm=hb in
// the hybrid machines. A global written before an unlock and read after
// the next lock's section by another thread is a hand-off the default mode
// does not follow (hand-off edges cover heap blocks): reported without the
// annotation, silent with it, and silent in msm=hb either way.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t plain 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: %t annotated 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env HRACE_OPTIONS=msm=long %t annotated 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env HRACE_OPTIONS=msm=hb %t plain 2>&1 | FileCheck %s --check-prefix=QUIET
// PLAIN:     WARNING: HybridRace: data race
// PLAIN:     SUMMARY: HybridRace: data race {{.*}} in Consumer
// QUIET-NOT: WARNING: HybridRace
// QUIET:     value 42

#include "hrace_test_sync.h"
#include <hrace/annotations.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
int Value, Ready, Seen;
static int Unlocked;

static void *Producer(void *Arg) {
  (void)Arg;
  Value = 42;
  pthread_mutex_lock(&M);
  Ready = 1;
  pthread_mutex_unlock(&M);
  invisible_signal(&Unlocked);
  return 0;
}

static void *Consumer(void *Arg) {
  (void)Arg;
  // Ordering only: the consumer's section comes after the producer's.
  invisible_wait(&Unlocked);
  pthread_mutex_lock(&M);
  int R = Ready;
  pthread_mutex_unlock(&M);
  if (R)
    Seen = Value;
  return 0;
}

int main(int Argc, char **Argv) {
  if (Argc > 1 && !strcmp(Argv[1], "annotated"))
    ANNOTATE_PURE_HAPPENS_BEFORE_MUTEX(&M);
  pthread_t A, B;
  pthread_create(&A, 0, Producer, 0);
  pthread_create(&B, 0, Consumer, 0);
  pthread_join(A, 0);
  pthread_join(B, 0);
  printf("value %d\n", Seen);
  return 0;
}
