// Parental correlation: A writes two fields of one struct object one right
// after the other, `Addr.Street = ...; Addr.No = ...;`, which makes them
// parentally correlated ('Addr.Street' <-> 'Addr.No', named from debug
// info, at the line of the second store, the one that makes it). A does so in one critical section of M and
// reads Addr.No in a later one, while B writes Addr.No under M: A's read
// has two write dependencies (B's, parallel, and A's own) and the
// correlation is reported as violated -- the number may no longer belong to
// the street. Every access holds M: the ordinary race checker is silent.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s
// RUN: %t 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: non-deterministic read
// OFF:     done
// OFF-NOT: non-deterministic read

#include <pthread.h>
#include <stdio.h>

struct Address {
  int Street;
  int No;
} Addr;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

static void *ThreadA(void *Arg) {
  pthread_mutex_lock(&M);
  Addr.Street = 12;
  Addr.No = 34;
  pthread_mutex_unlock(&M);
  pthread_mutex_lock(&M);
  int No = Addr.No;
  pthread_mutex_unlock(&M);
  return (void *)(long)No;
}

static void *ThreadB(void *Arg) {
  pthread_mutex_lock(&M);
  Addr.No = 99;
  pthread_mutex_unlock(&M);
  return Arg;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: {M1}):
// CHECK-NEXT:     #0 ThreadA {{.*}}parental_correlation_of_two_fields_written_in_a_row.c:[[@LINE-13]]
// CHECK-NEXT:   has 2 write dependencies:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T2 (locks held: {M1}), parallel to the read:
// CHECK-NEXT:       #0 ThreadB {{.*}}parental_correlation_of_two_fields_written_in_a_row.c:[[@LINE-9]]
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T1 (locks held: {M1}):
// CHECK-NEXT:       #0 ThreadA {{.*}}parental_correlation_of_two_fields_written_in_a_row.c:[[@LINE-21]]
// CHECK-NEXT:   Violated correlations:
// CHECK-NEXT:     parental: 'Addr.Street' <-> 'Addr.No' (parental_correlation_of_two_fields_written_in_a_row.c:[[@LINE-23]])
// CHECK-NEXT:   Location is global 'Addr'
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}parental_correlation_of_two_fields_written_in_a_row.c:[[@LINE-22]] in ThreadA
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
