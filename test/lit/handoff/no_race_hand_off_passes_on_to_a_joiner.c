// A hand-off orders its reader's thread only; whoever is ordered after that
// reader later (a thread it creates, the thread that joins it) is ordered
// after the hand-off too, for the same memory. T1 fills an item and
// publishes it under a mutex; T2 takes it under the mutex (a hand-off: no
// wait loop, so not a full acquire) and reads it outside the lock, then
// creates T3, which reads it too. main joins T2, not T1 or T3, and reads the
// item once T3 has read it. In happens-before T1's write precedes main's
// read (T1 unlock, T2 lock, T2's end, the join), so nothing races; but the
// item's cell last names T3's read, which main is not ordered after, and
// T1's write, which main is ordered after only through T2's hand-off.
//
// T3 tells main it has read by a flag the detector cannot see: it orders
// two reads, which do not race in either order.
//
// RUN: %hrace_cc -O0 %s -o %t.O0 && %hrace_cc -O2 %s -o %t.O2
// RUN: %t.O0 2>&1 | FileCheck %s
// RUN: %t.O2 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t.O2 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t.O2 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     seen=42 42 42

#include "hrace_test_hand_off.h"
#include <stdio.h>
#include <stdlib.h>

static struct Item *Taken;
static pthread_t T3;
static int T3Read, Seen2, Seen3;

static void *Thread1(void *Arg) {
  publish_new_item(42);
  return Arg;
}

static void *Thread3(void *Arg) {
  Seen3 = Taken->Value;
  invisible_signal(&T3Read);
  return Arg;
}

static void *Thread2(void *Arg) {
  Taken = take_published_item();
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
  pthread_join(T1, NULL);
  pthread_join(T3, NULL);
  printf("seen=%d %d %d\n", Seen2, Seen3, Seen);
  free(Taken);
  return 0;
}
