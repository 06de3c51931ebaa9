// POSIX lets a condition variable be destroyed as soon as no thread is
// blocked on it: right after the broadcast that woke its waiters, before
// they have returned from their waits. Main destroys it while still holding
// the mutex, so the woken waiter is certainly still inside
// pthread_cond_wait: neither a misuse report nor a race, in any machine. A
// waiter that no signal woke still makes the destroy a misuse
// (cond_destroyed_while_waited_on.c).
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=short %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t 2>&1 | FileCheck %s
// CHECK-NOT: WARNING
// CHECK:     done
// CHECK-NOT: WARNING

#include "../Inputs/hrace_test_sync.h"

#include <pthread.h>
#include <stdio.h>

pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t C;
int Ready, Waiting;

static void *Waiter(void *Arg) {
  pthread_mutex_lock(&M);
  invisible_signal(&Waiting);
  while (!Ready)
    pthread_cond_wait(&C, &M);
  pthread_mutex_unlock(&M);
  return Arg;
}

int main(void) {
  pthread_cond_init(&C, NULL);
  pthread_t T;
  pthread_create(&T, NULL, Waiter, NULL);
  invisible_wait(&Waiting);
  // Taken only once the waiter has released it inside its wait.
  pthread_mutex_lock(&M);
  Ready = 1;
  pthread_cond_broadcast(&C);
  pthread_cond_destroy(&C);
  pthread_mutex_unlock(&M);
  pthread_join(T, NULL);
  printf("done\n");
  return 0;
}
