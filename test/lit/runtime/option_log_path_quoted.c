// A quoted option value may contain separators: log_path='DIR/with space/r'
// writes the report to "DIR/with space/r.PID".
//
// RUN: %hrace_cc %s -o %t
// RUN: rm -rf "%t.dir" && mkdir -p "%t.dir/with space"
// RUN: env "HRACE_OPTIONS=msm=hb:log_path='%t.dir/with space/r'" not %t 2>&1 | FileCheck %s --check-prefix=STDERR --allow-empty
// RUN: cat "%t.dir/with space/"r.* | FileCheck %s

// STDERR-NOT: HybridRace
// CHECK:      WARNING: HybridRace: data race
// CHECK:        Location is global 'Global'
// CHECK:      HybridRace: reported 1 warning

#include "hrace_test_sync.h"
#include <pthread.h>

int Global;
static int Wrote;

static void *Thread1(void *Arg) {
  Global = 1;
  invisible_signal(&Wrote);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Thread1, NULL);
  // After the thread's write in time only: two stores of the shadow at the
  // same moment may keep one access and miss the race (docs/design.md,
  // Known limits).
  invisible_wait(&Wrote);
  Global = 2;
  pthread_join(T, NULL);
  return 0;
}
