// While T1 waits on C with mutex M1, main waits on C with M2: POSIX binds a
// condition variable to one mutex while threads wait on it. Main can only
// lock M1 once T1's wait has released it, so T1 is waiting by then. Using C
// with another mutex once no thread waits is fine (FINE).
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
//
// CHECK:      WARNING: HybridRace: condition variable waited on with two mutexes
// CHECK-NEXT:   Thread T0 waits on condition variable 0x{{[0-9a-f]+}} with mutex [[M2:M[0-9]+]] while other threads wait on it with mutex [[M1:M[0-9]+]]:
// CHECK-NEXT:     #0 main {{.*}}.c:[[@LINE+32]]
// CHECK-NEXT:   Mutex [[M2]] at 0x{{[0-9a-f]+}} was first observed
// CHECK:        Mutex [[M1]] at 0x{{[0-9a-f]+}} was first observed
// CHECK:      SUMMARY: HybridRace: cond-with-two-mutexes
// CHECK:      HybridRace: reported 1 warning

#include "hrace_test_sync.h"
#include <pthread.h>
#include <time.h>

static pthread_mutex_t M1 = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t M2 = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t C = PTHREAD_COND_INITIALIZER;
static int Ready, Done;

static void *Waiter(void *Arg) {
  pthread_mutex_lock(&M1);
  invisible_signal(&Ready);
  while (!Done)
    pthread_cond_wait(&C, &M1);
  pthread_mutex_unlock(&M1);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, 0, Waiter, 0);
  invisible_wait(&Ready);
  pthread_mutex_lock(&M1);
  pthread_mutex_unlock(&M1);
  struct timespec Past = {0, 0};
  pthread_mutex_lock(&M2);
  pthread_cond_timedwait(&C, &M2, &Past); // @second
  pthread_mutex_unlock(&M2);
  pthread_mutex_lock(&M1);
  Done = 1;
  pthread_cond_signal(&C);
  pthread_mutex_unlock(&M1);
  pthread_join(T, 0);
  // Nobody waits now: C may be used with M2.
  pthread_mutex_lock(&M2);
  pthread_cond_timedwait(&C, &M2, &Past);
  pthread_mutex_unlock(&M2);
  return 0;
}
