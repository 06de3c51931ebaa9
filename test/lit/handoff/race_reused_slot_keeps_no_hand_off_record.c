// A thread slot's hand-off records leave with a thread that takes the slot
// without its creator knowing the previous thread to its end. T1 fills an
// item and publishes it under a mutex; T2 takes it (a hand-off, which
// leaves a record in T2's slot) and creates T3, which joins T2 and reads
// the item after it. main, which has not synchronised with T1, T2 or T3,
// then creates T4, which takes T2's free slot, joins it and reads the item.
// Nothing orders T1's write before main's read. T4's clock starts above
// T2's, so main, having joined T4, would take T2's read as known, and with
// it the record's "T1's write comes before": a missed race. msm=hb reports
// it as well; msm=long's ordered reads forgot the write.
//
// T3 tells main it has read by a flag the detector cannot see: it orders
// two reads of the item, which do not race in either order.
//
// RUN: %hrace_cc -O0 %s -o %t.O0 && %hrace_cc -O2 %s -o %t.O2
// RUN: not %t.O0 2>&1 | FileCheck %s
// RUN: not %t.O2 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t.O2 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t.O2 2>&1 | FileCheck %s --check-prefix=LONG
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 4 at {{.*}} by thread T0 (locks held: none):
// CHECK-NEXT:     #0 main {{.*}}race_reused_slot_keeps_no_hand_off_record.c:68
// CHECK-NEXT:   Previous write of size 4 at {{.*}} by thread T1 (locks held: none):
// CHECK-NEXT:     #0 publish_new_item {{.*}}hrace_test_hand_off.h:43
// CHECK-NEXT:     #1 Thread1 {{.*}}race_reused_slot_keeps_no_hand_off_record.c:38
// CHECK:      seen=42 42 42
// LONG-NOT:   WARNING: HybridRace
// LONG:       seen=42 42 42

#include "hrace_test_hand_off.h"
#include <stdio.h>
#include <stdlib.h>

static pthread_t T3;
static int T3Read, Seen2, Seen3;

static void *Thread1(void *Arg) {
  publish_new_item(42);
  return Arg;
}

static void *Thread3(void *Parent) {
  struct Item *It;
  pthread_join((pthread_t)Parent, (void **)&It);
  Seen3 = It->Value;
  invisible_signal(&T3Read);
  return NULL;
}

static void *Thread2(void *Arg) {
  (void)Arg;
  struct Item *It = take_published_item();
  Seen2 = It->Value;
  pthread_create(&T3, NULL, Thread3, (void *)pthread_self());
  return It;
}

static void *Nothing(void *Arg) { return Arg; }

int main(void) {
  pthread_t T1, T2, T4;
  pthread_create(&T1, NULL, Thread1, NULL);
  pthread_create(&T2, NULL, Thread2, NULL);
  invisible_wait(&T3Read);
  pthread_create(&T4, NULL, Nothing, NULL);
  pthread_join(T4, NULL);
  struct Item *It = invisible_get((void **)&HandOffSlot);
  int Seen = It->Value;
  pthread_join(T1, NULL);
  pthread_join(T3, NULL);
  printf("seen=%d %d %d\n", Seen2, Seen3, Seen);
  free(It);
  return 0;
}
