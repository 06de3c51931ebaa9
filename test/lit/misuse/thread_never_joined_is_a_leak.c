// A joinable thread that finished and was never joined when the process
// exits is a leak (report_thread_leaks=1, the default); detached and joined
// threads are not, nor is one still running.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=report_thread_leaks=0 %t 2>&1 | FileCheck %s --check-prefix=OFF
//
// CHECK:      WARNING: HybridRace: thread leak
// CHECK-NEXT:   Thread T0 exits the process; thread T1 finished and was never joined or detached. T1 was created at:
// CHECK-NEXT:     #0 main {{.*}}.c:[[@LINE+29]]
// CHECK:      SUMMARY: HybridRace: thread-leak {{.*}}.c:[[@LINE+28]] in main
// CHECK-NOT:  WARNING
// CHECK:      HybridRace: reported 1 warning
//
// OFF-NOT: HybridRace
// OFF: done

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int LeakedDone, JoinedDone, DetachedDone, Running;

static void *Finish(void *Arg) {
  invisible_signal((int *)Arg);
  return 0;
}

static void *Spin(void *Arg) {
  invisible_signal(&Running);
  for (;;)
    invisible_pause(0);
  return Arg;
}

int main(void) {
  pthread_t Leaked, Joined, Detached, Forever;
  pthread_create(&Leaked, 0, Finish, &LeakedDone); // @leaked
  pthread_create(&Joined, 0, Finish, &JoinedDone);
  pthread_join(Joined, 0);
  pthread_create(&Detached, 0, Finish, &DetachedDone);
  pthread_detach(Detached);
  pthread_create(&Forever, 0, Spin, 0);
  invisible_wait(&Running);
  invisible_wait(&LeakedDone);
  invisible_wait(&DetachedDone);
  // Only orders: lets the leaked thread return from its start routine.
  usleep(200000);
  fprintf(stderr, "done\n");
  return 0;
}
