// Horizontal correlation: `Kelvin = Celsius + 273;` and then
// `Fahrenheit = Celsius * 9 / 5 + 32;`, with no redefinition in between,
// make Kelvin and Fahrenheit both depend on Celsius: horizontal
// 'Kelvin' <-> 'Fahrenheit', at the line of the second store. A computes
// both in one critical section of M and reads Kelvin in a later one, while
// B writes Kelvin under M: A's read has two write dependencies (B's,
// parallel, and A's own) and every correlation of A's that involves Kelvin
// is reported as violated: the horizontal one and the vertical
// 'Celsius' -> 'Kelvin' (in an order not pinned here). Main set Celsius
// before creating the threads, so A's reads of it are deterministic.
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
volatile int Celsius, Kelvin, Fahrenheit;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

static void *ThreadA(void *Arg) {
  pthread_mutex_lock(&M);
  Kelvin = Celsius + 273;
  Fahrenheit = Celsius * 9 / 5 + 32;
  pthread_mutex_unlock(&M);
  pthread_mutex_lock(&M);
  int Seen = Kelvin;
  pthread_mutex_unlock(&M);
  return (void *)(long)Seen;
}

static void *ThreadB(void *Arg) {
  pthread_mutex_lock(&M);
  Kelvin = 0;
  pthread_mutex_unlock(&M);
  return Arg;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: {M1}):
// CHECK-NEXT:     #0 ThreadA {{.*}}horizontal_correlation_of_two_values_from_one_source.c:[[@LINE-13]]
// CHECK-NEXT:   has 2 write dependencies:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T2 (locks held: {M1}), parallel to the read:
// CHECK-NEXT:       #0 ThreadB {{.*}}horizontal_correlation_of_two_values_from_one_source.c:[[@LINE-9]]
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T1 (locks held: {M1}):
// CHECK-NEXT:       #0 ThreadA {{.*}}horizontal_correlation_of_two_values_from_one_source.c:[[@LINE-22]]
// CHECK-NEXT:   Violated correlations:
// CHECK-DAG:      horizontal: 'Kelvin' <-> 'Fahrenheit' (horizontal_correlation_of_two_values_from_one_source.c:[[@LINE-23]])
// CHECK-DAG:      vertical: 'Celsius' -> 'Kelvin' (horizontal_correlation_of_two_values_from_one_source.c:[[@LINE-25]])
// CHECK-NEXT:   Location is global 'Kelvin' of size 4
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}horizontal_correlation_of_two_values_from_one_source.c:[[@LINE-23]] in ThreadA
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(void) {
  Celsius = 20;
  pthread_t A, B;
  pthread_create(&A, NULL, ThreadA, NULL);
  pthread_create(&B, NULL, ThreadB, NULL);
  pthread_join(A, NULL);
  pthread_join(B, NULL);
  printf("done\n");
  return 0;
}
