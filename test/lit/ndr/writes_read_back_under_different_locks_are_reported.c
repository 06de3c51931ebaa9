// Table II of seeds/002, W&W False lock (race): T1 writes X holding
// Locks[0] and reads it back in a later section of Locks[0]; T2 does the
// same with Locks[1]. No lock protects both threads' accesses (the ordinary
// race checker reports the race too). The read has two write dependencies:
// the other thread's write, parallel and made under the other lock, and its
// own earlier write.
//
// Both threads run Worker: one report, for whichever read is found first
// (see unlocked_writes_read_back_are_reported.c). Which lock is M1 depends
// on which thread locks first; each thread holds one lock throughout, so the
// checks say: the parallel write is the other thread's, under the other
// lock; the own write is under the read's lock.
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

static void *Worker(void *Arg) {
  long Id = (long)Arg;
  pthread_mutex_lock(&Locks[Id]);
  X = (int)Id;
  pthread_mutex_unlock(&Locks[Id]);
  pthread_mutex_lock(&Locks[Id]);
  int Seen = X;
  pthread_mutex_unlock(&Locks[Id]);
  return (void *)(long)Seen;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T[[#READER:]] (locks held: {M[[#LOCK:]]}):
// CHECK-NEXT:     #0 Worker {{.*}}writes_read_back_under_different_locks_are_reported.c:[[@LINE-6]]
// CHECK-NEXT:   has 2 write dependencies:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T[[#3-READER]] (locks held: {M[[#3-LOCK]]}), parallel to the read:
// CHECK-NEXT:       #0 Worker {{.*}}writes_read_back_under_different_locks_are_reported.c:[[@LINE-12]]
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T[[#READER]] (locks held: {M[[#LOCK]]}):
// CHECK-NEXT:       #0 Worker {{.*}}writes_read_back_under_different_locks_are_reported.c:[[@LINE-14]]
// CHECK:      Location is global 'X' of size 4
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}writes_read_back_under_different_locks_are_reported.c:[[@LINE-13]] in Worker
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Worker, (void *)0);
  pthread_create(&T2, NULL, Worker, (void *)1);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("done\n");
  return 0;
}
