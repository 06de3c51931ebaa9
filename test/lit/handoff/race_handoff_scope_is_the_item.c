// The scope of a hand-off is the memory it carried. The producer writes
// the global Stats and fills a heap Item without a lock, then pushes the
// item on a list under M. The consumer, after the producer finished, pops
// the item under M (it read Head, which the producer wrote under M and
// which points to the item): the item's fields are ordered after the
// producer's writes and are silent; Stats, a global, is outside the
// hand-off's scope and its race is reported, once. msm=hb orders the
// consumer after the producer through M: silent.
//
// RUN: %hrace_cc -O0 %s -o %t.O0 && %hrace_cc -O2 %s -o %t.O2
// RUN: not %t.O0 2>&1 | FileCheck %s
// RUN: not %t.O2 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t.O0 2>&1 | FileCheck %s --check-prefix=HB
// RUN: env HRACE_OPTIONS=msm=hb %t.O2 2>&1 | FileCheck %s --check-prefix=HB

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct Item { int value; struct Item *next; };

int Stats;
static struct Item *Head;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static int Pushed;

static void *Producer(void *Arg) {
  Stats = 1;
  struct Item *It = malloc(sizeof(*It));
  It->value = 7;
  pthread_mutex_lock(&M);
  It->next = Head;
  Head = It;
  pthread_mutex_unlock(&M);
  invisible_signal(&Pushed);
  return Arg;
}

static void *Consumer(void *Arg) {
  invisible_wait(&Pushed);
  pthread_mutex_lock(&M);
  struct Item *It = Head;
  Head = NULL;
  pthread_mutex_unlock(&M);
  int V = It->value;
  It->value = V + 1;
  Stats++;
  printf("value=%d\n", It->value);
  free(It);
  return Arg;
}
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 4 at {{.*}} by thread T2 (locks held: none):
// CHECK-NEXT:     #0 Consumer {{.*}}race_handoff_scope_is_the_item.c:48
// CHECK-NEXT:   Previous write of size 4 at {{.*}} by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Producer {{.*}}race_handoff_scope_is_the_item.c:29
// CHECK-NEXT:   Detected by msm=short: the previous access does not happen before this one and no lock protects both.
// CHECK-NEXT:   Location is global 'Stats'
// CHECK-NOT:  WARNING: HybridRace
// CHECK:      value=8
// CHECK-NOT:  WARNING: HybridRace
// CHECK:      HybridRace: reported 1 warning

int main(void) {
  pthread_t P, C;
  pthread_create(&P, NULL, Producer, NULL);
  pthread_create(&C, NULL, Consumer, NULL);
  pthread_join(P, NULL);
  pthread_join(C, NULL);
  return 0;
}
// HB-NOT: WARNING: HybridRace
// HB:     value=8
