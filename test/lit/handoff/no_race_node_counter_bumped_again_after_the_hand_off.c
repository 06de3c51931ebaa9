// A tree with a lock per node, as freqmine builds it: T1 creates a node
// under the parent's lock (calloc, a field, its visit counter) and links it
// as the parent's first child. T2 finds it under the parent's lock and bumps
// its counter. Then T1, under the parent's lock again, links another child
// in front of it (the first-child pointer T2 read is replaced) and bumps
// the counter once more. Only after that does T2 write the node's field,
// holding no lock: the creation happened before, through the parent's lock.
//
// The hand-off that orders T2's write after the creation is resolved only
// now, near the report. The first-child pointer has been replaced since T2
// read it, so it orders nothing; the counter has only been joined into
// since (a read-modify-write continues what it carried), so what its plain
// writer knew, the creator at the creation, is what T2 learned at least,
// and orders the write. (Before, a counter bumped again after the reader's
// section counted as rewritten, and the write was reported.)
//
// "unlinked": T2 gets the node through an invisible channel, never reading
// it under the parent's lock; nothing orders the creation before the write.
//
// RUN: %hrace_cc -O1 %s -o %t
// RUN: %t linked 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env HRACE_OPTIONS=msm=long %t linked 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env HRACE_OPTIONS=msm=hb %t linked 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: not %t unlinked 2>&1 | FileCheck %s --check-prefix=RACE
// QUIET-NOT: WARNING: HybridRace
// QUIET:     field=2 count=3
// RACE:      WARNING: HybridRace: data race
// RACE:        Write of size 4 at {{.*}} by thread T2 (locks held: none):
// RACE:          #0 Finder {{.*}}no_race_node_counter_bumped_again_after_the_hand_off.c
// RACE:        Previous write of size 4 at {{.*}} by thread T1 (locks held: {{{M[0-9]+}}}):
// RACE:          #0 Creator {{.*}}no_race_node_counter_bumped_again_after_the_hand_off.c

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct Node {
  int Count;
  int Field;
  struct Node *FirstChild, *NextSibling;
};

static pthread_mutex_t ParentLock = PTHREAD_MUTEX_INITIALIZER;
static struct Node Parent;
static void *Smuggled;
static int Linked;

static int Created, Bumped, BumpedAgain, Written;

static void *Creator(void *Arg) {
  (void)Arg;
  pthread_mutex_lock(&ParentLock);
  struct Node *N = (struct Node *)calloc(1, sizeof(struct Node));
  N->Field = 1;
  N->Count++;
  N->NextSibling = Parent.FirstChild;
  Parent.FirstChild = N;
  pthread_mutex_unlock(&ParentLock);
  invisible_put(&Smuggled, N);
  invisible_signal(&Created);
  invisible_wait(&Bumped);
  pthread_mutex_lock(&ParentLock);
  struct Node *Other = (struct Node *)calloc(1, sizeof(struct Node));
  Other->NextSibling = Parent.FirstChild;
  Parent.FirstChild = Other;
  N->Count++;
  pthread_mutex_unlock(&ParentLock);
  invisible_signal(&BumpedAgain);
  invisible_wait(&Written);
  return 0;
}

static void *Finder(void *Arg) {
  (void)Arg;
  invisible_wait(&Created);
  struct Node *N = (struct Node *)invisible_get(&Smuggled);
  if (Linked) {
    pthread_mutex_lock(&ParentLock);
    N = Parent.FirstChild;
    N->Count++;
    pthread_mutex_unlock(&ParentLock);
  }
  invisible_signal(&Bumped);
  invisible_wait(&BumpedAgain);
  N->Field = 2;
  invisible_signal(&Written);
  return N;
}

int main(int Argc, char **Argv) {
  Linked = Argc > 1 && !strcmp(Argv[1], "linked");
  pthread_t T1, T2;
  pthread_create(&T1, 0, Creator, 0);
  pthread_create(&T2, 0, Finder, 0);
  void *Found;
  pthread_join(T1, 0);
  pthread_join(T2, &Found);
  struct Node *N = (struct Node *)Found;
  printf("field=%d count=%d\n", N->Field, N->Count);
  return 0;
}
