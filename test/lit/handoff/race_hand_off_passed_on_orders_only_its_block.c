// What a hand-off orders passes on to the threads ordered after its reader
// for the handed-over block only. As in no_race_hand_off_passes_on_to_a_
// joiner.c, T1 fills an item and publishes it under a mutex, T2 takes it
// (a hand-off) and creates T3, which reads it last, and main joins T2 and
// reads the item: silent. But T1 also wrote the global Other before it
// published, and main reads Other too: no lock protects both, and the
// hand-off's block is the item's, so the hybrid machines report it. msm=hb
// orders T1's unlock before T2's lock and stays silent.
//
// T3 tells main it has read by a flag the detector cannot see: it orders
// two reads of the item, which do not race in either order.
//
// RUN: %hrace_cc -O0 %s -o %t.O0 && %hrace_cc -O2 %s -o %t.O2
// RUN: not %t.O0 2>&1 | FileCheck %s
// RUN: not %t.O2 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long not %t.O2 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t.O2 2>&1 | FileCheck %s --check-prefix=HB
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 4 at {{.*}} by thread T0 (locks held: none):
// CHECK-NEXT:     #0 main {{.*}}race_hand_off_passed_on_orders_only_its_block.c:79
// CHECK-NEXT:   Previous write of size 4 at {{.*}} by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Thread1 {{.*}}race_hand_off_passed_on_orders_only_its_block.c:44
// CHECK:        Location is global 'Other'
// CHECK-NOT:  WARNING: HybridRace
// CHECK:      seen=42 42 42 other=1
// HB-NOT:     WARNING: HybridRace
// HB:         seen=42 42 42 other=1

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct Item { int Value; };

int Other;
static pthread_mutex_t Mu = PTHREAD_MUTEX_INITIALIZER;
static struct Item *Slot;
static struct Item *Taken;
static pthread_t T3;
static int Published, T3Read, Seen2, Seen3;

static void *Thread1(void *Arg) {
  Other = 1;
  struct Item *It = malloc(sizeof(*It));
  It->Value = 42;
  pthread_mutex_lock(&Mu);
  Slot = It;
  pthread_mutex_unlock(&Mu);
  invisible_signal(&Published);
  return Arg;
}

static void *Thread3(void *Arg) {
  Seen3 = Taken->Value;
  invisible_signal(&T3Read);
  return Arg;
}

static void *Thread2(void *Arg) {
  // Ordering only: T2 takes the item once T1 has published it, so its one
  // locked read is a hand-off and not a polling loop's full acquire.
  invisible_wait(&Published);
  pthread_mutex_lock(&Mu);
  Taken = Slot;
  pthread_mutex_unlock(&Mu);
  Seen2 = Taken->Value;
  pthread_create(&T3, NULL, Thread3, NULL);
  return Arg;
}

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Thread1, NULL);
  pthread_create(&T2, NULL, Thread2, NULL);
  pthread_join(T2, NULL);
  invisible_wait(&T3Read);
  int Seen = Taken->Value;
  int SeenOther = Other;
  pthread_join(T1, NULL);
  pthread_join(T3, NULL);
  printf("seen=%d %d %d other=%d\n", Seen2, Seen3, Seen, SeenOther);
  free(Taken);
  return 0;
}
