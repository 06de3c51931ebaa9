// Correlations name the variables as the source does, from debug info: a
// local of main by its declaration (`W.Euro`), the same memory reached
// through a thread's pointer parameter by the pointer (`P->Euro`). main
// converts its wallet's Euro to Yen in one critical section, making the
// vertical correlation 'W.Euro' -> 'W.Yen'; T1 sets Euro through its
// pointer in a section of its own, forced (invisibly) between main's two;
// main's read of Euro in its second section has two write dependencies,
// and violates the correlation (and the parental one of the two fields
// written in a row). T1's own pair, 'P->Euro' -> 'P->Cents',
// is T1's: main's reads do not violate it.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T0 (locks held: {M1}):
// CHECK:        Violated correlations:
// CHECK-NEXT:     vertical: 'W.Euro' -> 'W.Yen' (locals_and_fields_are_named_from_debug_info.c:[[@LINE+34]])
// CHECK-NEXT:     parental: 'W.Euro' <-> 'W.Yen' (locals_and_fields_are_named_from_debug_info.c:[[@LINE+33]])
// CHECK-NEXT:   Location is stack of thread T0
// CHECK-NOT:  'P->Euro'

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

struct Wallet {
  volatile int Euro;
  volatile int Yen;
  volatile int Cents;
};
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static int Converted, Changed;

static void *Thread1(void *Arg) {
  struct Wallet *P = Arg;
  invisible_wait(&Converted);
  pthread_mutex_lock(&M);
  P->Euro = 500;
  P->Cents = P->Euro * 100;
  pthread_mutex_unlock(&M);
  invisible_signal(&Changed);
  return NULL;
}

int main(void) {
  struct Wallet W = {0, 0, 0};
  pthread_t T;
  pthread_create(&T, NULL, Thread1, &W);
  pthread_mutex_lock(&M);
  W.Euro = 300;
  W.Yen = W.Euro * 107;
  pthread_mutex_unlock(&M);
  invisible_signal(&Converted);
  invisible_wait(&Changed);
  pthread_mutex_lock(&M);
  int Euro = W.Euro;
  pthread_mutex_unlock(&M);
  pthread_join(T, NULL);
  printf("%d Euro\n", Euro);
  return 0;
}
