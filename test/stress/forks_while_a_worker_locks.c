// 2,000 forks (short: 200) while a worker thread takes a mutex in a loop:
// no child hangs (each must find the runtime's locks free), and every child
// exits normally without a report.
//
// RUN: %hrace_cc %s -o %t
// RUN: timeout 900 %t %scale 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     every child exited normally
// CHECK-NOT: WARNING: HybridRace

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static long Counter;
static int Stop;

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
  int N = Argc > 1 && !strcmp(Argv[1], "full") ? 2000 : 200;
  pthread_t W;
  pthread_create(&W, 0, Lock, 0);
  int Bad = 0;
  for (int I = 0; I < N; I++) {
    pid_t P = fork();
    if (P == 0) {
      // The child's only thread takes the mutex the worker was using: its
      // state is whatever fork copied, so re-initialise it first.
      pthread_mutex_init(&M, 0);
      pthread_mutex_lock(&M);
      Counter++;
      pthread_mutex_unlock(&M);
      _exit(0);
    }
    int Status;
    if (P < 0 || waitpid(P, &Status, 0) != P || !WIFEXITED(Status) ||
        WEXITSTATUS(Status))
      Bad++;
  }
  invisible_signal(&Stop);
  pthread_join(W, 0);
  if (Bad)
    printf("%d children failed\n", Bad);
  else
    printf("every child exited normally\n");
  return 0;
}
