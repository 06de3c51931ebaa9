// A list with one lock, as a tree node's children under the node's lock in
// freqmine: T1 creates a node under the list's lock and links it, then
// links 80 more in front of it, so the lock's map of written locations
// (64 at most) forgets the first node's. T2 then walks the list under the
// lock to the first node, and after unlocking writes its field: the node's
// creation happened before, through the lock.
//
// The hand-off is resolved near the report, from T2's reads under the lock
// (the node's key, the pointer to it). Their locations are no longer in
// the map, but were evicted from it: what the writers of every evicted
// location knew, all in sections before T2's, is what T2 learned at least,
// and orders the write. (Before, a location missing from the map made no
// edge, and the write was reported.)
//
// "bumped": as "linked", but T1 also bumps a counter under the lock once
// before the walk and once right after it, and the map then evicts that
// counter: the summary of evicted writers now names a section after T2's
// walk, and cannot be T2's. What the evicted locations' plain writers knew
// (the counter's first bump, the nodes' creation) still orders the write.
// (Before, freqmine reported such a node's creation about every other run.)
//
// "unlinked": T2 gets the node through an invisible channel, reading
// nothing under the lock; nothing orders the creation before the write.
//
// RUN: %hrace_cc -O1 %s -o %t
// RUN: %t linked 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env HRACE_OPTIONS=msm=long %t linked 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env HRACE_OPTIONS=msm=hb %t linked 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: %t bumped 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env HRACE_OPTIONS=msm=long %t bumped 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: not %t unlinked 2>&1 | FileCheck %s --check-prefix=RACE
// QUIET-NOT: WARNING: HybridRace
// QUIET:     field=2 nodes=81
// RACE:      WARNING: HybridRace: data race
// RACE:        Write of size 4 at {{.*}} by thread T2 (locks held: none):
// RACE:          #0 Walker {{.*}}no_race_node_found_after_its_parent_lock_forgot_it.c
// RACE:        Previous write of size 4 at {{.*}} by thread T1 (locks held: {{{M[0-9]+}}}):
// RACE:          #0 Link {{.*}}no_race_node_found_after_its_parent_lock_forgot_it.c

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kLater = 80, kFirstKey = 1000, kFillers = 64 };

struct Node {
  int Key;
  int Field;
  struct Node *Next;
};

static pthread_mutex_t ListLock = PTHREAD_MUTEX_INITIALIZER;
static struct Node *Head;
static void *Smuggled;
static int Linked, Bumped, Built, Walked, BumpedAgain, Written;
// Written under ListLock: a counter, and the locations that make the map
// (64 entries, oldest out first) hold the counter as its oldest. Not
// static, so the optimiser keeps them where calloc put them, and each store
// a store of its own.
long *Counter;
volatile long *Fillers;

static void Bump(void) {
  pthread_mutex_lock(&ListLock);
  ++*Counter;
  pthread_mutex_unlock(&ListLock);
}

static struct Node *Link(int Key) {
  pthread_mutex_lock(&ListLock);
  struct Node *N = (struct Node *)calloc(1, sizeof(struct Node));
  N->Key = Key;
  N->Field = 1;
  N->Next = Head;
  Head = N;
  pthread_mutex_unlock(&ListLock);
  return N;
}

static void *Builder(void *Arg) {
  (void)Arg;
  invisible_put(&Smuggled, Link(kFirstKey));
  for (int K = 0; K < kLater; K++)
    Link(K);
  if (Bumped) {
    Bump();
    pthread_mutex_lock(&ListLock);
    for (int I = 0; I < kFillers - 1; I++)
      Fillers[I] = 1;
    pthread_mutex_unlock(&ListLock);
  }
  invisible_signal(&Built);
  if (Bumped) {
    invisible_wait(&Walked);
    Bump();
    pthread_mutex_lock(&ListLock);
    Fillers[kFillers - 1] = 1;
    pthread_mutex_unlock(&ListLock);
    invisible_signal(&BumpedAgain);
  }
  invisible_wait(&Written);
  return 0;
}

static void *Walker(void *Arg) {
  (void)Arg;
  invisible_wait(&Built);
  struct Node *N = (struct Node *)invisible_get(&Smuggled);
  if (Linked) {
    pthread_mutex_lock(&ListLock);
    for (N = Head; N->Key != kFirstKey; N = N->Next)
      ;
    // A section that writes takes a number of its own (one the map holds:
    // nothing is evicted).
    if (Bumped)
      Fillers[0] = 2;
    pthread_mutex_unlock(&ListLock);
  }
  if (Bumped) {
    invisible_signal(&Walked);
    invisible_wait(&BumpedAgain);
  }
  N->Field = 2;
  invisible_signal(&Written);
  return N;
}

int main(int Argc, char **Argv) {
  Bumped = Argc > 1 && !strcmp(Argv[1], "bumped");
  Linked = Bumped || (Argc > 1 && !strcmp(Argv[1], "linked"));
  Counter = (long *)calloc(1, sizeof(long));
  Fillers = (volatile long *)calloc(kFillers, sizeof(long));
  pthread_t T1, T2;
  pthread_create(&T1, 0, Builder, 0);
  pthread_create(&T2, 0, Walker, 0);
  void *Found;
  pthread_join(T1, 0);
  pthread_join(T2, &Found);
  int Nodes = 0;
  for (struct Node *N = Head; N; N = N->Next)
    Nodes++;
  printf("field=%d nodes=%d\n", ((struct Node *)Found)->Field, Nodes);
  return 0;
}
