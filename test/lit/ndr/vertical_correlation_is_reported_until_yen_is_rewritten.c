// Vertical correlation: `Yen = Euro * 107` makes Yen data dependent on Euro,
// 'Euro' -> 'Yen', at the line of that store. A makes it in one critical
// section of M and reads Euro in a later one; B writes Euro under M, before,
// between or after A's sections (locks order nothing), so A's second read
// has two write dependencies, B's parallel one and A's own, and the
// correlation, still alive, is reported as violated. With "rewrite", A
// writes Yen again (`Yen = 0`, no dependency on Euro) right after: the
// correlation ends, and the same non-deterministic read is reported with no
// correlations section.
// Every access holds M: the ordinary race checker is silent.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s --check-prefixes=CHECK,LIVE
// RUN: env HRACE_OPTIONS=ndr=1 not %t rewrite 2>&1 | FileCheck %s --check-prefix=CHECK
// RUN: %t 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: non-deterministic read
// OFF:     done
// OFF-NOT: non-deterministic read

#include <pthread.h>
#include <stdio.h>

// Volatile, so that -O1 reads Euro back instead of reusing the value stored.
volatile int Euro, Yen;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

static void *ThreadA(void *Rewrite) {
  pthread_mutex_lock(&M);
  Euro = 300;
  Yen = Euro * 107;
  if (Rewrite)
    Yen = 0;
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
// CHECK-NEXT:     #0 ThreadA {{.*}}vertical_correlation_is_reported_until_yen_is_rewritten.c:[[@LINE-13]]
// CHECK-NEXT:   has 2 write dependencies:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T2 (locks held: {M1}), parallel to the read:
// CHECK-NEXT:       #0 ThreadB {{.*}}vertical_correlation_is_reported_until_yen_is_rewritten.c:[[@LINE-9]]
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T1 (locks held: {M1}):
// CHECK-NEXT:       #0 ThreadA {{.*}}vertical_correlation_is_reported_until_yen_is_rewritten.c:[[@LINE-24]]
// LIVE-NEXT:    Violated correlations:
// LIVE-NEXT:      vertical: 'Euro' -> 'Yen' (vertical_correlation_is_reported_until_yen_is_rewritten.c:[[@LINE-25]])
// CHECK-NEXT:   Location is global 'Euro' of size 4
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}vertical_correlation_is_reported_until_yen_is_rewritten.c:[[@LINE-22]] in ThreadA
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(int Argc, char **Argv) {
  pthread_t A, B;
  pthread_create(&A, NULL, ThreadA, Argc > 1 ? (void *)1 : NULL);
  pthread_create(&B, NULL, ThreadB, NULL);
  pthread_join(A, NULL);
  pthread_join(B, NULL);
  printf("done\n");
  return 0;
}
