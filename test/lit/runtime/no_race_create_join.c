// Thread creation and join: what main writes before pthread_create is
// ordered before the thread, and what the thread writes is ordered before
// what main does after pthread_join. Silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     Output = 43, returned 7
// CHECK-NOT: HybridRace

#include <pthread.h>
#include <stdio.h>

static int Input;
static int Output;

static void *Worker(void *Arg) {
  Output = Input + 1;
  Input = 0;
  return (void *)7;
}

int main(void) {
  Input = 42;
  pthread_t T;
  pthread_create(&T, NULL, Worker, NULL);
  void *Ret;
  pthread_join(T, &Ret);
  printf("Output = %d, returned %ld\n", Output, (long)Ret);
  Input = Output;
  return 0;
}
