// A thread builds a node with a mutex inside and links it under a global
// lock, then takes the node's mutex itself (a tree with a lock per node).
// Another thread reads the pointer under the global lock and takes the
// node's mutex. The hand-off orders the reader's use of
// the whole node after its construction, the lock's own word included: the
// mutex's initialisation (a plain write) and the reader's lock (an atomic
// read of the word) do not race. The invisible wait only makes the reader
// look after the publication; what orders the two is the hand-off alone.
//
// "smuggled": the reader gets the pointer through an invisible channel, not
// the global lock: nothing orders the initialisation before its lock
// (msm=short; msm=long waits for a third access before it reports, and in
// msm=hb the node's own lock and unlock order the two).
//
// RUN: %hrace_cc -O1 %s -o %t
// RUN: %t handed 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env HRACE_OPTIONS=msm=long %t handed 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env HRACE_OPTIONS=msm=hb %t handed 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: not %t smuggled 2>&1 | FileCheck %s --check-prefix=RACE
// QUIET-NOT: WARNING: HybridRace
// QUIET:     key=2
// RACE:      WARNING: HybridRace: data race
// RACE:        Atomic read of size 1 at {{.*}} by thread T2
// RACE:          #0 pthread_mutex_lock
// RACE:        Previous write of size 1 at {{.*}} by thread T1
// RACE:          #0 pthread_mutex_init

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct Node {
  int Key;
  pthread_mutex_t Mu;
};

static pthread_mutex_t Global = PTHREAD_MUTEX_INITIALIZER;
static struct Node *Head;
static struct Node *Smuggled;
static int Published, Smuggle;

// As a tree inserts a node: built and linked under the global lock, then
// locked on its own (after the global unlock, in a later segment: the
// mutex's word then keeps the initialisation as its last plain write).
static void *Build(void *Arg) {
  pthread_mutex_lock(&Global);
  struct Node *N = malloc(sizeof(*N));
  pthread_mutex_init(&N->Mu, 0);
  if (Smuggle)
    __atomic_store_n(&Smuggled, N, __ATOMIC_RELAXED);
  else
    Head = N;
  pthread_mutex_unlock(&Global);
  pthread_mutex_lock(&N->Mu);
  N->Key = 1;
  pthread_mutex_unlock(&N->Mu);
  invisible_signal(&Published);
  return Arg;
}

static HRACE_INVISIBLE struct Node *TakeSmuggled(void) {
  return __atomic_load_n(&Smuggled, __ATOMIC_ACQUIRE);
}

static void *Use(void *Arg) {
  invisible_wait(&Published);
  struct Node *N;
  if (Smuggle) {
    N = TakeSmuggled();
  } else {
    pthread_mutex_lock(&Global);
    N = Head;
    pthread_mutex_unlock(&Global);
  }
  pthread_mutex_lock(&N->Mu);
  N->Key++;
  pthread_mutex_unlock(&N->Mu);
  return Arg;
}

int main(int Argc, char **Argv) {
  Smuggle = Argc > 1 && !strcmp(Argv[1], "smuggled");
  pthread_t B, U;
  pthread_create(&B, 0, Build, 0);
  pthread_create(&U, 0, Use, 0);
  pthread_join(B, 0);
  pthread_join(U, 0);
  struct Node *N = Smuggle ? Smuggled : Head;
  printf("key=%d\n", N->Key);
  return 0;
}
