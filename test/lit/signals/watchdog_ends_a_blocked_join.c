// A watchdog: the main thread joins a thread that never ends, and a SIGALRM
// handler ends the process. The join blocks inside the runtime's
// interceptor; a signal there is handled at once, not deferred until the
// join returns (it never would).
//
// RUN: %hrace_cc %s -o %t
// RUN: timeout 60 %t 2>&1 | FileCheck %s
// CHECK: watchdog fired during the join

#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t Never = PTHREAD_COND_INITIALIZER;

static void OnAlarm(int Sig) {
  (void)Sig;
  const char Msg[] = "watchdog fired during the join\n";
  write(2, Msg, strlen(Msg));
  _exit(0);
}

static void *WaitForever(void *Arg) {
  (void)Arg;
  pthread_mutex_lock(&M);
  for (;;)
    pthread_cond_wait(&Never, &M);
  return 0;
}

int main(void) {
  signal(SIGALRM, OnAlarm);
  pthread_t T;
  pthread_create(&T, 0, WaitForever, 0);
  alarm(1);
  pthread_join(T, 0);
  return 1;
}
