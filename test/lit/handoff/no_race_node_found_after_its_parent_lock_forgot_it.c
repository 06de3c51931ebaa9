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
// "unlinked": T2 gets the node through an invisible channel, reading
// nothing under the lock; nothing orders the creation before the write.
//
// RUN: %hrace_cc -O1 %s -o %t
// RUN: %t linked 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env HRACE_OPTIONS=msm=long %t linked 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env HRACE_OPTIONS=msm=hb %t linked 2>&1 | FileCheck %s --check-prefix=QUIET
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

enum { kLater = 80, kFirstKey = 1000 };

struct Node {
  int Key;
  int Field;
  struct Node *Next;
};

static pthread_mutex_t ListLock = PTHREAD_MUTEX_INITIALIZER;
static struct Node *Head;
static void *Smuggled;
static int Linked, Built, Written;

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
  invisible_signal(&Built);
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
    pthread_mutex_unlock(&ListLock);
  }
  N->Field = 2;
  invisible_signal(&Written);
  return N;
}

int main(int Argc, char **Argv) {
  Linked = Argc > 1 && !strcmp(Argv[1], "linked");
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
