// T1 orders A before B. Then B is destroyed and a new mutex is initialised
// at the same address: it is a new lock, and main taking it before A is no
// inversion of T1's order. The same holds for a lock in freed memory: a
// heap mutex ordered before A is freed, and whatever lock the allocator
// places there next starts with no order.
//
// RUN: %hrace_cc %s -o %t
// RUN: %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK: done
// CHECK-NOT: HybridRace

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t A = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t B = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t *Heap;

static void *TakeAThenOthers(void *Arg) {
  pthread_mutex_lock(&A);
  pthread_mutex_lock(&B);
  pthread_mutex_unlock(&B);
  pthread_mutex_lock(Heap);
  pthread_mutex_unlock(Heap);
  pthread_mutex_unlock(&A);
  return Arg;
}

int main(void) {
  Heap = malloc(sizeof(*Heap));
  pthread_mutex_init(Heap, 0);
  pthread_t T;
  pthread_create(&T, 0, TakeAThenOthers, 0);
  pthread_join(T, 0);

  pthread_mutex_destroy(&B);
  pthread_mutex_init(&B, 0);
  pthread_mutex_lock(&B);
  pthread_mutex_lock(&A);
  pthread_mutex_unlock(&A);
  pthread_mutex_unlock(&B);

  pthread_mutex_destroy(Heap);
  free(Heap);
  pthread_mutex_t *Again = malloc(sizeof(*Again));
  pthread_mutex_init(Again, 0);
  pthread_mutex_lock(Again);
  pthread_mutex_lock(&A);
  pthread_mutex_unlock(&A);
  pthread_mutex_unlock(Again);
  free(Again);
  printf("done\n");
  return 0;
}
