// A synchronisation object is memory: pthread_mutex_destroy writes it, every
// lock and unlock reads it (atomically: they never race with each other).
// Main destroys a mutex that T1 locked and unlocked without anything
// ordering them before the destroy (the report names the first use of T1's
// segment, the lock): a data race in msm=hb, where locks order and
// the program is judged as ThreadSanitizer judges it. The hybrid machines
// let a destroy forget the uses before it (locks do not order there, and
// the object's own order would otherwise make every destroy a race): only
// a use after the destroy is checked, and this program is silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb:report_misuse=0 not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=short:report_misuse=0 %t 2>&1 | FileCheck %s --check-prefix=HYBRID

#include "../Inputs/hrace_test_sync.h"

#include <pthread.h>
#include <stdio.h>

pthread_mutex_t M;
int Unlocked, Destroyed;

static void *User(void *Arg) {
  pthread_mutex_lock(&M);
  pthread_mutex_unlock(&M);
  invisible_signal(&Unlocked);
  return Arg;
}

int main(void) {
  pthread_mutex_init(&M, NULL);
  pthread_t T;
  pthread_create(&T, NULL, User, NULL);
  invisible_wait(&Unlocked);
  pthread_mutex_destroy(&M); // @destroy
  fprintf(stderr, "destroyed\n");
  pthread_join(T, NULL);
  return 0;
}

// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Write of size 1 at [[ADDR:0x[0-9a-f]+]] by thread T0 (locks held: none):
// CHECK-NEXT:     #0 pthread_mutex_destroy
// CHECK-NEXT:     #1 main {{.*}}destroy_not_ordered_after_a_use_races.c:[[@LINE-9]]
// CHECK-NEXT:   Previous atomic read of size 1 at [[ADDR]] by thread T1 (locks held: {M1}):
// CHECK-NEXT:     #0 pthread_mutex_lock
// CHECK:        Location is global 'M' of size {{[0-9]+}} at [[ADDR]]
// CHECK:      HybridRace: reported 1 warning
// HYBRID-NOT: WARNING
// HYBRID:     destroyed
// HYBRID-NOT: WARNING
