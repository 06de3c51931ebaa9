// Table II of seeds/002, I&I False lock (race): T1 increments X holding
// Locks[0], T2 holding Locks[1]. The serialised-updates rule does not apply
// (the other increment is made under another lock), so the read of each
// increment has the other thread's increment as its one write dependency,
// parallel to it. The ordinary race checker reports the race too.
//
// Both threads run Incrementer: one report, for whichever read is found
// first (see unlocked_increments_are_reported.c). Which lock is M1 depends on
// which thread locks first; the checks say the write is the other thread's,
// made under the other lock.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=exitcode=0 %t 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: non-deterministic read
// OFF:     done
// OFF-NOT: non-deterministic read

#include <pthread.h>
#include <stdio.h>

int X;
static pthread_mutex_t Locks[2] = {PTHREAD_MUTEX_INITIALIZER,
                                   PTHREAD_MUTEX_INITIALIZER};

static void *Incrementer(void *Arg) {
  long Id = (long)Arg;
  pthread_mutex_lock(&Locks[Id]);
  X++;
  pthread_mutex_unlock(&Locks[Id]);
  return Arg;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T[[#READER:]] (locks held: {M[[#LOCK:]]}):
// CHECK-NEXT:     #0 Incrementer {{.*}}increments_under_different_locks_are_reported.c:[[@LINE-6]]
// CHECK-NEXT:   has 1 write dependency:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T[[#3-READER]] (locks held: {M[[#3-LOCK]]}), parallel to the read:
// CHECK-NEXT:       #0 Incrementer {{.*}}increments_under_different_locks_are_reported.c:[[@LINE-9]]
// CHECK:      Location is global 'X' of size 4
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}increments_under_different_locks_are_reported.c:[[@LINE-11]] in Incrementer
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Incrementer, (void *)0);
  pthread_create(&T2, NULL, Incrementer, (void *)1);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("done\n");
  return 0;
}
