// Transitive vertical correlation (seeds/002 figure 14, which the paper's
// tool misses): `Yen = Euro * 107; Dollar = Yen / 97;` makes 'Euro' -> 'Yen'
// and 'Yen' -> 'Dollar', and through Yen also 'Euro' -> 'Dollar', at the line
// of the store to Dollar. A converts in one critical section of M and reads
// Euro in a later one, while B writes Euro under M: A's read has two write
// dependencies (B's parallel one and A's own) and both correlations that
// involve Euro are reported as violated; 'Yen' -> 'Dollar' does not involve
// the read variable and is not. The order of the two lines is not pinned.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s
// RUN: %t 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: non-deterministic read
// OFF:     done
// OFF-NOT: non-deterministic read

#include <pthread.h>
#include <stdio.h>

// Volatile, so that -O1 reads each variable back instead of reusing the
// value stored.
volatile int Euro, Yen, Dollar;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

static void *ThreadA(void *Arg) {
  pthread_mutex_lock(&M);
  Euro = 300;
  Yen = Euro * 107;
  Dollar = Yen / 97;
  pthread_mutex_unlock(&M);
  pthread_mutex_lock(&M);
  int Printed = Euro;
  pthread_mutex_unlock(&M);
  return (void *)(long)Printed;
}

static void *ThreadB(void *Arg) {
  pthread_mutex_lock(&M);
  Euro = 500;
  pthread_mutex_unlock(&M);
  return Arg;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: {M1}):
// CHECK-NEXT:     #0 ThreadA {{.*}}transitive_vertical_correlation_links_euro_to_dollar.c:[[@LINE-13]]
// CHECK-NEXT:   has 2 write dependencies:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T2 (locks held: {M1}), parallel to the read:
// CHECK-NEXT:       #0 ThreadB {{.*}}transitive_vertical_correlation_links_euro_to_dollar.c:[[@LINE-9]]
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T1 (locks held: {M1}):
// CHECK-NEXT:       #0 ThreadA {{.*}}transitive_vertical_correlation_links_euro_to_dollar.c:[[@LINE-23]]
// CHECK-NEXT:   Violated correlations:
// CHECK-NOT:      'Yen' -> 'Dollar'
// CHECK-DAG:      vertical: 'Euro' -> 'Yen' (transitive_vertical_correlation_links_euro_to_dollar.c:[[@LINE-25]])
// CHECK-DAG:      vertical: 'Euro' -> 'Dollar' (transitive_vertical_correlation_links_euro_to_dollar.c:[[@LINE-25]])
// CHECK-NEXT:   Location is global 'Euro' of size 4
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}transitive_vertical_correlation_links_euro_to_dollar.c:[[@LINE-24]] in ThreadA
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
