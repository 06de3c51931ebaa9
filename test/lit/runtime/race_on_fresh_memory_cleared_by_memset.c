// Fresh memory cleared by memset: each granule the range covers whole goes
// from New to the writer's value in one step (its first cell, the second
// left empty). A thread clears words 0-63 of a zeroed array; then, ordered
// in time only, main writes words 32-95 one by one. The words both wrote
// race, reported once, at the first of them, against the memset; the
// words each thread wrote alone do not, and main's reads of them
// afterwards (ordered after the thread by the join) are silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>

long Fresh[128];
static int Filled;

static void *Filler(void *Arg) {
  memset(Fresh, 0, 64 * sizeof(long));
  invisible_signal(&Filled);
  return Arg;
}

int main(void) {
  printf("racy word at %p\n", (void *)&Fresh[32]);
  fflush(stdout);
  pthread_t T;
  pthread_create(&T, NULL, Filler, NULL);
  invisible_wait(&Filled);
  for (int I = 32; I < 96; I++)
    Fresh[I] = -I;
  // CHECK:      racy word at [[ADDR:0x[0-9a-f]+]]
  // CHECK:      WARNING: HybridRace: data race
  // CHECK-NEXT:   Write of size 8 at [[ADDR]] by thread T0 (locks held: none):
  // CHECK-NEXT:     #0 main {{.*}}race_on_fresh_memory_cleared_by_memset.c:[[@LINE-4]]
  // CHECK-NEXT:   Previous write of size 512 at {{0x[0-9a-f]+}} by thread T1 (locks held: none):
  // CHECK-NEXT:     #0 Filler {{.*}}race_on_fresh_memory_cleared_by_memset.c:23
  pthread_join(T, NULL);
  long Sum = 0;
  for (int I = 0; I < 128; I++)
    Sum += Fresh[I];
  printf("sum=%ld\n", Sum);
  return 0;
}
// CHECK-NOT:  WARNING: HybridRace
// CHECK:      sum=-4064
// CHECK:      HybridRace: reported 1 warning
