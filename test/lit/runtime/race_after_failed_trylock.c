// A trylock that fails (EBUSY) acquires nothing: the caller holds no lock
// and is not ordered after the owner, so its write races with the owner's
// write inside the critical section.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <errno.h>
#include <pthread.h>

int Slot;
static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
static int Locked, Tried;

static void *Owner(void *Arg) {
  pthread_mutex_lock(&Lock);
  Slot = 1;
  invisible_signal(&Locked);
  invisible_wait(&Tried);
  pthread_mutex_unlock(&Lock);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Owner, NULL);
  invisible_wait(&Locked);
  if (pthread_mutex_trylock(&Lock) == EBUSY) {
    Slot = 2;
    // CHECK:      WARNING: HybridRace: data race
    // CHECK-NEXT:   Write of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T0 (locks held: none):
    // CHECK-NEXT:     #0 main {{.*}}race_after_failed_trylock.c:[[@LINE-3]]
    // CHECK-NEXT:   Previous write of size 4 at [[ADDR]] by thread T1 (locks held: {M1}):
    // CHECK-NEXT:     #0 Owner {{.*}}race_after_failed_trylock.c:[[@LINE-17]]
  }
  invisible_signal(&Tried);
  pthread_join(T, NULL);
  return 0;
}
