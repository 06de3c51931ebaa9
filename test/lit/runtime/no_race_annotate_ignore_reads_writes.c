// ANNOTATE_IGNORE_READS_BEGIN/END and ANNOTATE_IGNORE_WRITES_BEGIN/END
// exclude one thread's accesses in a region from checking: a thread reads a
// global another thread writes (reads ignored), and writes a global another
// thread reads (writes ignored). Neither pair is reported, in any order.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     done
// CHECK-NOT: HybridRace

#include <hrace/annotations.h>
#include <pthread.h>
#include <stdio.h>

int Progress;
int Heartbeat;

static void *Monitor(void *Arg) {
  long Seen = 0;
  for (int I = 0; I < 50; ++I) {
    ANNOTATE_IGNORE_READS_BEGIN();
    Seen += Progress;
    ANNOTATE_IGNORE_READS_END();
    ANNOTATE_IGNORE_WRITES_BEGIN();
    Heartbeat = I;
    ANNOTATE_IGNORE_WRITES_END();
  }
  return (void *)Seen;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Monitor, NULL);
  long Beats = 0;
  for (int I = 0; I < 50; ++I) {
    Progress = I;
    Beats += Heartbeat;
  }
  pthread_join(T, NULL);
  printf("done\n");
  return Beats < 0;
}
