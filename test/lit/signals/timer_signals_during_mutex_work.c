// A SIGALRM timer fires every millisecond while the only thread takes and
// releases a mutex in a loop, so most signals arrive inside the runtime
// (holding its own locks). The handler touches instrumented memory; it runs
// once the thread leaves the runtime, and the program ends normally with
// every signal handled and nothing reported.
//
// RUN: %hrace_cc %s -o %t
// RUN: timeout 120 %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb timeout 120 %t 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     handled at least 300 timer signals
// CHECK-NOT: WARNING: HybridRace

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static long Counter;
int Handled;
int HandlerSeen[16];

static void OnAlarm(int Sig) {
  (void)Sig;
  HandlerSeen[Handled % 16]++;
  Handled++;
}

int main(void) {
  struct sigaction Act = {0};
  Act.sa_handler = OnAlarm;
  sigemptyset(&Act.sa_mask);
  sigaction(SIGALRM, &Act, 0);
  struct itimerval Every1ms = {{0, 1000}, {0, 1000}};
  setitimer(ITIMER_REAL, &Every1ms, 0);
  while (__atomic_load_n(&Handled, __ATOMIC_RELAXED) < 300) {
    pthread_mutex_lock(&M);
    Counter++;
    pthread_mutex_unlock(&M);
  }
  struct itimerval Off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &Off, 0);
  printf("handled at least %d timer signals\n", 300);
  return Counter > 0 ? 0 : 1;
}
