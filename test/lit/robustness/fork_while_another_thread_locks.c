// fork() while another thread keeps taking a mutex (and with it the
// runtime's own locks): every child must find the runtime's locks free,
// run threads of its own, and exit normally. In the child only the forking
// thread is left: a thread it creates and joins is ordered by the join, and
// a race between two of its threads is reported with the child's pid and
// tid, and only by the child (the parent's exit status stays 0).
//
// RUN: %hrace_cc %s -o %t
// RUN: timeout 300 %t 300 2>&1 | FileCheck %s
// CHECK:     WARNING: HybridRace: data race (pid=[[PID:[0-9]+]])
// CHECK:     Thread T0 (tid=[[PID]], running) is the main thread
// CHECK:     child [[PID]] exited with 66
// CHECK-NOT: WARNING: HybridRace
// CHECK:     300 children exited normally

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static long Counter;
static int Stop;
int X, Y;

static void *LockAFewMillionTimes(void *Arg) {
  while (!__atomic_load_n(&Stop, __ATOMIC_RELAXED)) {
    pthread_mutex_lock(&M);
    Counter++;
    pthread_mutex_unlock(&M);
  }
  return Arg;
}

static void *WriteX(void *Arg) {
  X++;
  return Arg;
}

static int YWritten;
static void *WriteY(void *Arg) {
  Y = 1;
  invisible_signal(&YWritten);
  return Arg;
}

// In a child: a thread joined before its write is used (silent), and, in
// the last child, two threads writing Y unordered (reported).
static void Child(int Racy) {
  pthread_t T;
  pthread_create(&T, NULL, WriteX, NULL);
  pthread_join(T, NULL);
  X++;
  if (Racy) {
    pthread_create(&T, NULL, WriteY, NULL);
    invisible_wait(&YWritten);
    Y = 2;
    pthread_join(T, NULL);
  }
  exit(0);
}

int main(int Argc, char **Argv) {
  int N = atoi(Argv[1]);
  pthread_t Locker;
  pthread_create(&Locker, NULL, LockAFewMillionTimes, NULL);
  int Normal = 0;
  for (int I = 0; I < N; I++) {
    pid_t Pid = fork();
    if (Pid == 0)
      Child(I == N - 1);
    int Status;
    waitpid(Pid, &Status, 0);
    if (WIFEXITED(Status) && WEXITSTATUS(Status) == 0)
      Normal++;
    else if (WIFEXITED(Status))
      printf("child %d exited with %d\n", (int)Pid, WEXITSTATUS(Status));
    fflush(stdout);
  }
  __atomic_store_n(&Stop, 1, __ATOMIC_RELAXED);
  pthread_join(Locker, NULL);
  printf("%d children exited normally\n", Normal + 1);
  return 0;
}
