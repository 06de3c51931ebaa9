// A mutex in freed memory is forgotten with the block (the sync table drops
// the objects of a reset range, in the chunks where any was ever created):
// a mutex made later at the same address is a new lock with a new name, not
// the old one. The block is freed without pthread_mutex_destroy, so only the
// free forgets the lock.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// CHECK:      Previous write of size 4 at {{.*}} by thread T1 (locks held: {M[[#OLD:]]}):
// CHECK:      same block: yes
// CHECK:      Previous write of size 4 at {{.*}} by thread T2 (locks held: {M[[#OLD+1]]}):

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

int X, Y;
static pthread_mutex_t *Lock;
static int Wrote1, Wrote2;

static void *Writer1(void *Arg) {
  pthread_mutex_lock(Lock);
  X = 1;
  pthread_mutex_unlock(Lock);
  invisible_signal(&Wrote1);
  return Arg;
}

static void *Writer2(void *Arg) {
  pthread_mutex_lock(Lock);
  Y = 1;
  pthread_mutex_unlock(Lock);
  invisible_signal(&Wrote2);
  return Arg;
}

int main(void) {
  pthread_t T1, T2;
  Lock = malloc(sizeof(pthread_mutex_t));
  void *Old = Lock;
  pthread_mutex_init(Lock, NULL);
  pthread_create(&T1, NULL, Writer1, NULL);
  invisible_wait(&Wrote1);
  X = 2;
  pthread_join(T1, NULL);
  free(Lock);

  Lock = malloc(sizeof(pthread_mutex_t));
  fprintf(stderr, "same block: %s\n", (void *)Lock == Old ? "yes" : "no");
  pthread_mutex_init(Lock, NULL);
  pthread_create(&T2, NULL, Writer2, NULL);
  invisible_wait(&Wrote2);
  Y = 2;
  pthread_join(T2, NULL);
  return 0;
}
