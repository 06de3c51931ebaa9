// A correlation between variables that are not globals names each by the
// source the pass saw, with debug info: here two fields of one heap block,
// reached through the pointer A, written in a row (parental) by T1, whose
// second field T2 then writes in parallel. Without debug info, each is
// named by its address and where it lies.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK:      Violated correlations:
// CHECK-NEXT:   parental: 'A->Street' <-> 'A->No' (heap_fields_are_named_through_the_pointer_or_by_their_block.c:36)
//
// RUN: %hrace_cc -g0 -fsanitize-hybrid-race-ndr %s -o %t.nodebug
// RUN: env HRACE_OPTIONS=ndr=1 not %t.nodebug 2>&1 | FileCheck %s --check-prefix=NODEBUG
// NODEBUG:      WARNING: HybridRace: non-deterministic read
// NODEBUG:      Violated correlations:
// NODEBUG-NEXT:   parental: 0x[[BLOCK:[0-9a-f]+]] (heap block of size 8 at 0x[[BLOCK]], offset 0) <-> 0x{{[0-9a-f]+}} (heap block of size 8 at 0x[[BLOCK]], offset 4){{$}}

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct Address {
  int Street;
  int No;
};
static struct Address *volatile Addr;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static int Written, Overwritten;

static void *Thread1(void *Arg) {
  struct Address *A = Addr;
  pthread_mutex_lock(&M);
  A->Street = 12;
  A->No = 34;
  pthread_mutex_unlock(&M);
  invisible_signal(&Written);
  invisible_wait(&Overwritten);
  pthread_mutex_lock(&M);
  int No = A->No;
  pthread_mutex_unlock(&M);
  return (void *)(long)No;
}

static void *Thread2(void *Arg) {
  invisible_wait(&Written);
  pthread_mutex_lock(&M);
  Addr->No = 99;
  pthread_mutex_unlock(&M);
  invisible_signal(&Overwritten);
  return Arg;
}

int main(void) {
  Addr = malloc(sizeof(struct Address));
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Thread1, NULL);
  pthread_create(&T2, NULL, Thread2, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  free(Addr);
  return 0;
}
