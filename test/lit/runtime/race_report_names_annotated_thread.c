// ANNOTATE_THREAD_NAME gives a thread a name that reports show next to its
// number, so the user can tell the threads of a large program apart.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <hrace/annotations.h>
#include <pthread.h>

int Global;
static int MainWrote, Reported;

static void *Thread1(void *Arg) {
  ANNOTATE_THREAD_NAME("flusher");
  invisible_wait(&MainWrote);
  Global = 1;
  invisible_signal(&Reported);
  return Arg;
}

int main(void) {
  ANNOTATE_THREAD_NAME("main loop");
  pthread_t T;
  pthread_create(&T, NULL, Thread1, NULL);
  Global = 2;
  invisible_signal(&MainWrote);
  invisible_wait(&Reported);
  pthread_join(T, NULL);
  return 0;
}
// CHECK:      WARNING: HybridRace: data race
// CHECK:        Thread T1 'flusher' (tid={{[0-9]+}}, running) created by T0 at:
// CHECK:        Thread T0 'main loop' (tid={{[0-9]+}}, running) is the main thread
