// ANNOTATE_HAPPENS_BEFORE / ANNOTATE_HAPPENS_AFTER describe synchronisation
// the detector cannot see: here a flag set and polled by uninstrumented
// code. With the annotations the publication is ordered and nothing is
// reported; built without them, the same program reports the race, which
// shows the flag alone is invisible.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// RUN: %hrace_cc -DWITHOUT_ANNOTATIONS %s -o %t.without
// RUN: env HRACE_OPTIONS=msm=hb not %t.without 2>&1 | FileCheck %s --check-prefix=WITHOUT
// CHECK-NOT: HybridRace
// CHECK:     Data = 42
// CHECK-NOT: HybridRace
// WITHOUT:   WARNING: HybridRace: data race
// WITHOUT:   Location is global 'Data'

#include "hrace_test_sync.h"
#include <hrace/annotations.h>
#include <pthread.h>
#include <stdio.h>

#ifdef WITHOUT_ANNOTATIONS
#undef ANNOTATE_HAPPENS_BEFORE
#undef ANNOTATE_HAPPENS_AFTER
#define ANNOTATE_HAPPENS_BEFORE(addr) ((void)0)
#define ANNOTATE_HAPPENS_AFTER(addr) ((void)0)
#endif

int Data;
static int Flag;

static void *Producer(void *Arg) {
  Data = 42;
  ANNOTATE_HAPPENS_BEFORE(&Flag);
  invisible_signal(&Flag);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Producer, NULL);
  invisible_wait(&Flag);
  ANNOTATE_HAPPENS_AFTER(&Flag);
  printf("Data = %d\n", Data);
  pthread_join(T, NULL);
  return 0;
}
