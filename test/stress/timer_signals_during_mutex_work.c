// A 1 kHz SIGALRM timer for 10 s (short: 1 s) while two threads take and
// release a mutex as fast as they can: every signal is handled (most arrive
// inside the runtime and wait for it to be left) and nothing hangs.
//
// RUN: %hrace_cc %s -o %t
// RUN: timeout 600 %t %scale 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     timer signals handled: all
// CHECK-NOT: WARNING: HybridRace

#include "hrace_test_sync.h"
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static long Counter;
static int Handled, Stop;

static void OnAlarm(int Sig) {
  (void)Sig;
  __atomic_add_fetch(&Handled, 1, __ATOMIC_RELAXED);
}

static void *Lock(void *Arg) {
  (void)Arg;
  while (!invisible_load(&Stop)) {
    pthread_mutex_lock(&M);
    Counter++;
    pthread_mutex_unlock(&M);
  }
  return 0;
}

int main(int Argc, char **Argv) {
  int Wanted = Argc > 1 && !strcmp(Argv[1], "full") ? 10000 : 1000;
  signal(SIGALRM, OnAlarm);
  pthread_t W;
  pthread_create(&W, 0, Lock, 0);
  struct itimerval Every1ms = {{0, 1000}, {0, 1000}};
  setitimer(ITIMER_REAL, &Every1ms, 0);
  while (__atomic_load_n(&Handled, __ATOMIC_RELAXED) < Wanted) {
    pthread_mutex_lock(&M);
    Counter++;
    pthread_mutex_unlock(&M);
  }
  struct itimerval Off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &Off, 0);
  invisible_signal(&Stop);
  pthread_join(W, 0);
  printf("timer signals handled: all\n");
  return 0;
}
