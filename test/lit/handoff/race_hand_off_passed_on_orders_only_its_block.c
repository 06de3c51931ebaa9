// What a hand-off orders passes on to the threads ordered after its reader,
// for the handed-over block only, and to no other thread. As in
// no_race_hand_off_passes_on_to_a_joiner.c, T1 fills an item and publishes
// it under a mutex, T2 takes it (a hand-off) and creates T4, which reads it
// after T2, and main joins T2. T1 also filled a second block, Other, which
// it passed on by a pointer the detector cannot see, and which T2 never
// read. Two reads race:
//  - T3, ordered after nothing (main has not synchronised with T1 or T2
//    when it creates T3), reads the item once T4 has: T2's hand-off is not
//    T3's, and T1's write is reported (msm=hb too; msm=long's ordered read
//    forgot the write and sees two reads);
//  - main reads Other: the hand-off ordered the item's block only, so the
//    hybrid machines report T1's write; msm=hb orders it through the mutex.
// T4 and T3 tell the others they have read by flags the detector cannot
// see; those order reads of the item only, which do not race each other.
// T1 starts once main has created T3, so T2's child is T4.
//
// RUN: %hrace_cc -O0 %s -o %t.O0 && %hrace_cc -O2 %s -o %t.O2
// RUN: not %t.O0 2>&1 | FileCheck %s --check-prefixes=CHECK,SHORT
// RUN: not %t.O2 2>&1 | FileCheck %s --check-prefixes=CHECK,SHORT
// RUN: env HRACE_OPTIONS=msm=long not %t.O2 2>&1 | FileCheck %s --check-prefixes=CHECK,LONG
// RUN: env HRACE_OPTIONS=msm=hb not %t.O2 2>&1 | FileCheck %s --check-prefixes=CHECK,HB
// SHORT:      WARNING: HybridRace: data race
// SHORT-NEXT:   Read of size 4 at {{.*}} by thread T3 (locks held: none):
// SHORT-NEXT:     #0 Thread3 {{.*}}race_hand_off_passed_on_orders_only_its_block.c:80
// SHORT-NEXT:   Previous write of size 4 at {{.*}} by thread T1 (locks held: none):
// SHORT-NEXT:     #0 Thread1 {{.*}}race_hand_off_passed_on_orders_only_its_block.c:58
// SHORT:      WARNING: HybridRace: data race
// SHORT-NEXT:   Read of size 4 at {{.*}} by thread T0 (locks held: none):
// SHORT-NEXT:     #0 main {{.*}}race_hand_off_passed_on_orders_only_its_block.c:94
// SHORT-NEXT:   Previous write of size 4 at {{.*}} by thread T1 (locks held: none):
// SHORT-NEXT:     #0 Thread1 {{.*}}race_hand_off_passed_on_orders_only_its_block.c:59
// LONG:       WARNING: HybridRace: data race
// LONG-NEXT:    Read of size 4 at {{.*}} by thread T0 (locks held: none):
// LONG-NEXT:      #0 main {{.*}}race_hand_off_passed_on_orders_only_its_block.c:94
// LONG-NEXT:    Previous write of size 4 at {{.*}} by thread T1 (locks held: none):
// LONG-NEXT:      #0 Thread1 {{.*}}race_hand_off_passed_on_orders_only_its_block.c:59
// HB:         WARNING: HybridRace: data race
// HB-NEXT:      Read of size 4 at {{.*}} by thread T3 (locks held: none):
// HB-NEXT:        #0 Thread3 {{.*}}race_hand_off_passed_on_orders_only_its_block.c:80
// HB-NEXT:      Previous write of size 4 at {{.*}} by thread T1 (locks held: none):
// HB-NEXT:        #0 Thread1 {{.*}}race_hand_off_passed_on_orders_only_its_block.c:58
// CHECK-NOT:  WARNING: HybridRace
// CHECK:      seen=42 42 42 7

#include "hrace_test_hand_off.h"
#include <stdio.h>
#include <stdlib.h>

static struct Item *Taken;
static void *OtherSlot;
static pthread_t T4;
static int AllCreated, T4Read, T3Read, Seen2, Seen3, Seen4;

static void *Thread1(void *Arg) {
  invisible_wait(&AllCreated);
  struct Item *It = malloc(sizeof(*It)), *Other = malloc(sizeof(*Other));
  It->Value = 42;
  Other->Value = 7;
  invisible_put(&OtherSlot, Other);
  publish_item(It);
  return Arg;
}

static void *Thread4(void *Arg) {
  Seen4 = Taken->Value;
  invisible_signal(&T4Read);
  return Arg;
}

static void *Thread2(void *Arg) {
  Taken = take_published_item();
  Seen2 = Taken->Value;
  pthread_create(&T4, NULL, Thread4, NULL);
  return Arg;
}

static void *Thread3(void *Arg) {
  invisible_wait(&T4Read);
  Seen3 = ((struct Item *)invisible_get((void **)&Taken))->Value;
  invisible_signal(&T3Read);
  return Arg;
}

int main(void) {
  pthread_t T1, T2, T3;
  pthread_create(&T1, NULL, Thread1, NULL);
  pthread_create(&T2, NULL, Thread2, NULL);
  pthread_create(&T3, NULL, Thread3, NULL);
  invisible_signal(&AllCreated);
  pthread_join(T2, NULL);
  invisible_wait(&T3Read);
  struct Item *Other = invisible_get(&OtherSlot);
  int SeenOther = Other->Value;
  pthread_join(T1, NULL);
  pthread_join(T3, NULL);
  pthread_join(T4, NULL);
  printf("seen=%d %d %d %d\n", Seen2, Seen3, Seen4, SeenOther);
  free(Taken);
  free(Other);
  return 0;
}
