// In precise mode every access a thread makes while it holds a lock is
// recorded in the thread's ring of region accesses, outside the runtime
// (runtime/hrace_write_read.h, RegionAccesses::Add), so a signal may arrive
// in the middle of a record. Here a 1 kHz SIGALRM timer interrupts the main
// thread while it updates a table under a mutex, and the handler's own
// stores are recorded into the same ring. The worker updates the table under
// the same mutex (SIGALRM blocked there). Every signal is handled, nothing
// is reported, and every update is kept: the table's words stay equal.
//
// RUN: %hrace_cc %s -o %t
// RUN: timeout 600 %t %scale 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     recorded accesses under signals: consistent
// CHECK-NOT: WARNING: HybridRace

#include "hrace_test_sync.h"
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

enum { kWords = 64, kHandlerWords = 16 };

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static long Table[kWords];
// Written by the handler only, which runs on the main thread only.
static long HandlerWords[kHandlerWords];
static int Handled, Stop;

static void OnAlarm(int Sig) {
  (void)Sig;
  int N = __atomic_load_n(&Handled, __ATOMIC_RELAXED);
  for (int I = 0; I < kHandlerWords; I++)
    HandlerWords[I] = N + I;
  __atomic_store_n(&Handled, N + 1, __ATOMIC_RELAXED);
}

static void UpdateTable(void) {
  pthread_mutex_lock(&M);
  for (int I = 0; I < kWords; I++)
    Table[I]++;
  pthread_mutex_unlock(&M);
}

static void *Worker(void *Arg) {
  (void)Arg;
  sigset_t Alarm;
  sigemptyset(&Alarm);
  sigaddset(&Alarm, SIGALRM);
  pthread_sigmask(SIG_BLOCK, &Alarm, 0);
  while (!invisible_load(&Stop))
    UpdateTable();
  return 0;
}

int main(int Argc, char **Argv) {
  int Wanted = Argc > 1 && !strcmp(Argv[1], "full") ? 10000 : 1000;
  signal(SIGALRM, OnAlarm);
  pthread_t W;
  pthread_create(&W, 0, Worker, 0);
  struct itimerval Every1ms = {{0, 1000}, {0, 1000}};
  setitimer(ITIMER_REAL, &Every1ms, 0);
  while (__atomic_load_n(&Handled, __ATOMIC_RELAXED) < Wanted)
    UpdateTable();
  struct itimerval Off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &Off, 0);
  invisible_signal(&Stop);
  pthread_join(W, 0);
  int Equal = 1;
  for (int I = 1; I < kWords; I++)
    Equal &= Table[I] == Table[0];
  printf("recorded accesses under signals: %s\n",
         Equal && Table[0] > 0 ? "consistent" : "LOST UPDATES");
  return 0;
}
