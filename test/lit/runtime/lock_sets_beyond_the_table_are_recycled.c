// Holding more distinct combinations of locks than the lock-set table has
// ids (2^20 - 1: here 1,124,250 pairs) does not exhaust it: the table is
// recycled with the shadow's generations (a new generation when half its
// ids are used), so two locks first taken after all of it are still told
// apart. Main writes under P, then T1 under Q: no lock protects both.
// (Before, every set past the table was "unknown", which protects
// everything, and this race went unseen.) Main writes under P once more
// after T1, so that msm=short sees the empty candidate set whatever it made
// of T1's write. The threads take turns through flags the detector cannot
// see.
//
// The table's real size; with HRACE_SMALL_LIMITS,
// race_found_after_every_table_filled.c crosses a table of 64.
// UNSUPPORTED: small-limits
// RUN: %hrace_cc -O1 %s -o %t
// RUN: env HRACE_OPTIONS=verbosity=1 not %t 2>&1 | FileCheck %s
// CHECK-NOT: distinct lock sets
// CHECK:     segment generation 2 started
// CHECK-NOT: distinct lock sets
// CHECK:     pairs=1124250
// CHECK:     WARNING: HybridRace: data race
// CHECK:       Write of size 4 at {{.*}} by thread T1 (locks held: {[[Q:M[0-9]+]]}):
// CHECK:       Previous write of size 4 at {{.*}} by thread T0 (locks held: {[[P:M[0-9]+]]}):
// CHECK:     SUMMARY: HybridRace: data race {{.*}}lock_sets_beyond_the_table_are_recycled.c
// CHECK-NOT: distinct lock sets

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

enum { kLocks = 1500 };
static pthread_mutex_t Locks[kLocks];
static pthread_mutex_t P = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t Q = PTHREAD_MUTEX_INITIALIZER;
static long Pairs;
int Shared;
static int MainWrote, WriterWrote;

static void *Writer(void *Arg) {
  invisible_wait(&MainWrote);
  pthread_mutex_lock(&Q);
  Shared = 2;
  pthread_mutex_unlock(&Q);
  invisible_signal(&WriterWrote);
  return Arg;
}

int main(void) {
  for (int I = 0; I < kLocks; I++)
    pthread_mutex_init(&Locks[I], NULL);
  // Every pair {I, J} is a lock set of its own, interned when the write
  // under it is recorded.
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
  pthread_mutex_lock(&P);
  Shared = 1;
  pthread_mutex_unlock(&P);
  invisible_signal(&MainWrote);
  invisible_wait(&WriterWrote);
  pthread_mutex_lock(&P);
  Shared = 3;
  pthread_mutex_unlock(&P);
  pthread_join(T, NULL);
  return 0;
}
