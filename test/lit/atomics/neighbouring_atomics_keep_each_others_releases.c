// Two atomics in one 8-byte granule share the runtime's sync object. A
// relaxed store to one must not empty what a release of the other
// published: T1 writes Data and release-stores Y; then T2 relaxed-stores X
// (its neighbour, which created the object); main acquire-loads Y, sees
// T1's value and reads Data, ordered. Silent in every machine.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=short %t 2>&1 | FileCheck %s
// CHECK-NOT: WARNING
// CHECK:     Y = 1, Data = 42
// CHECK-NOT: WARNING

#include "../Inputs/hrace_test_sync.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

struct {
  atomic_int X;
  atomic_int Y;
} Pair __attribute__((aligned(8)));
int Data;
int Released, Stored;

static void *Releaser(void *Arg) {
  Data = 42;
  atomic_store_explicit(&Pair.Y, 1, memory_order_release);
  invisible_signal(&Released);
  return Arg;
}

static void *Neighbour(void *Arg) {
  invisible_wait(&Released);
  atomic_store_explicit(&Pair.X, 0, memory_order_relaxed);
  invisible_signal(&Stored);
  return Arg;
}

int main(void) {
  // X's release creates the granule's object.
  atomic_store_explicit(&Pair.X, 5, memory_order_release);
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Releaser, NULL);
  pthread_create(&T2, NULL, Neighbour, NULL);
  invisible_wait(&Stored);
  int Y = atomic_load_explicit(&Pair.Y, memory_order_acquire);
  printf("Y = %d, Data = %d\n", Y, Data);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  return 0;
}
