// The join rule keeps working however many thread sets a program makes.
// First 1,200 threads each share a location with the main thread under a
// lock: 1,200 thread sets ({main, T<k>}), more than a shared cell's 10 bits
// can name at once. Then two threads A and B write X under both M and N and
// are joined: by the join rule X belongs to the main thread again, so its
// write under M alone is exclusive, and Q's write under N alone, unordered
// with it, is a race. Without the join rule (a thread set the table could
// not name) X would stay shared under {M}, and Q, created after A and B
// ended, would find the write that made X shared ordered before it and miss
// the race. Thread sets are recycled with the shadow's generations
// (docs/design.md, "Segments, clocks, lock sets").
//
// RUN: %hrace_cc -O1 %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     shared and joined: 1200
// CHECK-NOT: WARNING: HybridRace
// CHECK:     WARNING: HybridRace: data race
// CHECK:       Write of size 4 at {{.*}} by thread T{{[0-9]+}} (locks held: {M{{[0-9]+}}}):
// CHECK-NEXT:    #0 WriteUnderN {{.*}}join_rule_holds_beyond_a_thousand_thread_sets.c:[[@LINE+37]]
// CHECK:       Previous write of size 4 at {{.*}} by thread T0 (locks held: {M{{[0-9]+}}}):
// CHECK-NEXT:    #0 main {{.*}}join_rule_holds_beyond_a_thousand_thread_sets.c:[[@LINE+65]]
// CHECK:     SUMMARY: HybridRace: data race
// CHECK-NOT: WARNING: HybridRace

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

enum { kThreads = 1200 };

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t N = PTHREAD_MUTEX_INITIALIZER;
static long Shared[kThreads];
int X;
static int MainWrote;

static void *AddUnderM(void *Arg) {
  pthread_mutex_lock(&M);
  *(long *)Arg += 1;
  pthread_mutex_unlock(&M);
  return 0;
}

static void *WriteUnderBoth(void *Arg) {
  pthread_mutex_lock(&M);
  pthread_mutex_lock(&N);
  X++;
  pthread_mutex_unlock(&N);
  pthread_mutex_unlock(&M);
  return Arg;
}

static void *WriteUnderN(void *Arg) {
  invisible_wait(&MainWrote);
  pthread_mutex_lock(&N);
  X = 2;
  pthread_mutex_unlock(&N);
  return Arg;
}

int main(void) {
  for (int K = 0; K < kThreads; K++) {
    pthread_t T;
    pthread_create(&T, 0, AddUnderM, &Shared[K]);
    // Unordered with the thread's write (locks order nothing in the hybrid
    // machines): the location becomes shared by {main, T<k>} under M.
    pthread_mutex_lock(&M);
    Shared[K] += 1;
    pthread_mutex_unlock(&M);
    pthread_join(T, 0);
    Shared[K] += 1;
  }
  long Total = 0;
  for (int K = 0; K < kThreads; K++)
    Total += Shared[K] == 3;
  printf("shared and joined: %ld\n", Total);
  fflush(stdout);

  pthread_t A, B, Q;
  pthread_create(&A, 0, WriteUnderBoth, 0);
  pthread_create(&B, 0, WriteUnderBoth, 0);
  pthread_join(A, 0);
  pthread_join(B, 0);
  pthread_create(&Q, 0, WriteUnderN, 0);
  pthread_mutex_lock(&M);
  X = 1;
  pthread_mutex_unlock(&M);
  invisible_signal(&MainWrote);
  pthread_join(Q, 0);
  return 0;
}
