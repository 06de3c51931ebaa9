// A variable of the checker is a 64-byte line, so one struct's fields share
// a history; a thread's newest write of each byte still stays there however
// many of its later epochs touch only the neighbours (ndr_history=1 here:
// one epoch per thread besides).
//
// "dependency": T1 writes Pair.X under M, then writes its neighbour Pair.Y
// in three more critical sections; T2 writes Pair.X under M. Main joins
// both and reads Pair.X: T1's write of X is still a write dependency, so
// the read has two, unordered between them.
//
// "freedom": T2 writes Pair.X under M first (ordered where the detector
// cannot see it). Then T1, holding M throughout, writes Pair.X, writes
// Pair.Y in three epochs (each inside a holding of N), and reads Pair.X.
// Its own write in the same holding of M shuts out T2's write: the read is
// deterministic. Were T1's write of X gone, T2's would be left, parallel to
// the read: a false report.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1:ndr_history=1 not %t dependency 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=ndr=1:ndr_history=1 %t freedom 2>&1 | FileCheck %s --check-prefix=FREEDOM
// FREEDOM-NOT: WARNING: HybridRace
// FREEDOM:     done 1
// FREEDOM-NOT: WARNING: HybridRace

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
static pthread_mutex_t N = PTHREAD_MUTEX_INITIALIZER;
static int Freedom;
static int T2Done;
static int Seen;

static void *Thread1(void *Arg) {
  if (Freedom)
    invisible_wait(&T2Done);
  pthread_mutex_lock(&M);
  Pair.X = 1;
  for (int I = 0; I < 3; I++) {
    if (Freedom) {
      pthread_mutex_lock(&N);
      Pair.Y = I;
      pthread_mutex_unlock(&N);
    } else {
      pthread_mutex_unlock(&M);
      pthread_mutex_lock(&M);
      Pair.Y = I;
    }
  }
  if (Freedom)
    Seen = Pair.X;
  pthread_mutex_unlock(&M);
  return Arg;
}

static void *Thread2(void *Arg) {
  pthread_mutex_lock(&M);
  Pair.X = 2;
  pthread_mutex_unlock(&M);
  invisible_signal(&T2Done);
  return Arg;
}

int main(int Argc, char **Argv) {
  Freedom = Argc > 1 && !strcmp(Argv[1], "freedom");
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Thread1, NULL);
  pthread_create(&T2, NULL, Thread2, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  if (!Freedom) {
    pthread_mutex_lock(&M);
    Seen = Pair.X;
    pthread_mutex_unlock(&M);
  }
  // CHECK:      WARNING: HybridRace: non-deterministic read
  // CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T0 (locks held: {M1}):
  // CHECK-NEXT:     #0 main {{.*}}a_fields_last_write_outlives_epochs_on_its_neighbours.c:[[@LINE-5]]
  // CHECK-NEXT:   has 2 write dependencies:
  // CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T1 (locks held: {M1}):
  // CHECK-NEXT:       #0 Thread1 {{.*}}a_fields_last_write_outlives_epochs_on_its_neighbours.c:48
  // CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T2 (locks held: {M1}):
  // CHECK-NEXT:       #0 Thread2 {{.*}}a_fields_last_write_outlives_epochs_on_its_neighbours.c:68
  // CHECK-NOT:  WARNING: HybridRace
  printf("done %d\n", Seen);
  return 0;
}
