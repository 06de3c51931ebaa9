// Control correlation: `if (Stock > 0) Price = 10;` makes Price control
// dependent on Stock, 'Stock' -> 'Price', at the line of the store. A makes
// it in one critical section of M and reads Price in a later one, while B
// writes Price under M: A's read has two write dependencies (B's, parallel,
// and A's own) and the correlation, still alive, is reported as violated --
// the price A reads may not be the one its stock check decided on. Main set
// Stock before creating the threads, so A's read of Stock is deterministic.
// Every access holds M or happens before the threads: the ordinary race
// checker is silent.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s
// RUN: %t 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: non-deterministic read
// OFF:     done
// OFF-NOT: non-deterministic read

#include <pthread.h>
#include <stdio.h>

// Volatile, so that each statement reads and writes memory at -O1.
volatile int Stock, Price;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

static void *ThreadA(void *Arg) {
  pthread_mutex_lock(&M);
  if (Stock > 0)
    Price = 10;
  pthread_mutex_unlock(&M);
  pthread_mutex_lock(&M);
  int Seen = Price;
  pthread_mutex_unlock(&M);
  return (void *)(long)Seen;
}

static void *ThreadB(void *Arg) {
  pthread_mutex_lock(&M);
  Price = 99;
  pthread_mutex_unlock(&M);
  return Arg;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: {M1}):
// CHECK-NEXT:     #0 ThreadA {{.*}}control_correlation_is_reported_for_the_guarded_variable.c:[[@LINE-13]]
// CHECK-NEXT:   has 2 write dependencies:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T2 (locks held: {M1}), parallel to the read:
// CHECK-NEXT:       #0 ThreadB {{.*}}control_correlation_is_reported_for_the_guarded_variable.c:[[@LINE-9]]
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T1 (locks held: {M1}):
// CHECK-NEXT:       #0 ThreadA {{.*}}control_correlation_is_reported_for_the_guarded_variable.c:[[@LINE-21]]
// CHECK-NEXT:   Violated correlations:
// CHECK-NEXT:     control: 'Stock' -> 'Price' (control_correlation_is_reported_for_the_guarded_variable.c:[[@LINE-23]])
// CHECK-NEXT:   Location is global 'Price' of size 4
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}control_correlation_is_reported_for_the_guarded_variable.c:[[@LINE-22]] in ThreadA
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(void) {
  Stock = 3;
  pthread_t A, B;
  pthread_create(&A, NULL, ThreadA, NULL);
  pthread_create(&B, NULL, ThreadB, NULL);
  pthread_join(A, NULL);
  pthread_join(B, NULL);
  printf("done\n");
  return 0;
}
