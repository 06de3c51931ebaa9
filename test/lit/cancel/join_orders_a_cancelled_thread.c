// A thread that is cancelled never returns from its start routine, but a
// join still orders everything it did: main reads what it wrote without a
// report, in every machine. Cancelled inside an intercepted wait
// (pthread_cond_wait) or inside a plain cancellation point (pause).
//
// RUN: %hrace_cc %s -o %t
// RUN: %t cond 2>&1 | FileCheck %s
// RUN: %t pause 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t cond 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t pause 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     joined a cancelled thread that wrote 42
// CHECK-NOT: WARNING: HybridRace

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t Never = PTHREAD_COND_INITIALIZER;
static int UseCond;
int Written;

static void Unlock(void *Arg) { pthread_mutex_unlock((pthread_mutex_t *)Arg); }

static void *WriteThenWaitForever(void *Arg) {
  (void)Arg;
  // No cancellation point before this write: deferred cancellation
  // reaches the thread only in the wait below.
  Written = 42;
  if (UseCond) {
    pthread_mutex_lock(&M);
    pthread_cleanup_push(Unlock, &M);
    for (;;)
      pthread_cond_wait(&Never, &M);
    pthread_cleanup_pop(1);
  }
  for (;;)
    pause();
  return 0;
}

int main(int Argc, char **Argv) {
  UseCond = Argc > 1 && !strcmp(Argv[1], "cond");
  pthread_t T;
  void *Result;
  pthread_create(&T, 0, WriteThenWaitForever, 0);
  pthread_cancel(T);
  pthread_join(T, &Result);
  if (Result != PTHREAD_CANCELED)
    return 1;
  printf("joined a cancelled thread that wrote %d\n", Written);
  return 0;
}
