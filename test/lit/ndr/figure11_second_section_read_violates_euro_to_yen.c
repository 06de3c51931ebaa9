// seeds/002 figure 11, the worked example. A sets Euro and converts it to
// Yen in one critical section, making the vertical correlation
// 'Euro' -> 'Yen'; B sets Euro in a critical section of its own, forced
// (invisibly) between A's two sections; A prints Euro and Yen in a second
// section. The read of Euro in A's first section follows A's own write
// there, so freedom keeps B's write out of it. The read in A's second
// section has two write dependencies: B's write, parallel to it, and A's
// own; non-deterministic, and the correlation A made is still alive, so it
// is reported as violated. The read of Yen there depends on A's write only.
// Every access holds M: the ordinary race checker is silent. (The paper's
// walk-through has A's first section write Euro "first and then read" it,
// hence an assignment to Euro there, not an update of it.)
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

// Volatile, so that -O1 reads Euro back instead of reusing the value stored.
volatile int Euro, Yen;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static int AConverted, BWrote;

static void *ThreadA(void *Arg) {
  pthread_mutex_lock(&M);
  Euro = 300;
  Yen = Euro * 107;
  pthread_mutex_unlock(&M);
  invisible_signal(&AConverted);
  invisible_wait(&BWrote);
  pthread_mutex_lock(&M);
  int PrintedEuro = Euro;
  int PrintedYen = Yen;
  pthread_mutex_unlock(&M);
  printf("%d Euro = %d Yen\n", PrintedEuro, PrintedYen);
  return Arg;
}

static void *ThreadB(void *Arg) {
  invisible_wait(&AConverted);
  pthread_mutex_lock(&M);
  Euro = 500;
  pthread_mutex_unlock(&M);
  invisible_signal(&BWrote);
  return Arg;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: {M1}):
// CHECK-NEXT:     #0 ThreadA {{.*}}figure11_second_section_read_violates_euro_to_yen.c:[[@LINE-17]]
// CHECK-NEXT:   has 2 write dependencies:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T2 (locks held: {M1}), parallel to the read:
// CHECK-NEXT:       #0 ThreadB {{.*}}figure11_second_section_read_violates_euro_to_yen.c:[[@LINE-10]]
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T1 (locks held: {M1}):
// CHECK-NEXT:       #0 ThreadA {{.*}}figure11_second_section_read_violates_euro_to_yen.c:[[@LINE-28]]
// CHECK-NEXT:   Violated correlations:
// CHECK-NEXT:     vertical: 'Euro' -> 'Yen' (figure11_second_section_read_violates_euro_to_yen.c:[[@LINE-29]])
// CHECK-NEXT:   Location is global 'Euro' of size 4
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}figure11_second_section_read_violates_euro_to_yen.c:[[@LINE-26]] in ThreadA
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(void) {
  pthread_t A, B;
  pthread_create(&A, NULL, ThreadA, NULL);
  pthread_create(&B, NULL, ThreadB, NULL);
  pthread_join(A, NULL);
  pthread_join(B, NULL);
  printf("done\n");
  return 0;
}
