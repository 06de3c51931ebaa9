// A mutex passed to a reader-writer lock function, and a reader-writer lock
// passed to a mutex function. The calls would corrupt the objects; the
// report comes first and halt_on_error ends the run there.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=halt_on_error=1 not %t mutex 2>&1 | FileCheck %s --check-prefix=MUTEX
// RUN: env HRACE_OPTIONS=halt_on_error=1 not %t rwlock 2>&1 | FileCheck %s --check-prefix=RWLOCK
//
// MUTEX:      WARNING: HybridRace: mutex passed to a reader-writer lock function
// MUTEX-NEXT:   Thread T0 passes mutex {{M[0-9]+}} at 0x{{[0-9a-f]+}} to a reader-writer lock call:
// MUTEX-NEXT:     #0 main {{.*}}.c:[[@LINE+19]]
// MUTEX:      SUMMARY: HybridRace: mutex-used-as-rwlock
//
// RWLOCK:      WARNING: HybridRace: reader-writer lock passed to a mutex function
// RWLOCK-NEXT:   Thread T0 passes reader-writer lock {{M[0-9]+}} at 0x{{[0-9a-f]+}} to a mutex call:
// RWLOCK-NEXT:     #0 main {{.*}}.c:[[@LINE+17]]
// RWLOCK:      SUMMARY: HybridRace: rwlock-used-as-mutex

#include <pthread.h>
#include <string.h>

static union {
  pthread_mutex_t M;
  pthread_rwlock_t R;
} Lock;

int main(int Argc, char **Argv) {
  if (!strcmp(Argv[1], "mutex")) {
    pthread_mutex_init(&Lock.M, 0);
    pthread_rwlock_rdlock(&Lock.R); // @rdlock
  } else {
    pthread_rwlock_init(&Lock.R, 0);
    pthread_mutex_lock(&Lock.M); // @lock
  }
  return 0;
}
