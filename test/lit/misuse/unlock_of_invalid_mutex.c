// Unlocking a mutex that was destroyed, and one the program never
// initialised or locked, is unlocking an invalid mutex.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t destroyed 2>&1 | FileCheck %s --check-prefix=DESTROYED
// RUN: not %t never 2>&1 | FileCheck %s --check-prefix=NEVER
//
// DESTROYED:      WARNING: HybridRace: unlock of an invalid mutex
// DESTROYED-NEXT:   Thread T0 unlocks mutex at 0x{{[0-9a-f]+}}, which was destroyed:
// DESTROYED-NEXT:     #0 UnlockDestroyed {{.*}}.c:[[@LINE+17]]
// DESTROYED:      SUMMARY: HybridRace: unlock-of-invalid-mutex
// DESTROYED-NOT:  pthreads function returned an error
//
// NEVER:      WARNING: HybridRace: unlock of an invalid mutex
// NEVER-NEXT:   Thread T0 unlocks mutex at 0x{{[0-9a-f]+}}, which was never initialised or locked:
// NEVER-NEXT:     #0 UnlockNeverUsed {{.*}}.c:[[@LINE+15]]

#include <pthread.h>
#include <string.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

static __attribute__((noinline)) void UnlockDestroyed(void) {
  pthread_mutex_lock(&M);
  pthread_mutex_unlock(&M);
  pthread_mutex_destroy(&M);
  pthread_mutex_unlock(&M); // @destroyed
}

static __attribute__((noinline)) void UnlockNeverUsed(void) {
  pthread_mutex_unlock(&M); // @never
}

int main(int Argc, char **Argv) {
  if (!strcmp(Argv[1], "destroyed"))
    UnlockDestroyed();
  else
    UnlockNeverUsed();
  return 0;
}
