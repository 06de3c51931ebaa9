// Holding more distinct combinations of locks than the lock-set table has
// ids (2^20 - 1) does not stop the program: one line says that new lock sets
// are unknown from here on, an unknown set counts as every lock (so it never
// causes a report), and races are still found.
//
// The table's real size; with HRACE_SMALL_LIMITS,
// race_found_after_every_table_filled.c fills a table of 64.
// UNSUPPORTED: small-limits
// RUN: %hrace_cc -O1 %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s
// CHECK:      HybridRace: more than 1048575 distinct lock sets; new ones are unknown from here on
// CHECK-NOT:  more than
// CHECK:      pairs=1124250
// CHECK:      WARNING: HybridRace: data race
// CHECK:      SUMMARY: HybridRace: data race {{.*}}lock_sets_beyond_the_table_are_unknown.c

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

enum { kLocks = 1500 };
static pthread_mutex_t Locks[kLocks];
static long Pairs;
int Racy;
static int MainWrote;

static void *Writer(void *Arg) {
  invisible_wait(&MainWrote);
  Racy = 2;
  return Arg;
}

int main(void) {
  for (int I = 0; I < kLocks; I++)
    pthread_mutex_init(&Locks[I], NULL);
  // Every pair {I, J} is a lock set of its own.
  for (int I = 0; I < kLocks; I++)
    for (int J = I + 1; J < kLocks; J++) {
      pthread_mutex_lock(&Locks[I]);
      pthread_mutex_lock(&Locks[J]);
      Pairs++;
      pthread_mutex_unlock(&Locks[J]);
      pthread_mutex_unlock(&Locks[I]);
    }
  printf("pairs=%ld\n", Pairs);
  fflush(stdout);
  pthread_t T;
  pthread_create(&T, NULL, Writer, NULL);
  Racy = 1;
  invisible_signal(&MainWrote);
  pthread_join(T, NULL);
  return 0;
}
