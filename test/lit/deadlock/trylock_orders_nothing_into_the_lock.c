// A trylock cannot block, so taking A with a trylock while holding B adds
// no edge B => A: with T1's A => B, nothing is reported (TRY). A lock
// acquired with a trylock and then held still orders the locks taken after
// it: holding the trylocked B, a blocking lock of A closes the cycle (HELD).
// A failed trylock adds nothing either (it is never held).
//
// RUN: %hrace_cc %s -o %t
// RUN: %t try 2>&1 | FileCheck %s --allow-empty --check-prefix=TRY
// RUN: not %t held 2>&1 | FileCheck %s --check-prefix=HELD
//
// TRY-NOT: HybridRace
// HELD:      WARNING: HybridRace: lock-order inversion (potential deadlock)
// HELD-NEXT:   Cycle of 2 locks
// HELD:        acquired here while holding mutex {{M[0-9]+}} by thread T0:
// HELD-NEXT:     #0 main {{.*}}.c:[[@LINE+31]]
// HELD-NEXT:   Mutex {{M[0-9]+}} previously acquired by the same thread here:
// HELD-NEXT:     #0 main {{.*}}.c:[[@LINE+28]]

#include <pthread.h>
#include <string.h>

static pthread_mutex_t A = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t B = PTHREAD_MUTEX_INITIALIZER;

static void *TakeAThenB(void *Arg) {
  pthread_mutex_lock(&A);
  pthread_mutex_lock(&B);
  pthread_mutex_unlock(&B);
  pthread_mutex_unlock(&A);
  return Arg;
}

int main(int Argc, char **Argv) {
  pthread_t T;
  pthread_create(&T, 0, TakeAThenB, 0);
  pthread_join(T, 0);
  if (Argc > 1 && !strcmp(Argv[1], "try")) {
    pthread_mutex_lock(&B);
    if (pthread_mutex_trylock(&A) == 0)
      pthread_mutex_unlock(&A);
    pthread_mutex_unlock(&B);
    // A failed trylock: main holds A, a helper cannot take it.
    return 0;
  }
  if (pthread_mutex_trylock(&B) == 0) { // @held_b
    pthread_mutex_lock(&A); // @held_a
    pthread_mutex_unlock(&A);
    pthread_mutex_unlock(&B);
  }
  return 0;
}
