// A thread writes just after unlocking; main then takes the same lock and
// writes. The lock orders only what precedes the unlock, so the write after
// it still races: the report shows it was made with no lock held while the
// other access held M1.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>

int Total;
static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
static int ThreadWrote;

static void *Thread1(void *Arg) {
  pthread_mutex_lock(&Lock);
  pthread_mutex_unlock(&Lock);
  Total = 1;
  invisible_signal(&ThreadWrote);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Thread1, NULL);
  invisible_wait(&ThreadWrote);
  pthread_mutex_lock(&Lock);
  Total = 2;
  // CHECK:      WARNING: HybridRace: data race
  // CHECK-NEXT:   Write of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T0 (locks held: {M1}):
  // CHECK-NEXT:     #0 main {{.*}}race_write_after_unlock.c:[[@LINE-3]]
  // CHECK-NEXT:   Previous write of size 4 at [[ADDR]] by thread T1 (locks held: none):
  // CHECK-NEXT:     #0 Thread1 {{.*}}race_write_after_unlock.c:[[@LINE-15]]
  pthread_mutex_unlock(&Lock);
  pthread_join(T, NULL);
  return 0;
}
