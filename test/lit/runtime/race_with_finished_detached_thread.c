// A detached thread writes a global and exits; nothing orders its exit
// before anything. A thread created later (it may reuse the finished
// thread's runtime slot and stack) writes the same global: under pure
// happens-before the two writes still race; a finished thread leaves no
// ordering behind.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>
#include <time.h>

int Status;
static int FirstWrote;

static void *First(void *Arg) {
  Status = 1;
  invisible_signal(&FirstWrote);
  return Arg;
}

static void *Second(void *Arg) {
  Status = 2;
  return Arg;
}
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Write of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T2 (locks held: none):
// CHECK-NEXT:     #0 Second {{.*}}race_with_finished_detached_thread.c:[[@LINE-5]]
// CHECK-NEXT:   Previous write of size 4 at [[ADDR]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 First {{.*}}race_with_finished_detached_thread.c:[[@LINE-13]]

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, First, NULL);
  pthread_detach(T1);
  invisible_wait(&FirstWrote);
  // Let the first thread finish so that its slot is free again.
  struct timespec Pause = {0, 20 * 1000 * 1000};
  nanosleep(&Pause, NULL);
  pthread_create(&T2, NULL, Second, NULL);
  pthread_join(T2, NULL);
  return 0;
}
