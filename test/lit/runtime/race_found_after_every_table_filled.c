// A long run fills every table of the runtime: segment ids (the shadow is
// cleared and a new generation starts), split blocks (splits fall back to
// direct-mapped byte cells), lock sets (a new generation, too). Built
// with HRACE_SMALL_LIMITS, this program crosses each limit many times: a
// generation every 16,384 segments, 64 split blocks, 64 lock sets. Nothing
// ordered is reported, in every msm, and a race after all of it is still
// found (in the normal build the same program stays below the limits).
//
// RUN: %hrace_cc -O1 %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     counter=40000 split=4096 locked=1980
// CHECK-NOT: WARNING: HybridRace
// CHECK:     WARNING: HybridRace: data race
// CHECK:       Write of size 4 at {{.*}} by thread T{{[0-9]+}} (locks held: none):
// CHECK:         #0 RacyWriter {{.*}}race_found_after_every_table_filled.c:[[@LINE+68]]
// CHECK:     SUMMARY: HybridRace: data race {{.*}}race_found_after_every_table_filled.c:[[@LINE+67]] in RacyWriter
// CHECK-NOT: WARNING: HybridRace

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

enum { kIncrements = 20000, kGranules = 4096, kLocks = 100, kRounds = 10 };

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static long Counter;
static unsigned char Bytes[kGranules * 8];
static pthread_mutex_t Guard = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t Locks[kLocks];
static long Locked;
int Racy;
static int WriterStarted, MainWrote;

// 20,000 segments per thread: one per unlock.
static void *Increment(void *Arg) {
  for (int I = 0; I < kIncrements; I++) {
    pthread_mutex_lock(&M);
    Counter++;
    pthread_mutex_unlock(&M);
  }
  return Arg;
}

// The second byte of every granule gets this thread's value: with the
// main thread's bytes before and after it, each granule holds three values
// and is split.
static void *WriteSecondBytes(void *Arg) {
  for (int G = 0; G < kGranules; G++)
    Bytes[G * 8 + 1] = 1;
  return Arg;
}

// Every access holds Guard plus a pair of other locks: 100 lock sets, and
// no race.
static void *LockPairs(void *Arg) {
  for (int R = 0; R < kRounds; R++)
    for (int I = 0; I + 1 < kLocks; I++) {
      pthread_mutex_lock(&Guard);
      pthread_mutex_lock(&Locks[I]);
      pthread_mutex_lock(&Locks[I + 1]);
      Locked++;
      pthread_mutex_unlock(&Locks[I + 1]);
      pthread_mutex_unlock(&Locks[I]);
      pthread_mutex_unlock(&Guard);
    }
  return Arg;
}

static void Run(void *(*Fn)(void *)) {
  pthread_t A, B;
  pthread_create(&A, 0, Fn, 0);
  pthread_create(&B, 0, Fn, 0);
  pthread_join(A, 0);
  pthread_join(B, 0);
}

// Started before the main thread writes: a thread's start takes a page of
// segment ids, which may start a new generation, and a race whose first
// access came before a clear is missed (docs/design.md).
static void *RacyWriter(void *Arg) {
  invisible_signal(&WriterStarted);
  invisible_wait(&MainWrote);
  Racy = 2;
  return Arg;
}

int main(void) {
  Run(Increment);

  for (int G = 0; G < kGranules; G++)
    Bytes[G * 8] = 1;
  pthread_t W;
  pthread_create(&W, 0, WriteSecondBytes, 0);
  pthread_join(W, 0);
  int Split = 0;
  for (int G = 0; G < kGranules; G++) {
    Bytes[G * 8 + 2] = 1;
    Split += Bytes[G * 8] + Bytes[G * 8 + 1] == 2;
  }

  for (int I = 0; I < kLocks; I++)
    pthread_mutex_init(&Locks[I], 0);
  Run(LockPairs);

  printf("counter=%ld split=%d locked=%ld\n", Counter, Split, Locked);
  fflush(stdout);

  pthread_t R;
  pthread_create(&R, 0, RacyWriter, 0);
  invisible_wait(&WriterStarted);
  Racy = 1;
  invisible_signal(&MainWrote);
  pthread_join(R, 0);
  return 0;
}
