// A variable of the checker is a 64-byte line, so one struct's fields share
// a history; what a thread keeps there is still decided byte by byte
// (ndr_history=1 here: each thread keeps, for each byte, its newest epoch
// that touched it, and its newest write of it).
//
// "write": T1 writes Pair.X under M, then writes its neighbour Pair.Y in
// three more critical sections; T2 writes Pair.X under M. Main joins both
// and reads Pair.X: T1's write of X is still its newest write of those
// bytes, so the read has two unordered write dependencies.
//
// "read": T1 reads Pair.X under M, then writes Pair.Y in three more
// critical sections; only then (ordered where the detector cannot see it)
// T2 writes Pair.X under M. T1's read is still its newest access to X, so
// T2's write, parallel to it, is checked against it.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1:ndr_history=1 not %t write 2>&1 | FileCheck %s --check-prefix=WRITE
// RUN: env HRACE_OPTIONS=ndr=1:ndr_history=1 not %t read 2>&1 | FileCheck %s --check-prefix=READ

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct Pair {
  int X;
  int Y;
} __attribute__((aligned(64)));

// Not static: the optimiser would split a static struct into one global per
// field, each in a line of its own.
struct Pair Pair;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static int ReadMode;
static int T1Done;
static int Seen;

static void *Thread1(void *Arg) {
  pthread_mutex_lock(&M);
  if (ReadMode)
    Seen = Pair.X;
  else
    Pair.X = 1;
  pthread_mutex_unlock(&M);
  for (int I = 0; I < 3; I++) {
    pthread_mutex_lock(&M);
    Pair.Y = I;
    pthread_mutex_unlock(&M);
  }
  invisible_signal(&T1Done);
  return Arg;
}

static void *Thread2(void *Arg) {
  if (ReadMode)
    invisible_wait(&T1Done);
  pthread_mutex_lock(&M);
  Pair.X = 2;
  pthread_mutex_unlock(&M);
  return Arg;
}

int main(int Argc, char **Argv) {
  ReadMode = Argc > 1 && !strcmp(Argv[1], "read");
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Thread1, NULL);
  pthread_create(&T2, NULL, Thread2, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  if (!ReadMode) {
    pthread_mutex_lock(&M);
    Seen = Pair.X;
    pthread_mutex_unlock(&M);
  }
  // WRITE:      WARNING: HybridRace: non-deterministic read
  // WRITE-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T0 (locks held: {M1}):
  // WRITE-NEXT:     #0 main {{.*}}a_fields_last_accesses_outlive_epochs_on_its_neighbours.c:[[@LINE-5]]
  // WRITE-NEXT:   has 2 write dependencies:
  // WRITE-NEXT:     Write of size 4 at [[ADDR]] by thread T1 (locks held: {M1}):
  // WRITE-NEXT:       #0 Thread1 {{.*}}a_fields_last_accesses_outlive_epochs_on_its_neighbours.c:43
  // WRITE-NEXT:     Write of size 4 at [[ADDR]] by thread T2 (locks held: {M1}):
  // WRITE-NEXT:       #0 Thread2 {{.*}}a_fields_last_accesses_outlive_epochs_on_its_neighbours.c:58
  // WRITE-NOT:  WARNING: HybridRace
  //
  // READ:       WARNING: HybridRace: non-deterministic read
  // READ-NEXT:    Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: {M1}):
  // READ-NEXT:      #0 Thread1 {{.*}}a_fields_last_accesses_outlive_epochs_on_its_neighbours.c:41
  // READ:         Write of size 4 at [[ADDR]] by thread T2 (locks held: {M1}), parallel to the read:
  // READ-NEXT:      #0 Thread2 {{.*}}a_fields_last_accesses_outlive_epochs_on_its_neighbours.c:58
  // READ-NOT:   WARNING: HybridRace
  printf("done %d\n", Seen);
  return 0;
}
