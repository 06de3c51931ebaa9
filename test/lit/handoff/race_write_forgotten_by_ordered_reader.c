// A read ordered after a write must not make the cell forget the write.
// T1 writes X and posts S; T2 waits on S and reads X (ordered: no race);
// T3, ordered after neither T1 nor T2 (the threads are created before T1
// writes; T3 waits for T2 invisibly), then reads X. T3's read is concurrent
// with T1's write and is reported against that write, although the last
// access to X was T2's ordered read: the cell keeps the write when an
// ordered thread reads it.
//
// RUN: %hrace_cc -O0 %s -o %t.O0 && %hrace_cc -O2 %s -o %t.O2
// RUN: not %t.O0 2>&1 | FileCheck %s --check-prefixes=CHECK,SHORT
// RUN: not %t.O2 2>&1 | FileCheck %s --check-prefixes=CHECK,SHORT
// RUN: env HRACE_OPTIONS=msm=hb not %t.O0 2>&1 | FileCheck %s --check-prefixes=CHECK,HB
// RUN: env HRACE_OPTIONS=msm=hb not %t.O2 2>&1 | FileCheck %s --check-prefixes=CHECK,HB

#include "hrace_test_sync.h"
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

int X;
static sem_t S;
static int AllCreated, T2Read, Seen2, Seen3;

static void *Thread1(void *Arg) {
  invisible_wait(&AllCreated);
  X = 1;
  sem_post(&S);
  return Arg;
}

static void *Thread2(void *Arg) {
  sem_wait(&S);
  Seen2 = X;
  invisible_signal(&T2Read);
  return Arg;
}

static void *Thread3(void *Arg) {
  invisible_wait(&T2Read);
  Seen3 = X;
  return Arg;
}
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 4 at {{.*}} by thread T3 (locks held: none):
// CHECK-NEXT:     #0 Thread3 {{.*}}race_write_forgotten_by_ordered_reader.c:40
// CHECK-NEXT:   Previous write of size 4 at {{.*}} by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Thread1 {{.*}}race_write_forgotten_by_ordered_reader.c:26
// SHORT-NEXT:   Detected by msm=short: the previous access does not happen before this one and no lock protects both.
// HB-NEXT:      Detected by msm=hb: neither access happens before the other.
// CHECK-NEXT:   Location is global 'X'
// CHECK-NOT:  WARNING: HybridRace
// CHECK:      seen 1 1
// CHECK-NEXT: HybridRace: reported 1 warning

int main(void) {
  sem_init(&S, 0, 0);
  pthread_t T[3];
  pthread_create(&T[0], NULL, Thread1, NULL);
  pthread_create(&T[1], NULL, Thread2, NULL);
  pthread_create(&T[2], NULL, Thread3, NULL);
  invisible_signal(&AllCreated);
  for (int I = 0; I < 3; I++)
    pthread_join(T[I], NULL);
  printf("seen %d %d\n", Seen2, Seen3);
  sem_destroy(&S);
  return 0;
}
