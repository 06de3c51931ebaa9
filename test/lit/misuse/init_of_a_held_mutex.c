// pthread_mutex_init of a mutex that is still held (here by its own
// thread) throws the lock away under its holder: reported as such.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// CHECK:      WARNING: HybridRace: destroy of a locked mutex
// CHECK-NEXT:   Thread T0 initialises mutex [[M:M[0-9]+]] at 0x{{[0-9a-f]+}} again while it is held:
// CHECK-NEXT:     #0 main {{.*}}.c:[[@LINE+11]]
// CHECK-NEXT:   Mutex [[M]] at 0x{{[0-9a-f]+}} is held by thread T0
// CHECK:      SUMMARY: HybridRace: destroy-of-locked-mutex

#include <pthread.h>

static pthread_mutex_t M;

int main(void) {
  pthread_mutex_init(&M, 0);
  pthread_mutex_lock(&M);
  pthread_mutex_init(&M, 0); // @again
  return 0;
}
