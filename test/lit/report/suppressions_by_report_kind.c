// Each report kind has its suppression kind: deadlock: for lock-order
// inversions, mutex: for misuse of a mutex, thread: for thread leaks,
// signal: for signal-unsafe calls, misuse: for the rest of the pthreads
// misuse. Its pattern matches any frame of the report's stacks; a
// suppression of another kind does not silence it.
//
// RUN: %hrace_cc %s -o %t
// RUN: echo 'deadlock:LockInOrder' > %t.supp
// RUN: echo 'mutex:ReleaseTwice' >> %t.supp
// RUN: echo 'thread:StartLeaky' >> %t.supp
// RUN: echo 'signal:Handler' >> %t.supp
// RUN: echo 'misuse:InitEmptyBarrier' >> %t.supp
// RUN: echo 'race:*' > %t.other-kind
// RUN: echo 'deadlock:ReleaseTwice' >> %t.other-kind
// RUN: echo 'mutex:StartLeaky' >> %t.other-kind
// RUN: echo 'thread:Handler' >> %t.other-kind
// RUN: echo 'signal:InitEmptyBarrier' >> %t.other-kind
// RUN: echo 'misuse:LockInOrder' >> %t.other-kind
//
// RUN: env HRACE_OPTIONS=suppressions=%t.other-kind not %t deadlock 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// RUN: env HRACE_OPTIONS=suppressions=%t.supp %t deadlock 2>&1 | FileCheck %s --check-prefix=SILENT --allow-empty
// DEADLOCK: SUMMARY: HybridRace: lock-order-inversion (potential deadlock) {{.*}} in LockInOrder
//
// RUN: env HRACE_OPTIONS=suppressions=%t.other-kind not %t mutex 2>&1 | FileCheck %s --check-prefix=MUTEX
// RUN: env HRACE_OPTIONS=suppressions=%t.supp %t mutex 2>&1 | FileCheck %s --check-prefix=SILENT --allow-empty
// MUTEX: SUMMARY: HybridRace: unlock-of-unlocked-mutex {{.*}} in ReleaseTwice
//
// RUN: env HRACE_OPTIONS=suppressions=%t.other-kind not %t leak 2>&1 | FileCheck %s --check-prefix=LEAK
// RUN: env HRACE_OPTIONS=suppressions=%t.supp %t leak 2>&1 | FileCheck %s --check-prefix=SILENT --allow-empty
// LEAK: SUMMARY: HybridRace: thread-leak {{.*}} in StartLeaky
//
// RUN: env HRACE_OPTIONS=suppressions=%t.other-kind not %t signal 2>&1 | FileCheck %s --check-prefix=SIGNAL
// RUN: env HRACE_OPTIONS=suppressions=%t.supp %t signal 2>&1 | FileCheck %s --check-prefix=SILENT --allow-empty
// SIGNAL: SUMMARY: HybridRace: signal-unsafe-call {{.*}} in Handler
//
// RUN: env HRACE_OPTIONS=suppressions=%t.other-kind not %t misuse 2>&1 | FileCheck %s --check-prefix=MISUSE
// RUN: env HRACE_OPTIONS=suppressions=%t.supp %t misuse 2>&1 | FileCheck %s --check-prefix=SILENT --allow-empty
// MISUSE: SUMMARY: HybridRace: invalid-barrier-init {{.*}} in InitEmptyBarrier
//
// SILENT-NOT: HybridRace

#include "hrace_test_sync.h"
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t A = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t B = PTHREAD_MUTEX_INITIALIZER;
static int LeakyDone;
static void *volatile Allocated;

__attribute__((noinline)) static void LockInOrder(pthread_mutex_t *First,
                                                  pthread_mutex_t *Second) {
  pthread_mutex_lock(First);
  pthread_mutex_lock(Second);
  pthread_mutex_unlock(Second);
  pthread_mutex_unlock(First);
}

__attribute__((noinline)) static void ReleaseTwice(void) {
  pthread_mutex_lock(&A);
  pthread_mutex_unlock(&A);
  pthread_mutex_unlock(&A);
}

static void *Finish(void *Arg) {
  invisible_signal(&LeakyDone);
  return Arg;
}

__attribute__((noinline)) static void StartLeaky(void) {
  pthread_t T;
  pthread_create(&T, NULL, Finish, NULL);
  invisible_wait(&LeakyDone);
  // Only orders: lets the thread return from its start routine.
  usleep(200000);
}

__attribute__((noinline)) static void Handler(int Sig) {
  Allocated = malloc(16);
  free(Allocated);
}

__attribute__((noinline)) static void InitEmptyBarrier(void) {
  pthread_barrier_t Barrier;
  pthread_barrier_init(&Barrier, NULL, 0);
}

int main(int Argc, char **Argv) {
  const char *Mode = Argc > 1 ? Argv[1] : "";
  if (!strcmp(Mode, "deadlock")) {
    LockInOrder(&A, &B);
    LockInOrder(&B, &A);
  } else if (!strcmp(Mode, "mutex")) {
    ReleaseTwice();
  } else if (!strcmp(Mode, "leak")) {
    StartLeaky();
  } else if (!strcmp(Mode, "signal")) {
    signal(SIGUSR1, Handler);
    raise(SIGUSR1);
  } else if (!strcmp(Mode, "misuse")) {
    InitEmptyBarrier();
  }
  return 0;
}
