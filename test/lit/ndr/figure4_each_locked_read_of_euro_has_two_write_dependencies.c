// seeds/002 figure 4: every access is locked, yet each thread's print of
// Euro may read its own assignment or the other thread's. Each read has two
// write dependencies: the other thread's write, parallel to it (locks order
// nothing), and its own thread's earlier write. Two reports, one per read.
// Invisible synchronisation runs both writes, then A's read, then B's, so
// that the reports come in that order.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s
// RUN: %t 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: non-deterministic read
// OFF:     done
// OFF-NOT: non-deterministic read

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

int Euro;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static int AWrote, BWrote, ARead;

static void *ThreadA(void *Arg) {
  pthread_mutex_lock(&M);
  Euro = 300;
  pthread_mutex_unlock(&M);
  invisible_signal(&AWrote);
  invisible_wait(&BWrote);
  pthread_mutex_lock(&M);
  int Printed = Euro;
  pthread_mutex_unlock(&M);
  invisible_signal(&ARead);
  return (void *)(long)Printed;
}

static void *ThreadB(void *Arg) {
  invisible_wait(&AWrote);
  pthread_mutex_lock(&M);
  Euro = 500;
  pthread_mutex_unlock(&M);
  invisible_signal(&BWrote);
  invisible_wait(&ARead);
  pthread_mutex_lock(&M);
  int Printed = Euro;
  pthread_mutex_unlock(&M);
  return (void *)(long)Printed;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: {M1}):
// CHECK-NEXT:     #0 ThreadA {{.*}}figure4_each_locked_read_of_euro_has_two_write_dependencies.c:[[@LINE-20]]
// CHECK-NEXT:   has 2 write dependencies:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T2 (locks held: {M1}), parallel to the read:
// CHECK-NEXT:       #0 ThreadB {{.*}}figure4_each_locked_read_of_euro_has_two_write_dependencies.c:[[@LINE-14]]
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T1 (locks held: {M1}):
// CHECK-NEXT:       #0 ThreadA {{.*}}figure4_each_locked_read_of_euro_has_two_write_dependencies.c:[[@LINE-30]]
// CHECK:      Location is global 'Euro' of size 4
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}figure4_each_locked_read_of_euro_has_two_write_dependencies.c:[[@LINE-27]] in ThreadA
//
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR]] by thread T2 (locks held: {M1}):
// CHECK-NEXT:     #0 ThreadB {{.*}}figure4_each_locked_read_of_euro_has_two_write_dependencies.c:[[@LINE-17]]
// CHECK-NEXT:   has 2 write dependencies:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T1 (locks held: {M1}), parallel to the read:
// CHECK-NEXT:       #0 ThreadA {{.*}}figure4_each_locked_read_of_euro_has_two_write_dependencies.c:[[@LINE-39]]
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T2 (locks held: {M1}):
// CHECK-NEXT:       #0 ThreadB {{.*}}figure4_each_locked_read_of_euro_has_two_write_dependencies.c:[[@LINE-27]]
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}figure4_each_locked_read_of_euro_has_two_write_dependencies.c:[[@LINE-23]] in ThreadB
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(void) {
  pthread_t A, B;
  pthread_create(&A, NULL, ThreadA, NULL);
  pthread_create(&B, NULL, ThreadB, NULL);
  void *PrintedA, *PrintedB;
  pthread_join(A, &PrintedA);
  pthread_join(B, &PrintedB);
  printf("A printed %ld, B printed %ld\n", (long)PrintedA, (long)PrintedB);
  printf("done\n");
  return 0;
}
