// pthread_cond_wait needs the caller to hold the mutex: waiting with an
// unlocked mutex, or with one another thread holds, is reported (a timed
// wait with a time in the past, so that the run goes on).
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t unlocked 2>&1 | FileCheck %s --check-prefix=UNLOCKED
// RUN: env HRACE_OPTIONS=halt_on_error=1 not %t other 2>&1 | FileCheck %s --check-prefix=OTHER
//
// UNLOCKED:      WARNING: HybridRace: condition wait with an unlocked mutex
// UNLOCKED-NEXT:   Thread T0 waits on condition variable 0x{{[0-9a-f]+}} with mutex [[M:M[0-9]+]], which it does not hold:
// UNLOCKED-NEXT:     #0 WaitUnlocked {{.*}}.c:[[@LINE+31]]
// UNLOCKED:        Mutex [[M]] at 0x{{[0-9a-f]+}} was first observed by thread T0 at:
// UNLOCKED:      SUMMARY: HybridRace: cond-wait-with-unlocked-mutex
//
// OTHER:      WARNING: HybridRace: condition wait with a mutex held by another thread
// OTHER-NEXT:   Thread T0 waits on condition variable 0x{{[0-9a-f]+}} with mutex [[M:M[0-9]+]], which it does not hold:
// OTHER-NEXT:     #0 WaitOther {{.*}}.c:[[@LINE+32]]
// OTHER:        Mutex [[M]] at 0x{{[0-9a-f]+}} is held by thread T1
// OTHER:      SUMMARY: HybridRace: cond-wait-with-mutex-held-by-another-thread

#include "hrace_test_sync.h"
#include <pthread.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t C = PTHREAD_COND_INITIALIZER;
static struct timespec Past = {0, 0};
static int Locked;

static void *Holder(void *Arg) {
  pthread_mutex_lock(&M);
  invisible_signal(&Locked);
  for (;;)
    invisible_pause(0);
  return Arg;
}

static __attribute__((noinline)) void WaitUnlocked(void) {
  pthread_mutex_lock(&M);
  pthread_mutex_unlock(&M);
  pthread_cond_timedwait(&C, &M, &Past); // @unlocked
}

static __attribute__((noinline)) void WaitOther(void) {
  pthread_t T;
  pthread_create(&T, 0, Holder, 0);
  invisible_wait(&Locked);
  pthread_cond_timedwait(&C, &M, &Past); // @other
}

int main(int Argc, char **Argv) {
  if (!strcmp(Argv[1], "unlocked"))
    WaitUnlocked();
  else
    WaitOther();
  return 0;
}
