// seeds/000 figure 1: T1 updates DATA, then sets FLAG and signals under the
// lock; T2 waits in a loop until FLAG is set, then uses DATA. Locks give no
// ordering in the hybrid machines, so T2 is ordered after T1 only through
// the condition variable.
//
// "first": the waiter is already waiting when the signal comes; the wait
// returns and orders the threads. "lost": the signal comes before the waiter
// arrives, wait is never called, and only the compiler-marked loop exit
// (precise=1) orders the threads. With precise=0 the lost signal brings back
// the false report of the hybrid machines.
//
// RUN: %hrace_cc -O0 %s -o %t.O0 && %hrace_cc -O2 %s -o %t.O2
// RUN: %t.O0 first 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: %t.O2 first 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: %t.O0 lost 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: %t.O2 lost 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: env HRACE_OPTIONS=msm=long %t.O2 lost 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: env HRACE_OPTIONS=precise=0 %t.O2 first 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: env HRACE_OPTIONS=precise=0 not %t.O0 lost 2>&1 | FileCheck %s --check-prefix=FALSE-POSITIVE
// RUN: env HRACE_OPTIONS=precise=0 not %t.O2 lost 2>&1 | FileCheck %s --check-prefix=FALSE-POSITIVE
// SILENT-NOT: WARNING: HybridRace
// SILENT:     DATA=2
// FALSE-POSITIVE: WARNING: HybridRace: data race
// FALSE-POSITIVE: #0 Waiter {{.*}}lost_signal_figure1.c:45

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int DATA, FLAG;
static pthread_mutex_t L = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t CV = PTHREAD_COND_INITIALIZER;
static int WaiterStarted, SignalSent, LostSignal;

static void *Waiter(void *Arg) {
  invisible_signal(&WaiterStarted);
  if (LostSignal)
    invisible_wait(&SignalSent);
  pthread_mutex_lock(&L);
  while (FLAG != 1)
    pthread_cond_wait(&CV, &L);
  pthread_mutex_unlock(&L);
  DATA++;
  return Arg;
}

int main(int Argc, char **Argv) {
  LostSignal = Argc > 1 && !strcmp(Argv[1], "lost");
  pthread_t T;
  pthread_create(&T, NULL, Waiter, NULL);
  invisible_wait(&WaiterStarted);
  if (!LostSignal) {
    // Ordering only: give the waiter time to block in pthread_cond_wait.
    struct timespec Ts = {0, 200 * 1000 * 1000};
    nanosleep(&Ts, NULL);
  }
  DATA++;
  pthread_mutex_lock(&L);
  FLAG = 1;
  pthread_cond_signal(&CV);
  pthread_mutex_unlock(&L);
  invisible_signal(&SignalSent);
  pthread_join(T, NULL);
  printf("DATA=%d\n", DATA);
  return 0;
}
