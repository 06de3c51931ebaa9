// A heap object whose mutex is still locked is freed.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
//
// CHECK:      WARNING: HybridRace: free of memory that holds a locked mutex
// CHECK-NEXT:   Thread T0 frees memory at [[OBJ:0x[0-9a-f]+]] that holds mutex [[M:M[0-9]+]], which is held:
// CHECK-NEXT:     #0 main {{.*}}.c:[[@LINE+19]]
// CHECK-NEXT:   Mutex [[M]] at 0x{{[0-9a-f]+}} is held by thread T0
// CHECK-NEXT:   Mutex [[M]] was first observed by thread T0 at:
// CHECK-NEXT:     #0 main {{.*}}.c:[[@LINE+13]]
// CHECK:      SUMMARY: HybridRace: free-of-locked-mutex {{.*}}.c:[[@LINE+15]] in main

#include <pthread.h>
#include <stdlib.h>

struct Account {
  long Balance;
  pthread_mutex_t Lock;
};

int main(void) {
  struct Account *A = malloc(sizeof(*A));
  pthread_mutex_init(&A->Lock, 0); // @init
  pthread_mutex_lock(&A->Lock);
  A->Balance = 1;
  free(A); // @free
  return 0;
}
