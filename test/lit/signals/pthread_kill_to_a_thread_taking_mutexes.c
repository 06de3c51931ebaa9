// The main thread sends SIGUSR1 to a worker 2,000 times while the worker
// takes and releases a mutex in a loop (the runtime's own locks are often
// held when a signal lands). Each signal is handled, in the worker, before
// the next is sent; the handler's accesses are the worker's own, so nothing
// is reported and the program ends.
//
// RUN: %hrace_cc %s -o %t
// RUN: timeout 120 %t 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     2000 signals handled by the worker
// CHECK-NOT: WARNING: HybridRace

#include "hrace_test_sync.h"
#include <pthread.h>
#include <signal.h>
#include <stdio.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static long Counter;
static int Stop;
static int HandledCount;
static pthread_t Worker;
long WorkerSignals;

static void OnUsr1(int Sig) {
  (void)Sig;
  // The handler runs in the worker: its access is ordered with the
  // worker's own.
  if (pthread_equal(pthread_self(), Worker))
    WorkerSignals++;
  __atomic_add_fetch(&HandledCount, 1, __ATOMIC_RELEASE);
}

static void *TakeMutexes(void *Arg) {
  (void)Arg;
  while (!invisible_load(&Stop)) {
    pthread_mutex_lock(&M);
    Counter++;
    pthread_mutex_unlock(&M);
  }
  return 0;
}

int main(void) {
  struct sigaction Act = {0};
  Act.sa_handler = OnUsr1;
  sigemptyset(&Act.sa_mask);
  sigaction(SIGUSR1, &Act, 0);
  pthread_create(&Worker, 0, TakeMutexes, 0);
  for (int I = 1; I <= 2000; I++) {
    pthread_kill(Worker, SIGUSR1);
    for (unsigned Spins = 0; invisible_load(&HandledCount) < I; ++Spins)
      invisible_pause(Spins);
  }
  invisible_signal(&Stop);
  pthread_join(Worker, 0);
  printf("%ld signals handled by the worker\n", WorkerSignals);
  return 0;
}
